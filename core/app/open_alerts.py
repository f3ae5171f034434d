"""The open alerts as the window's banner lists them: each in the manager's language, its time on the
classrooms' clock, without the "[Shiftcast]" prefix that the e-mail and the webhook carry. Read in a
transaction of its own."""

from __future__ import annotations

from dataclasses import dataclass

from core import alerts
from core.store.db import Database
from core.store.kinds import AlertKind
from core.texts.formats import Language

PREFIX = "[Shiftcast] "


@dataclass(frozen=True)
class OpenAlert:
    id: int
    kind: AlertKind
    scope: str
    text: str


def open_alerts(db: Database, language: Language) -> tuple[OpenAlert, ...]:
    with db.read() as session:
        zone = alerts.classroom_zone(session)
        return tuple(OpenAlert(a.id, a.kind, a.scope, alerts.message_of(a, language, zone).removeprefix(PREFIX))
                     for a in alerts.open_alerts(session))
