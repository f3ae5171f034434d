"""The relay Worker the app carries (resources/relay/, built by packaging/relay_bundle.py): its module,
its migrations and what its manifest says, read once per use and never changed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from core.resources import resource


@dataclass(frozen=True)
class Migration:
    name: str  # the file's name, as wrangler records it in d1_migrations
    sql: str


@dataclass(frozen=True)
class Bundle:
    relay_version: str
    schema_version: int
    main_module: str
    module: bytes
    compatibility_date: str
    crons: tuple[str, ...]
    d1_binding: str
    vars: dict[str, str]
    migrations: tuple[Migration, ...]


def load(folder: Path | None = None) -> Bundle:
    root = folder or resource("relay")
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    migrations = tuple(Migration(name, (root / "migrations" / name).read_text(encoding="utf-8"))
                       for name in manifest["migrations"])
    return Bundle(
        relay_version=str(manifest["relay_version"]),
        schema_version=int(manifest["schema_version"]),
        main_module=str(manifest["main_module"]),
        module=(root / manifest["main_module"]).read_bytes(),
        compatibility_date=str(manifest["compatibility_date"]),
        crons=tuple(str(c) for c in manifest["crons"]),
        d1_binding=str(manifest["d1_binding"]),
        vars={str(k): str(v) for k, v in manifest["vars"].items()},
        migrations=migrations,
    )


def version_tuple(version: str) -> tuple[int, ...]:
    """"0.1.0" → (0, 1, 0); anything unreadable is older than every real version."""
    try:
        return tuple(int(part) for part in version.split("."))
    except ValueError:
        return ()


def is_older(deployed: str | None, bundled: str) -> bool:
    return deployed is None or version_tuple(deployed) < version_tuple(bundled)
