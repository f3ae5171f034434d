"""The teachers' page in a relay sync: the documents (core/pages/documents.py) and the teachers' calendars
(core/calendar/feed.py) that changed since the last sync are put on the relay,
those gone are deleted, 40 to a call, with the page's settings when they changed; the manager's opt-in
turned off deletes everything the relay holds for the page, once.

What was put is remembered by fingerprint per relay address (RELAY_PAGES): an unchanged document is not
put again, and a relay attached at another address gets everything. Each batch is remembered once the
relay took it, so a sync that fails half-way puts only the rest at the next one. `events_through` (the
last events cursor this sync acknowledged, its events handled) lets the relay forget the answers the
documents now include.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from core.calendar import feed
from core.pages import documents, jsontext
from core.pages.entry import PageEntry
from core.relay.client import RelayClient
from core.store import setting_keys as keys
from core.store.db import Database

log = logging.getLogger(__name__)
BATCH = 40  # the relay's limit of puts and deletes together per call
MAX_BODY_CHARS = 200_000  # the relay refuses a larger document (and with it the whole call)
CALL_BYTES = 1_500_000  # a call's documents together, under the relay's 2 MB request body with room to spare


@dataclass
class Memory:
    """What the relay at `relay` holds of the page: its settings' fingerprint and each document's."""

    relay: str
    settings: str | None = None
    documents: dict[str, str] = field(default_factory=dict)

    def dumps(self) -> str:
        return json.dumps({"relay": self.relay, "settings": self.settings, "documents": self.documents},
                          sort_keys=True, separators=(",", ":"))


def read_memory(text: str | None, relay_url: str) -> Memory | None:
    """The memory kept, for whichever relay it was (None: nothing handed over, or unreadable)."""
    try:
        raw = json.loads(text) if text else None
    except ValueError:
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("relay"), str):
        return None
    docs = raw.get("documents")
    return Memory(raw["relay"], raw.get("settings") if isinstance(raw.get("settings"), str) else None,
                  {k: v for k, v in docs.items() if isinstance(v, str)} if isinstance(docs, dict) else {})


def ident(kind: str, key: str) -> str:
    return f"{kind}:{key}"


def _settings_print(settings: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()


def push_pages(db: Database, relay: RelayClient, *, now: dt.datetime, events_through: int | None) -> int:
    """Hand the relay what changed for the page; the number of documents put and deleted."""
    with db.read() as session:
        enabled = keys.PAGES_ENABLED.read(session)
        liff_id, login_channel = keys.LIFF_ID.read(session), keys.LINE_LOGIN_CHANNEL_ID.read(session)
        memory = read_memory(keys.RELAY_PAGES.read(session), relay.url)
    if not enabled:
        if memory is not None:
            if memory.relay == relay.url:
                relay.delete_pages()
                log.info("the teachers' page was turned off: the relay's page data deleted")
            _remember(db, None)
        return 0
    if not liff_id or not login_channel:
        return 0
    with db.write() as session:  # a teacher's calendar address is made the first time
        found = documents.entries(session, now=now, relay_url=relay.url)
        found += feed.calendar_entries(session, now=now, relay_url=relay.url)
    if memory is None or memory.relay != relay.url:
        memory = Memory(relay.url)
    settings = {"login_channel_id": login_channel, "liff_id": liff_id}
    prints = {ident(e.kind.value, e.key): jsontext.fingerprint(e) for e in found}
    changed: list[PageEntry] = [e for e in found if memory.documents.get(ident(e.kind.value, e.key)) != prints[
        ident(e.kind.value, e.key)] and _fits(e)]
    gone = sorted(set(memory.documents) - set(prints))
    settings_changed = memory.settings != _settings_print(settings)
    work: list[tuple[str, Any]] = [("put", e) for e in changed] + [("delete", g) for g in gone]
    if not work and not settings_changed and events_through is None:
        return 0
    done = 0
    batches = _batches(work)
    for number, batch in enumerate(batches):
        body: dict[str, Any] = {
            "put": [e.as_put() for what, e in batch if what == "put"],
            "delete": [dict(zip(("kind", "key"), g.split(":", 1), strict=True)) for what, g in batch if what == "delete"]}
        if settings_changed:
            body["settings"] = settings
        if events_through is not None and number == len(batches) - 1:
            body["events_through"] = events_through  # with the last batch: every document now includes them
        relay.put_pages(body)
        for what, item in batch:
            if what == "put":
                memory.documents[ident(item.kind.value, item.key)] = prints[ident(item.kind.value, item.key)]
            else:
                memory.documents.pop(item, None)
        if settings_changed:
            memory.settings, settings_changed = _settings_print(settings), False
        _remember(db, memory)
        done += len(batch)
    return done


def _fits(entry: PageEntry) -> bool:
    """Counted as JavaScript counts a string's length (UTF-16 code units), as the relay does."""
    if len(entry.body.encode("utf-16-le")) // 2 <= MAX_BODY_CHARS:
        return True
    log.warning("the teachers' page %s document %s is larger than the relay takes; it is not handed over",
                entry.kind.value, entry.key)
    return False


def _batches(work: list[tuple[str, Any]]) -> list[list[tuple[str, Any]]]:
    """At most BATCH entries a call, and no more than CALL_BYTES of documents (one call for nothing but
    the settings or the events taken in)."""
    batches: list[list[tuple[str, Any]]] = [[]]
    size = 0
    for what, item in work:
        weight = len(item.body.encode("utf-8")) if what == "put" else 0
        if len(batches[-1]) == BATCH or (batches[-1] and size + weight > CALL_BYTES):
            batches.append([])
            size = 0
        batches[-1].append((what, item))
        size += weight
    return batches


def _remember(db: Database, memory: Memory | None) -> None:
    with db.write() as session:
        keys.RELAY_PAGES.write(session, memory.dumps() if memory is not None else None)
