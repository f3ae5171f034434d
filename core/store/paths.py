"""Where Shiftcast keeps its data: the platform's per-user data dir, or SHIFTCAST_HOME, or --home.

The front end builds one DataPaths for the process with `data_paths()` (the only caller of
`default_home()`) and hands it to whatever reads or writes a file, so `--home X` is obeyed
everywhere and nothing lands in the default folder behind its back.
"""

from __future__ import annotations

import os
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

    def ensure(self) -> DataPaths:
        for folder in (self.home, self.backups, self.images, self.logs):
            folder.mkdir(parents=True, exist_ok=True)
        return self

    def database_url(self) -> str:
        """SHIFTCAST_DB_URL wins; otherwise the SQLite file in the data dir."""
        override = os.environ.get(DB_URL_ENV, "").strip()
        if override:
            return override
        return f"sqlite:///{self.database.as_posix()}"


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
