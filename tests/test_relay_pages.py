"""The teachers' page in the relay sync (core/relay/pages.py): what changed is put, 40 to a call, what went
is deleted, nothing when nothing changed, everything removed once when the manager turns the page off.

The app's side over real HTTP against a stand-in of the relay's page routes on loopback, which checks every
call's Shiftcast-HMAC signature with the relay's key and keeps what it was given as the relay's D1 would
(relay/migrations/0004_pages.sql); the events route hands over page events as the relay stores them."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import secrets
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest
from sqlalchemy import select

from core.emulator import LineEmulator
from core.pages.entry import PageEntry, PageKind
from core.relay import pages, signing, sync
from core.relay.client import RelayClient, RelayError
from core.roster import availability, rules
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import AvailabilityAnswer, Teacher
from tests import factories as f
from tests.linefixtures import TOKEN, user_id
from tests.relayfixtures import start_relay
from tests.test_page_documents import NOW, seed
from tests.waiting import PATIENCE_S

LIFF_ID, LOGIN_CHANNEL = "1234567890-AbCdEfGh", "1234567890"


class PageRelay:
    """The relay's /api/pages and /api/events as the contract has them, with their signatures checked."""

    def __init__(self) -> None:
        self.key = secrets.token_hex(32)
        self.pages: dict[tuple[str, str], dict[str, Any]] = {}
        self.settings: dict[str, str] | None = None
        self.calls: list[tuple[str, str, dict[str, Any] | None]] = []
        self.events: list[dict[str, Any]] = []  # the page events waiting for the app, cursor = place + 1
        self.answers: dict[int, dict[str, Any]] = {}  # event cursor → the answer it carried (page_answers)
        self.fail_next_put = False
        relay = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _handle(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if not relay.signed(self.command, self.path, raw, self.headers.get("Authorization", "")):
                    self._answer(401, {"error": "unauthorized", "message": "bad signature"})
                    return
                body = json.loads(raw) if raw else None
                path = urlparse(self.path).path
                relay.calls.append((self.command, path, body))
                status, answer = relay.route(self.command, path, parse_qs(urlparse(self.path).query), body)
                self._answer(status, answer)

            do_GET = do_PUT = do_POST = do_DELETE = _handle

            def log_message(self, *_: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def signed(self, method: str, path: str, body: bytes, header: str) -> bool:
        fields = dict(part.strip().split("=", 1) for part in header.removeprefix(signing.SCHEME).split(","))
        expected = signing.signature(self.key, method, path, body, ts=int(fields["ts"]), nonce=fields["nonce"])
        return secrets.compare_digest(expected, fields["sig"])

    def route(self, method: str, path: str, query: dict[str, list[str]], body: Any) -> tuple[int, dict[str, Any]]:
        if (method, path) == ("PUT", "/api/pages"):
            return self.put(body)
        if (method, path) == ("DELETE", "/api/pages"):
            deleted = len(self.pages)
            self.pages, self.settings, self.answers = {}, None, {}
            return 200, {"deleted": deleted}
        if (method, path) == ("GET", "/api/events"):
            after = int(query["after"][0])
            found = [{"cursor": n + 1, "webhook_event_id": e["webhookEventId"], "received_at": 0, "event": e}
                     for n, e in enumerate(self.events) if e and n + 1 > after]
            return 200, {"events": found, "next": found[-1]["cursor"] if found else after}
        if (method, path) == ("GET", "/api/outcomes"):
            return 200, {"outcomes": [], "next": 0}
        if method in ("POST", "PUT"):  # the acks and the pairing codes: taken
            if path == "/api/events/ack":  # acknowledged events are deleted
                self.events = [e if n + 1 > body["through"] else {} for n, e in enumerate(self.events)]
            return 200, {}
        return 404, {"error": "not_found", "message": path}

    def put(self, body: Any) -> tuple[int, dict[str, Any]]:
        if self.fail_next_put:
            self.fail_next_put = False
            return 500, {"error": "internal", "message": "D1 was away"}
        entries, gone = body.get("put", []), body.get("delete", [])
        if len(entries) + len(gone) > 40 or any(len(e["body"]) > 200_000 for e in entries):
            return 400, {"error": "bad_request", "message": "too many or too large"}
        for entry in entries:
            assert set(entry) == {"kind", "key", "body", "purge_after"}
            text = entry["body"]
            self.pages[(entry["kind"], entry["key"])] = {
                **entry, "body": text if entry["kind"] == "calendar" else json.loads(text)}
        for entry in gone:
            self.pages.pop((entry["kind"], entry["key"]), None)
        if "settings" in body:
            self.settings = body["settings"]
        if "events_through" in body:
            self.answers = {seq: a for seq, a in self.answers.items() if seq > body["events_through"]}
        return 200, {"put": len(entries), "deleted": len(gone)}

    def page_event(self, who: str, answer: dict[str, Any]) -> None:
        """An answer posted on the page: stored as an event for the app and shown meanwhile."""
        self.events.append({"type": "page", "webhookEventId": f"page-{secrets.token_hex(16)}",
                            "timestamp": int(NOW.timestamp() * 1000), "mode": "active",
                            "source": {"type": "user", "userId": who}, "page": answer})
        self.answers[len(self.events)] = answer

    def page_calls(self) -> list[tuple[str, dict[str, Any] | None]]:
        return [(method, body) for method, path, body in self.calls if path == "/api/pages"]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def relay() -> Iterator[PageRelay]:
    stand_in = PageRelay()
    yield stand_in
    stand_in.close()


@pytest.fixture
def client(relay: PageRelay) -> Iterator[RelayClient]:
    with RelayClient(relay.url, relay.key, clock=lambda: dt.datetime.now(dt.UTC)) as made:
        yield made


def turn_on(db: Database) -> None:
    with db.write() as s:
        keys.PAGES_ENABLED.write(s, True)
        keys.LIFF_ID.write(s, LIFF_ID)
        keys.LINE_LOGIN_CHANNEL_ID.write(s, LOGIN_CHANNEL)


def push(db: Database, client: RelayClient, *, now: dt.datetime = NOW, through: int | None = None) -> int:
    return pages.push_pages(db, client, now=now, events_through=through)


def test_nothing_goes_to_the_relay_until_the_page_is_on_and_set_up(db: Database, relay: PageRelay,
                                                                   client: RelayClient) -> None:
    seed(db)
    assert push(db, client) == 0
    with db.write() as s:
        keys.PAGES_ENABLED.write(s, True)
        keys.LIFF_ID.write(s, LIFF_ID)  # no LINE Login channel yet: the relay could not check a token
    assert push(db, client) == 0
    assert relay.calls == []


def test_the_first_sync_puts_every_document_and_an_unchanged_one_is_not_put_again(
        db: Database, relay: PageRelay, client: RelayClient) -> None:
    seeded = seed(db)
    turn_on(db)
    assert push(db, client) == 8  # three teachers, their calendars, two classroom months
    assert relay.settings == {"login_channel_id": LOGIN_CHANNEL, "liff_id": LIFF_ID}
    assert sorted(k for k in relay.pages if k[0] != "calendar") == sorted([("classroom", f"c{seeded.honcho}/2026-12"), ("classroom", f"c{seeded.ekimae}/2026-12"),
                                          ("person", user_id(1)), ("person", user_id(2)), ("person", user_id(3))])
    assert relay.pages[("person", user_id(1))]["purge_after"] == "2027-01-07T15:00:00Z"
    calls = len(relay.calls)
    assert push(db, client, now=NOW + dt.timedelta(minutes=1)) == 0
    assert len(relay.calls) == calls  # an idempotent sync puts nothing

    with db.write() as s:
        f.shift(s, rules.get_classroom(s, seeded.ekimae), rules.get_teacher(s, seeded.tanaka), dt.date(2026, 12, 9),
                now=NOW)  # a draft: no page shows it
    assert push(db, client, now=NOW + dt.timedelta(minutes=2)) == 0


def test_changed_documents_go_and_gone_ones_are_deleted(db: Database, relay: PageRelay, client: RelayClient) -> None:
    seeded = seed(db)
    turn_on(db)
    push(db, client)
    with db.write() as s:
        teacher = s.get(Teacher, seeded.suzuki)
        assert teacher is not None
        f.line(teacher).address = None  # 鈴木's LINE is unpaired: his document goes
        keys.LIFF_ID.write(s, "1234567890-ZyXwVuTs")
    relay.calls.clear()
    assert push(db, client) == 2  # 鈴木's document and calendar deleted, the others unchanged, the new LIFF ID with it
    [(method, body)] = relay.page_calls()
    assert body is not None and [d["kind"] for d in body["delete"]] == ["calendar", "person"]
    assert body["delete"][1] == {"kind": "person", "key": user_id(2)}
    assert body["settings"]["liff_id"] == "1234567890-ZyXwVuTs"
    assert ("person", user_id(2)) not in relay.pages


def test_forty_to_a_call_and_a_failed_call_is_taken_up_at_the_next_sync(db: Database, relay: PageRelay,
                                                                        client: RelayClient) -> None:
    with db.write() as s:
        for n in range(1, 46):
            f.teacher(s, f"講師 {n:02d}", n)
    turn_on(db)
    relay.fail_next_put = True
    with pytest.raises(RelayError):
        push(db, client)
    assert relay.pages == {}
    assert push(db, client) == 90  # each teacher's document and calendar
    sizes = [len(body["put"]) + len(body["delete"]) for _, body in relay.page_calls() if body]
    assert sizes == [40, 40, 40, 10]  # the failed first call, then the three that went
    relay.calls.clear()
    relay.fail_next_put = False
    assert push(db, client) == 0 and relay.calls == []


def test_turning_the_page_off_deletes_everything_once(db: Database, relay: PageRelay, client: RelayClient) -> None:
    seed(db)
    turn_on(db)
    push(db, client)
    with db.write() as s:
        keys.PAGES_ENABLED.write(s, False)
    assert push(db, client) == 0
    assert (relay.pages, relay.settings) == ({}, None)
    assert [m for m, _ in relay.page_calls()] == ["PUT", "DELETE"]
    push(db, client)
    assert [m for m, _ in relay.page_calls()] == ["PUT", "DELETE"]
    with db.read() as s:
        assert keys.RELAY_PAGES.read(s) is None


def test_a_sync_takes_in_a_page_answer_puts_the_document_with_it_and_lets_the_relay_forget_it(
        db: Database, relay: PageRelay, client: RelayClient, paths: Any) -> None:
    seeded = seed(db)
    turn_on(db)
    with db.write() as s:
        request = availability.ask(s, seeded.honcho, 2027, 1, dt.date(2026, 12, 20), [seeded.sato], now=NOW).id
    first = sync.sync(db, client, now=NOW, paths=paths, sender=None)
    assert first.pages == 8
    relay.page_event(user_id(1), {"action": "availability", "request": request,
                                  "days": [{"date": "2027-01-04", "answer": "yes"}]})
    relay.calls.clear()
    summary = sync.sync(db, client, now=NOW + dt.timedelta(minutes=1), paths=paths, sender=None)
    assert (summary.events_handled, summary.pages) == (1, 1)
    with db.read() as s:
        assert [(a.answer, a.source) for a in s.scalars(select(AvailabilityAnswer))] == [("yes", "page")]
    [(_, body)] = relay.page_calls()
    assert body is not None and body["events_through"] == 1 and relay.answers == {}
    [put] = body["put"]
    assert put["key"] == user_id(1)
    assert relay.pages[("person", user_id(1))]["body"]["availability"][0]["answers"][0]["source"] == "page"
    relay.calls.clear()
    assert sync.sync(db, client, now=NOW + dt.timedelta(minutes=2), paths=paths, sender=None).pages == 0
    assert relay.page_calls() == []


@pytest.mark.slow  # starts the relay with wrangler
def test_the_real_relay_serves_what_a_sync_put_takes_a_page_answer_back_and_forgets_it_once_taken_in(
        db: Database, tmp_path: Path, paths: Any) -> None:
    seeded = seed(db)
    turn_on(db)
    with db.write() as s:
        request = availability.ask(s, seeded.honcho, 2027, 1, dt.date(2026, 12, 20), [seeded.sato], now=NOW).id
    with LineEmulator(token=TOKEN) as line, contextlib.contextmanager(start_relay)(tmp_path, line) as local, \
            RelayClient(local.url, local.key) as client, httpx.Client(base_url=local.url, timeout=PATIENCE_S) as page:
        token = line.issue_id_token(user_id(1), LOGIN_CHANNEL)
        signed_in = {"Authorization": f"Bearer {token}"}
        assert sync.sync(db, client, now=NOW, paths=paths, sender=None).pages == 8
        assert page.get("/liff/config").json() == {"liff_id": LIFF_ID}
        me = page.get("/liff/api/me", headers=signed_in).json()
        assert (me["person"]["name"], len(me["person"]["shifts"]), me["answers"]) == ("佐藤 花子", 2, [])
        assert page.get("/liff/api/classroom", params={"key": f"c{seeded.honcho}", "month": "2026-12"},
                        headers=signed_in).json()["name"] == "本町教室"
        assert page.get("/liff/api/classroom", params={"key": f"c{seeded.ekimae}", "month": "2026-12"},
                        headers=signed_in).status_code == 403  # another classroom's month

        answer = {"action": "availability", "request": request, "days": [{"date": "2027-01-04", "answer": "yes"}]}
        assert page.post("/liff/api/answers", json=answer, headers=signed_in).status_code == 202
        assert page.get("/liff/api/me", headers=signed_in).json()["answers"] == [answer]  # shown meanwhile
        summary = sync.sync(db, client, now=NOW + dt.timedelta(minutes=1), paths=paths, sender=None)
        assert (summary.events_handled, summary.pages) == (1, 1)
        me = page.get("/liff/api/me", headers=signed_in).json()
        assert me["answers"] == []  # taken in: the document shows it now
        assert me["person"]["availability"][0]["answers"] == [
            {"date": "2027-01-04", "answer": "yes", "from": None, "to": None, "source": "page"}]
        assert sync.sync(db, client, now=NOW + dt.timedelta(minutes=2), paths=paths, sender=None).pages == 0

        with db.write() as s:
            keys.PAGES_ENABLED.write(s, False)
        sync.sync(db, client, now=NOW + dt.timedelta(minutes=3), paths=paths, sender=None)
        assert page.get("/liff/config").status_code == 404
        assert page.get("/liff/api/me", headers=signed_in).status_code == 401


def test_a_call_carries_at_most_forty_entries_and_a_million_and_a_half_bytes_and_an_oversized_document_stays() -> None:
    def entry(n: int, chars: int) -> PageEntry:
        return PageEntry(PageKind.CLASSROOM, f"c{n}/2026-12", json.dumps({"text": "あ" * chars}, ensure_ascii=False), NOW)

    big = [("put", entry(n, 130_000)) for n in range(10)]  # 390,000 bytes each in UTF-8
    assert [len(b) for b in pages._batches(big)] == [3, 3, 3, 1]
    small = [("put", entry(n, 10)) for n in range(45)] + [("delete", "person:U1")]
    assert [len(b) for b in pages._batches(small)] == [40, 6]
    assert pages._batches([]) == [[]]  # one call for the settings or the events taken in alone
    assert pages._fits(entry(0, 199_000)) and not pages._fits(entry(0, 200_000))
