"""Build the relay Worker the app deploys (resources/relay/) from relay/ with the relay's own esbuild.

    python packaging/relay_bundle.py            # rewrite resources/relay/
    python packaging/relay_bundle.py --check    # exit 1 if resources/relay/ is not what relay/ builds

The built files are committed, so a packaged app, `make run` and the tests need no Node: only whoever
changes relay/src or relay/migrations runs this (after `npm ci` in relay/), and tests/test_relay_bundle.py
fails until they have. The bundle is one ES module (the Worker's entry point and everything it imports,
the teachers' page's HTML, script and style from relay/page/ as text), the migrations as they are, and
manifest.json: the version /health reports, the schema version the migrations reach, and what
wrangler.toml says about the upload (compatibility date, cron, vars).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RELAY = ROOT / "relay"
TARGET = ROOT / "resources" / "relay"
MAIN_MODULE = "worker.js"


def _constant(source: str, name: str) -> str:
    found = re.search(rf"export const {name} = \"?([^\";]+)\"?;", source)
    if found is None:
        raise SystemExit(f"relay/src/version.ts does not declare {name}")
    return found.group(1)


def manifest(relay: Path = RELAY) -> dict[str, object]:
    config = tomllib.loads((relay / "wrangler.toml").read_text(encoding="utf-8"))
    version = (relay / "src" / "version.ts").read_text(encoding="utf-8")
    return {
        "relay_version": _constant(version, "RELAY_VERSION"),
        "schema_version": int(_constant(version, "SCHEMA_VERSION")),
        "main_module": MAIN_MODULE,
        "compatibility_date": config["compatibility_date"],
        "crons": config["triggers"]["crons"],
        "d1_binding": config["d1_databases"][0]["binding"],
        "vars": config.get("vars", {}),
        "migrations": sorted(p.name for p in (relay / "migrations").glob("*.sql")),
    }


def build(out: Path, relay: Path = RELAY) -> None:
    """Write the bundle into `out` (created; what was there is replaced)."""
    esbuild = relay / "node_modules" / ".bin" / "esbuild"
    if not esbuild.exists():
        raise SystemExit("relay/node_modules is missing: run `npm ci` in relay/ first")
    if out.exists():
        shutil.rmtree(out)
    (out / "migrations").mkdir(parents=True)
    # The page's files are text to the Worker, as wrangler.toml's [[rules]] make them. The Worker's own code
    # is TypeScript throughout, so the page's script is the only .js it imports.
    subprocess.run([str(esbuild), "src/index.ts", "--bundle", "--format=esm", "--target=es2022",
                    "--platform=neutral", "--log-level=warning", "--loader:.html=text", "--loader:.css=text",
                    "--loader:.js=text", f"--outfile={out / MAIN_MODULE}"],
                   cwd=relay, check=True)
    for sql in sorted((relay / "migrations").glob("*.sql")):
        shutil.copyfile(sql, out / "migrations" / sql.name)
    text = json.dumps(manifest(relay), indent=2, ensure_ascii=False) + "\n"
    (out / "manifest.json").write_text(text, encoding="utf-8")


def differences(built: Path, shipped: Path) -> list[str]:
    """The files that differ between two bundles, by relative path."""
    def files(root: Path) -> dict[str, bytes]:
        return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}

    a, b = files(built), files(shipped)
    return sorted(name for name in a.keys() | b.keys() if a.get(name) != b.get(name))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with resources/relay/ instead of writing it")
    args = parser.parse_args(argv)
    if not args.check:
        build(TARGET)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        build(Path(tmp) / "relay")
        stale = differences(Path(tmp) / "relay", TARGET)
    for name in stale:
        print(f"resources/relay/{name} is not what relay/ builds: run python packaging/relay_bundle.py")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
