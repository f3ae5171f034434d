"""The one way a page document is written as JSON: sorted keys and compact separators, so the same content
is the same text and its fingerprint stays put; `built_at` (when it was written) is left out of the
fingerprint, so an unchanged document is not put again at every sync."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any

from core.pages.entry import PageEntry, PageKind

BUILT_AT = "built_at"


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def fingerprint(entry: PageEntry) -> str:
    """The SHA-256 of what the document says; for JSON documents without the moment it was built, for a
    calendar without its DTSTAMP lines (the moment the feed was written)."""
    if entry.kind == PageKind.CALENDAR:
        text = "\n".join(line for line in entry.body.splitlines() if not line.startswith("DTSTAMP"))
    else:
        document = json.loads(entry.body)
        document.pop(BUILT_AT, None)
        text = dumps(document)
    # The day only: a floor of "now + 7 days" moves every minute, and putting the document again once a day
    # is enough to keep the relay from forgetting it.
    text += "\n" + entry.purge_after.astimezone(dt.UTC).date().isoformat()
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def iso(moment: dt.datetime) -> str:
    """A moment as the documents write it: UTC to the second, with a Z."""
    return moment.astimezone(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
