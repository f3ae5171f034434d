"""Where Shiftcast keeps its data: the platform's per-user data dir, or SHIFTCAST_HOME, or --home.

The front end builds one DataPaths for the process with `data_paths()` (the only caller of
`default_home()`) and hands it to whatever reads or writes a file, so `--home X` is obeyed
everywhere and nothing lands in the default folder behind its back.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "Shiftcast"
HOME_ENV = "SHIFTCAST_HOME"
DB_URL_ENV = "SHIFTCAST_DB_URL"


@dataclass(frozen=True)
class DataPaths:
    """All the places inside one data directory. Creating it never touches the install dir."""

    home: Path

    @property
    def database(self) -> Path:
        return self.home / "shiftcast.db"

    @property
    def backups(self) -> Path:
        return self.home / "backups"

    @property
    def images(self) -> Path:
        return self.home / "images"

    @property
    def logs(self) -> Path:
        return self.home / "logs"

    @property
    def templates(self) -> Path:
        """The manager's edited copies of the message templates (resources/templates when absent)."""
        return self.home / "templates"

    @property
    def database_config(self) -> Path:
        """The server chosen in Settings → Database; read before any database opens, so not a setting."""
        return self.home / "database.json"

    def ensure(self) -> DataPaths:
        for folder in (self.home, self.backups, self.images, self.logs):
            folder.mkdir(parents=True, exist_ok=True)
        return self

    def database_url(self) -> str:
        """SHIFTCAST_DB_URL wins; then the server of database.json; otherwise the SQLite file in the data dir."""
        override = os.environ.get(DB_URL_ENV, "").strip()
        if override:
            return override
        chosen = read_database_choice(self)
        if chosen is not None:
            return chosen
        return self.local_database_url()

    def local_database_url(self) -> str:
        return f"sqlite:///{self.database.as_posix()}"

    def database_url_is_chosen(self) -> bool:
        """Is the URL the one of database.json (whose password is in the keyring), not the environment's?"""
        return not os.environ.get(DB_URL_ENV, "").strip() and read_database_choice(self) is not None


def read_database_choice(paths: DataPaths) -> str | None:
    """The server URL saved in database.json (without a password), None for the local file.

    A damaged file counts as no choice: the app then opens the local file rather than not at all."""
    try:
        data = json.loads(paths.database_config.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    url = data.get("url") if isinstance(data, dict) else None
    return url.strip() or None if isinstance(url, str) else None


def write_database_choice(paths: DataPaths, url: str | None) -> None:
    """Save the server URL for the next start (None: back to the local file), atomically: a crash
    mid-write leaves the old file, never half a new one."""
    target = paths.database_config
    if url is None:
        target.unlink(missing_ok=True)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".database-", suffix=".json", dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump({"url": url}, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def default_home() -> Path:
    """The data folder when none is given: SHIFTCAST_HOME, else the platform's. Only `resolve_home`
    calls this; everything else is handed a DataPaths."""
    override = os.environ.get(HOME_ENV, "").strip()
    if override:
        return Path(override).expanduser().resolve()
    # roaming=False: a roster database must not follow the user across Windows domain machines.
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False, roaming=False))


def resolve_home(home: Path | None = None) -> Path:
    """`home` (from --home) if given, else the default data folder."""
    return home if home is not None else default_home()


def data_paths(home: Path | None = None) -> DataPaths:
    """The process's data folder, created if missing: the one place a front end gets its DataPaths."""
    return DataPaths(resolve_home(home)).ensure()
