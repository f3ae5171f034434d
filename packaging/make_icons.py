"""Icons for the installers, made from resources/icons/shiftcast.png (256 × 256) with Pillow.

    python packaging/make_icons.py icns OUT.icns       # macOS app icon (the spec calls make_icns on macOS)
    python packaging/make_icons.py iconset OUT.iconset # PNGs in the layout `iconutil -c icns` expects
    python packaging/make_icons.py png SIZE OUT.png    # e.g. hicolor sizes for the Linux desktop entry

Windows uses resources/icons/shiftcast.ico as it is (16–256 px). The master is 256 px, so the 512 and
1024 px Retina sizes are upscaled; replace the master with a 1024 px drawing to make them sharp.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
MASTER = ROOT / "resources" / "icons" / "shiftcast.png"

# name in the .iconset -> pixel size (Apple's iconutil layout)
ICONSET = {
    "icon_16x16.png": 16, "icon_16x16@2x.png": 32,
    "icon_32x32.png": 32, "icon_32x32@2x.png": 64,
    "icon_128x128.png": 128, "icon_128x128@2x.png": 256,
    "icon_256x256.png": 256, "icon_256x256@2x.png": 512,
    "icon_512x512.png": 512, "icon_512x512@2x.png": 1024,
}


def _master(source: Path = MASTER) -> Image.Image:
    with Image.open(source) as im:
        return im.convert("RGBA")


def make_png(size: int, out: Path, source: Path = MASTER) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    _master(source).resize((size, size), Image.Resampling.LANCZOS).save(out, "PNG")
    return out


def make_iconset(out_dir: Path, source: Path = MASTER) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    master = _master(source)
    for name, size in ICONSET.items():
        master.resize((size, size), Image.Resampling.LANCZOS).save(out_dir / name, "PNG")
    return out_dir


def make_icns(source: Path = MASTER, out: Path = ROOT / "build" / "shiftcast.icns") -> Path:
    """An .icns with every size from 16 to 1024 px (Pillow writes the ICNS container itself)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    master = _master(source).resize((1024, 1024), Image.Resampling.LANCZOS)
    sizes = sorted(set(ICONSET.values()))
    extra = [master.resize((s, s), Image.Resampling.LANCZOS) for s in sizes if s != 1024]
    master.save(out, "ICNS", append_images=extra)
    return out


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "icns":
        print(make_icns(MASTER, Path(argv[1])))
    elif len(argv) == 2 and argv[0] == "iconset":
        print(make_iconset(Path(argv[1])))
    elif len(argv) == 3 and argv[0] == "png":
        print(make_png(int(argv[1]), Path(argv[2])))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
