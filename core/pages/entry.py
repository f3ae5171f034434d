"""One document the app hands the relay for the teachers' page (relay/migrations/0004_pages.sql)."""

from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass


class PageKind(enum.StrEnum):
    PERSON = "person"  # key: the LINE user ID of a paired teacher or of the manager
    CLASSROOM = "classroom"  # key: "c<classroom id>/<YYYY-MM>"
    CALENDAR = "calendar"  # key: hex SHA-256 of the teacher's feed token


@dataclass(frozen=True)
class PageEntry:
    kind: PageKind
    key: str
    body: str  # JSON text, or the iCalendar text of a calendar
    purge_after: dt.datetime  # aware: the relay forgets the document then

    def as_put(self) -> dict[str, str]:
        return {"kind": self.kind.value, "key": self.key, "body": self.body,
                "purge_after": self.purge_after.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")}
