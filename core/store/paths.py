"""Where Shiftcast keeps its data: the platform's per-user data dir, or SHIFTCAST_HOME."""

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
    override = os.environ.get(HOME_ENV, "").strip()
    if override:
        return Path(override).expanduser().resolve()
    # roaming=False: a roster database must not follow the user across Windows domain machines.
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False, roaming=False))


def data_paths(home: Path | None = None) -> DataPaths:
    return DataPaths(home if home is not None else default_home()).ensure()
