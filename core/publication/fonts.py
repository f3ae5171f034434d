"""Finding a font that really has Japanese glyphs, so the month image never shows tofu boxes.

The chain: a font configured in Settings → a font bundled in resources/fonts/ → the system's CJK
fonts on Windows, macOS and Linux (fontconfig is asked on Linux). If none is found the error says
what to install.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from core.child_environment import FONTCONFIG, child_environment
from core.errors import ShiftcastError
from core.resources import resource
from core.texts import t

if TYPE_CHECKING:  # Pillow is imported where a font is opened (see month_image.py)
    from PIL import ImageFont

SAMPLE = "佐藤鈴木月火水木金土日"

SYSTEM_CANDIDATES = {
    "win32": [
        "C:/Windows/Fonts/YuGothM.ttc", "C:/Windows/Fonts/meiryo.ttc", "C:/Windows/Fonts/msgothic.ttc",
        "C:/Windows/Fonts/BIZ-UDGothicR.ttc",
    ],
    "darwin": [
        "/System/Library/Fonts/ヒラギノ角ゴシック W3.ttc", "/System/Library/Fonts/Hiragino Sans GB.ttc",
        "/Library/Fonts/Arial Unicode.ttf", "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",
    ],
    "linux": [
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
        "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf",
        "/usr/share/fonts/truetype/takao-gothic/TakaoPGothic.ttf",
    ],
}

HOW_TO_FIX = {
    "linux": t("font.fix.linux"),
    "darwin": t("font.fix.darwin"),
    "win32": t("font.fix.win32"),
}


class FontNotFoundError(ShiftcastError):
    pass


def _platform() -> str:
    return "win32" if sys.platform.startswith("win") else "darwin" if sys.platform == "darwin" else "linux"


def _fontconfig_candidates() -> list[str]:
    if not shutil.which("fc-match"):
        return []
    try:
        done = subprocess.run(["fc-match", "-f", "%{file}\n", ":lang=ja"], capture_output=True, text=True, timeout=5,
                              env=child_environment(passes=FONTCONFIG))
    except (OSError, subprocess.SubprocessError):
        return []
    return [line for line in done.stdout.splitlines() if line.strip()]


def candidates(configured: str | None = None) -> list[str]:
    found: list[str] = []
    if configured:
        found.append(configured)
    bundled = resource("fonts")
    if bundled.is_dir():
        found.extend(str(p) for p in sorted(bundled.iterdir()) if p.suffix.lower() in (".ttf", ".otf", ".ttc"))
    found.extend(SYSTEM_CANDIDATES[_platform()])
    if _platform() == "linux":
        found.extend(_fontconfig_candidates())
    windir = os.environ.get("WINDIR")
    if windir and _platform() == "win32":
        found.append(str(Path(windir) / "Fonts" / "meiryo.ttc"))
    return found


def has_japanese(path: str) -> bool:
    """True if the font draws distinct shapes for different kanji (a tofu box is the same for all)."""
    from PIL import ImageFont

    try:
        font = ImageFont.truetype(path, 24)
    except OSError:
        return False
    masks = {bytes(font.getmask(ch)) for ch in SAMPLE}
    return len(masks) == len(set(SAMPLE))


@lru_cache(maxsize=4)
def find_cjk_font(configured: str | None = None) -> str:
    for path in candidates(configured):
        if Path(path).is_file() and has_japanese(path):
            return path
    raise FontNotFoundError(t("font.missing", fix=HOW_TO_FIX[_platform()]))


@lru_cache(maxsize=32)
def load(size: int, configured: str | None = None) -> ImageFont.FreeTypeFont:
    from PIL import ImageFont

    return ImageFont.truetype(find_cjk_font(configured), size)
