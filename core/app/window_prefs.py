"""What the window remembers of itself in the database: the language the manager chose for it, whether
the first start's welcome was answered and whether the tray's "still running" hint was shown. Each
function is a transaction of its own."""

from __future__ import annotations

from dataclasses import dataclass

from core.store import setting_keys as keys
from core.store.db import Database

AUTOMATIC_LANGUAGE = keys.UI_LANGUAGE.default  # follow the system


@dataclass(frozen=True)
class AtStart:
    language: str  # as saved: a language code, or AUTOMATIC_LANGUAGE
    first_run_done: bool


def at_start(db: Database) -> AtStart:
    with db.read() as session:
        return AtStart(keys.UI_LANGUAGE.read(session), keys.UI_FIRST_RUN_DONE.read(session))


def language(db: Database) -> str:
    with db.read() as session:
        return keys.UI_LANGUAGE.read(session)


def save_language(db: Database, choice: str) -> None:
    """ValidationError for a language Shiftcast has no words in; nothing is saved then."""
    with db.write() as session:
        keys.UI_LANGUAGE.write(session, choice)


def first_run_done(db: Database) -> None:
    with db.write() as session:
        keys.UI_FIRST_RUN_DONE.write(session, True)


def tray_hint_first_time(db: Database) -> bool:
    """True the first time only: the hint is marked shown in the same transaction."""
    with db.write() as session:
        first_time = not keys.UI_TRAY_HINT_SHOWN.read(session)
        if first_time:
            keys.UI_TRAY_HINT_SHOWN.write(session, True)
    return first_time
