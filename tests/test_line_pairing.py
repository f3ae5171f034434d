"""Connecting a LINE account's group and teachers, over real HTTP: the emulator's simulated users and
groups post signed webhooks to the receiver, whose handlers ask the emulator's LINE API back (group
summary, reply), and a real SQLite file records the outcome."""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import select

import main
from core import alerts
from core.channels.line import LineApiError, LineClient
from core.emulator import LineEmulator
from core.errors import ValidationError
from core.receiving import pairing, pairing_limits
from core.receiving.groups import GroupProposal, accept_group, proposed_groups
from core.receiving.pairing import issue_codes, pairing_progress
from core.receiving.server import WebhookReceiver
from core.roster import contacts
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.kinds import Channel
from core.store.models import Alert, AlertKind, Classroom, PairingCode, PairingFailure, Teacher, WebhookEvent
from core.texts import render
from tests import factories as f
from tests.linefixtures import TOKEN, FakeClock, user_id

SECRET = "fedcba9876543210fedcba9876543210"
GROUP = "C" + "a1" * 16
PAIRED_JA = "登録できました。シフトのお知らせをこちらにお送りします。"


@pytest.fixture
def clock(now: dt.datetime) -> FakeClock:
    # One clock for LINE and the receiver, at a whole millisecond as LINE's timestamps are.
    return FakeClock(now.replace(microsecond=now.microsecond // 1000 * 1000))


@pytest.fixture
def line(clock: FakeClock) -> Iterator[LineEmulator]:
    with LineEmulator(token=TOKEN, channel_secret=SECRET, loopback_webhooks=True, clock=clock) as emu:
        yield emu


@pytest.fixture
def client(line: LineEmulator) -> Iterator[LineClient]:
    with LineClient(TOKEN, base_url=line.base_url) as c:
        yield c


@pytest.fixture
def receiver(db: Database, line: LineEmulator, client: LineClient, clock: FakeClock) -> Iterator[WebhookReceiver]:
    with WebhookReceiver(db, SECRET, handlers=pairing.standard_handlers(lambda: client), clock=clock) as rx:
        line.set_webhook_endpoint(rx.url)
        yield rx


class Handled:
    """Waits for the receiver's handlers, counting the events posted so far."""

    def __init__(self, receiver: WebhookReceiver) -> None:
        self.receiver = receiver
        self.count = 0

    def __call__(self, events: int = 1) -> None:
        self.count += events
        assert self.receiver.dispatcher.wait_handled(self.count, timeout=30)


@pytest.fixture
def handled(receiver: WebhookReceiver) -> Handled:
    return Handled(receiver)


def _friends(line: LineEmulator, *numbers: int) -> None:
    for n in numbers:
        line.add_user(user_id(n), f"講師{n}")


def _replies(line: LineEmulator, user: str) -> list[str]:
    return [m.message["text"] for m in line.inbox(user) if m.via == "reply"]


# ----- groups -----

def test_a_join_proposes_the_group_with_its_name_member_count_and_icon(
        db: Database, line: LineEmulator, handled: Handled, clock: FakeClock) -> None:
    with db.write() as s:
        room_id = f.classroom(s, "本校").id
    line.add_group(GROUP, "本校 講師グループ", [user_id(1), user_id(2), user_id(3)],
                   picture_url="https://profile.line-scdn.net/group.png")
    joined = line.join(GROUP)
    assert joined.result is not None and joined.result.status_code == 200
    handled()
    with db.read() as s:
        assert proposed_groups(s) == [GroupProposal(GROUP, "本校 講師グループ", 3,
                                                    "https://profile.line-scdn.net/group.png", clock.now)]
    assert [r.path for r in line.request_log()] == [f"/v2/bot/group/{GROUP}/summary",
                                                    f"/v2/bot/group/{GROUP}/members/count"]

    with db.write() as s:
        accept_group(s, room_id, GROUP, clock.now)
    with db.read() as s:
        room = s.get(Classroom, room_id)
        assert room is not None and room.line_group_id == GROUP
        assert keys.LINE_GROUP_MEMBERS.of(room_id).read(s) == 3  # the quota forecast counts them
        assert proposed_groups(s) == []  # the classroom has it now


def test_a_group_line_cannot_describe_is_still_proposed(db: Database, line: LineEmulator, clock: FakeClock) -> None:
    other = "C" + "b2" * 16
    line.add_group(other, "講師", [user_id(1)])
    # The handler made with a client that cannot reach LINE: the proposal is kept without a name.
    with LineClient(TOKEN, base_url="http://127.0.0.1:9") as unreachable, \
            WebhookReceiver(db, SECRET, handlers=pairing.standard_handlers(lambda: unreachable), clock=clock) as rx:
        line.set_webhook_endpoint(rx.url)
        line.join(other)
        assert rx.dispatcher.wait_handled(1, timeout=30)
    with db.read() as s:
        assert proposed_groups(s) == [GroupProposal(other, None, None, None, clock.now)]


def test_accepting_a_group_the_account_is_not_in_is_refused(db: Database, clock: FakeClock) -> None:
    with db.write() as s:
        room_id = f.classroom(s, "本校").id
    with pytest.raises(ValidationError, match="not in that group"), db.write() as s:
        accept_group(s, room_id, GROUP, clock.now)


def test_leaving_a_classroom_group_opens_an_alert_until_the_account_joins_again(
        db: Database, line: LineEmulator, handled: Handled, clock: FakeClock) -> None:
    with db.write() as s:
        room_id = f.classroom(s, "本校").id
    line.add_group(GROUP, "講師", [user_id(1)])
    line.join(GROUP)
    handled()
    with db.write() as s:
        accept_group(s, room_id, GROUP, clock.now)

    line.leave(GROUP)
    handled()
    with db.write() as s:
        [alert] = alerts.open_alerts(s)
        assert (alert.kind, alert.scope) == (AlertKind.LINE_GROUP_LEFT, str(room_id))
        assert "本校" in alert.title
        alerts.evaluate(s, now=clock.now, running_since=None)  # the minute watch agrees: still open
        assert [a.id for a in alerts.open_alerts(s)] == [alert.id]

    clock.advance(minutes=5)
    line.join(GROUP)
    handled()
    with db.write() as s:
        assert alerts.open_alerts(s) == []
        alerts.evaluate(s, now=clock.now, running_since=None)
        assert alerts.open_alerts(s) == []
        assert s.scalar(select(Alert.cleared_at)) == clock.now


def test_leaving_a_group_no_classroom_has_raises_no_alert(db: Database, line: LineEmulator, handled: Handled) -> None:
    line.add_group(GROUP, "講師", [user_id(1)])
    line.join(GROUP)
    line.leave(GROUP)
    handled(2)
    with db.read() as s:
        assert alerts.open_alerts(s) == []
        assert proposed_groups(s) == []  # left: nothing to offer


# ----- pairing codes -----

def _teachers_without_line(db: Database, *names: str, language: str = "ja") -> tuple[int, list[int]]:
    with db.write() as s:
        room = f.classroom(s, "本校", language=language)
        return room.id, [f.teacher(s, name, n, line_user_id=None, line_opt_in=False).id
                         for n, name in enumerate(names, start=1)]


def test_codes_are_grouped_unambiguous_unique_and_live_for_seven_days(db: Database, clock: FakeClock) -> None:
    room_id, ids = _teachers_without_line(db, "青木", "井上", "上田")
    with db.write() as s:
        f.teacher(s, "佐藤", 9)  # paired already: no code
        codes = issue_codes(s, clock.now, room_id)
        again = issue_codes(s, clock.now + dt.timedelta(days=1), room_id)
    assert sorted(c.teacher_id for c in codes) == sorted(ids)
    assert len({c.code for c in codes}) == 3
    for code in codes:
        groups = code.code.split("-")
        assert [len(g) for g in groups] == [3, 3, 3] and set("".join(groups)) <= set(pairing.ALPHABET)
        assert not set(code.code) & set("0O1IL")
        assert pairing.as_code(code.code) == "".join(groups)  # read back as it is shown
        assert code.expires_at == clock.now + dt.timedelta(days=7)
    assert again == codes  # a live code is kept: it may be on paper already


def test_the_codes_the_relay_holds_are_the_pending_ones_with_the_reply_this_handler_gives(
        db: Database, clock: FakeClock) -> None:
    room_id, ids = _teachers_without_line(db, "Smith", "Jones", "Brown", language="en")
    with db.write() as s:
        codes = {c.teacher_id: c for c in issue_codes(s, clock.now, room_id)}
        spent = s.scalar(select(PairingCode).where(PairingCode.teacher_id == ids[1]))
        assert spent is not None
        spent.used_at = clock.now
        line = contacts.contact(s.get_one(Teacher, ids[2]), Channel.LINE)  # paired since: no longer waiting
        line.address, line.agreed_at = user_id(3), clock.now
    with db.read() as s:
        held = pairing.held_codes(s, clock.now)
        later = pairing.held_codes(s, clock.now + pairing.CODE_LIFE)
    assert [(h.code, h.reply_text, h.expires_at) for h in held] == [
        (codes[ids[0]].code.replace("-", ""), pairing.REPLIES["en"]["paired"], codes[ids[0]].expires_at)]
    assert later == []  # expired


def test_the_expiry_and_code_rules_are_pure() -> None:
    at = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    assert pairing.is_live(at + dt.timedelta(seconds=1), None, at)
    assert not pairing.is_live(at, None, at)
    assert not pairing.is_live(at + dt.timedelta(days=1), at, at)
    assert pairing.as_code(" ab3-de5-fg7 ") == "AB3DE5FG7"
    assert pairing.as_code("ＡＢ３－ＤＥ５－ＦＧ７") == "AB3DE5FG7"  # typed full-width on a phone
    assert pairing.as_code("AB3ーDE5ーFG7") == "AB3DE5FG7"  # a Japanese keyboard's "-" is a long-vowel mark
    assert pairing.as_code("ab3 de5\u3000fg7") == "AB3DE5FG7"
    assert pairing.as_code("ab3-de5") == "AB3DE5"  # the length issued before: read, to be answered
    assert pairing.as_code("WONDERFUL") is None and pairing.as_code("123456789") is None  # words and numbers
    assert pairing.as_code("こんにちは") is None and pairing.as_code("AB3DE5FG") is None
    assert pairing.shown("AB3DE5FG7") == "AB3-DE5-FG7"
    # A draw without a digit (or without a letter) is drawn again.
    draws = iter("AAAAAAAAA" "222222222" "AAAAAAAA2")
    assert pairing.new_code(lambda alphabet: next(draws)) == "AAAAAAAA2"


def test_pairing_codes_bind_three_teachers_with_their_consent_time_and_a_reply(
        db: Database, line: LineEmulator, handled: Handled, clock: FakeClock) -> None:
    room_id, ids = _teachers_without_line(db, "青木", "井上", "上田")
    with db.write() as s:
        codes = issue_codes(s, clock.now, room_id)
    sent_at, user_of = {}, {}
    for n, code in enumerate(codes, start=1):
        user_of[code.teacher_id] = user_id(100 + n)
        clock.advance(minutes=1)
        line.follow(user_id(100 + n), f"講師{n}")  # they add the account first: a stranger, ignored
        typed = code.code.lower() if n == 2 else code.code  # a phone's lower case is forgiven
        sent = line.send_text(user_id(100 + n), typed)
        assert sent.result is not None and sent.result.status_code == 200
        sent_at[code.teacher_id] = clock.now
        handled(2)
        assert _replies(line, user_id(100 + n)) == [PAIRED_JA]
    with db.read() as s:
        for teacher_id in ids:
            teacher = s.get(Teacher, teacher_id)
            assert teacher is not None
            assert (f.reach(teacher).line_user_id, f.reach(teacher).line_opt_in, f.reach(teacher).line_opt_in_at) == (
                user_of[teacher_id], True, sent_at[teacher_id])
        assert all(row.used_at is not None for row in s.scalars(select(PairingCode)))
        progress = pairing_progress(s, clock.now)
    assert [(p.name, p.code, p.paired_at) for p in progress] == [
        ("上田", None, sent_at[ids[2]]), ("井上", None, sent_at[ids[1]]), ("青木", None, sent_at[ids[0]])]


def test_replies_follow_the_classroom_language(db: Database, line: LineEmulator, handled: Handled,
                                               clock: FakeClock) -> None:
    room_id, _ = _teachers_without_line(db, "Smith", language="en")
    with db.write() as s:
        [code] = issue_codes(s, clock.now, room_id)
    _friends(line, 7, 8)
    line.send_text(user_id(7), code.code)
    line.send_text(user_id(8), "ZZ9-ZZ9-ZZ9")
    handled(2)
    assert _replies(line, user_id(7)) == [pairing.REPLIES["en"]["paired"]]
    assert _replies(line, user_id(8)) == [pairing.REPLIES["ja"]["wrong"]]  # no code: the default language


def _snapshot(db: Database) -> list[tuple[object, ...]]:
    with db.read() as s:
        teachers = [(t.id, f.reach(t).line_user_id, f.reach(t).line_opt_in, f.reach(t).line_opt_in_at) for t in s.scalars(select(Teacher))]
        codes = [(c.id, c.used_at, c.used_by) for c in s.scalars(select(PairingCode))]
    return [*teachers, *codes]


def test_an_expired_a_reused_and_a_wrong_code_change_nothing_and_get_a_polite_reply(
        db: Database, line: LineEmulator, handled: Handled, clock: FakeClock) -> None:
    room_id, (late_id, on_time_id) = _teachers_without_line(db, "青木", "井上")
    with db.write() as s:
        [expired] = [c for c in issue_codes(s, clock.now - dt.timedelta(days=7, seconds=1), room_id)
                     if c.teacher_id == late_id]
        s.execute(f.table(PairingCode).delete().where(PairingCode.teacher_id == on_time_id))
        [live] = [c for c in issue_codes(s, clock.now, room_id) if c.teacher_id == on_time_id]
    _friends(line, 21, 22, 23, 24, 25)
    line.send_text(user_id(21), live.code)
    handled()
    before = _snapshot(db)

    line.send_text(user_id(22), expired.code)  # seven days and a second old
    line.send_text(user_id(23), live.code)  # spent by user 21 already
    line.send_text(user_id(24), "ZZ9-ZZ9-ZZ9")  # never issued
    line.send_text(user_id(25), "よろしくお願いします")  # chat, not a code
    handled(4)
    assert _snapshot(db) == before
    wrong = pairing.REPLIES["ja"]["wrong"]
    assert [_replies(line, user_id(n)) for n in (22, 23, 24, 25)] == [[wrong], [wrong], [wrong], []]
    with db.read() as s:
        late = s.get(Teacher, late_id)
        assert late is not None and (f.reach(late).line_user_id, f.reach(late).line_opt_in) == (None, False)


def test_a_code_from_the_line_account_of_another_teacher_changes_nothing(
        db: Database, line: LineEmulator, handled: Handled, clock: FakeClock) -> None:
    room_id, _ = _teachers_without_line(db, "青木")
    with db.write() as s:
        f.teacher(s, "佐藤", 31)  # user_id(31) is Sato's already
        [code] = issue_codes(s, clock.now, room_id)
    before = _snapshot(db)
    _friends(line, 31)
    line.send_text(user_id(31), code.code)
    handled()
    assert _snapshot(db) == before
    assert _replies(line, user_id(31)) == [pairing.REPLIES["ja"]["taken"]]


def test_a_code_sent_in_a_group_is_not_taken(db: Database, line: LineEmulator, handled: Handled,
                                             clock: FakeClock) -> None:
    room_id, _ = _teachers_without_line(db, "青木")
    with db.write() as s:
        [code] = issue_codes(s, clock.now, room_id)
    line.add_group(GROUP, "講師", [user_id(41)])
    _friends(line, 41)
    line.send_text(user_id(41), code.code, group_id=GROUP)  # everyone in the group would see it
    handled()
    with db.read() as s:
        assert s.scalar(select(PairingCode.used_at)) is None
    assert _replies(line, GROUP) == [] and _replies(line, user_id(41)) == []


# ----- guessing codes -----

def test_the_guessing_limits_are_pure() -> None:
    at = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
    minutes = [at - dt.timedelta(minutes=m) for m in (50, 40, 30, 20, 0)]
    assert pairing_limits.lock_until(minutes[1:], pairing_limits.PER_USER, at=at) is None  # 4 within the hour
    assert pairing_limits.lock_until(minutes, pairing_limits.PER_USER, at=at) == at + dt.timedelta(hours=1)
    # A wrong code exactly an hour old, or older, no longer counts.
    old = [at - dt.timedelta(hours=1), at - dt.timedelta(hours=3), *minutes[1:]]
    assert pairing_limits.lock_until(old, pairing_limits.PER_USER, at=at) is None
    many = [at - dt.timedelta(seconds=s) for s in range(pairing_limits.EVERYONE)]
    assert pairing_limits.lock_until(many[1:], pairing_limits.EVERYONE, at=at) is None
    assert pairing_limits.lock_until(many, pairing_limits.EVERYONE, at=at) == at + dt.timedelta(hours=1)
    until = at + dt.timedelta(hours=1)
    assert pairing_limits.is_locked(until, at) and pairing_limits.is_locked(until, until - dt.timedelta(seconds=1))
    assert not pairing_limits.is_locked(until, until) and not pairing_limits.is_locked(None, at)
    # After a pause for everyone, the count starts afresh: what came before its end no longer counts.
    ended = at - dt.timedelta(seconds=pairing_limits.EVERYONE // 2)
    assert pairing_limits.counted_since(ended, at) == ended and pairing_limits.counted_since(until, at) is None
    assert pairing_limits.lock_until(many, pairing_limits.EVERYONE, at=at, since=ended) is None


def test_the_gate_tells_a_code_s_sender_when_to_try_again_once_and_never_checks_during_a_lockout() -> None:
    at = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
    hour = dt.timedelta(hours=1)
    check, ignore = pairing_limits.Gate(pairing_limits.Step.CHECK), pairing_limits.Gate(pairing_limits.Step.IGNORE)
    assert pairing_limits.gate(None, None, None, at) == check
    assert pairing_limits.gate(at, (at - hour, at), None, at) == check  # both ended just now
    assert pairing_limits.gate(at + hour, None, None, at) == ignore  # locked: their 5th code's reply said when
    paused = (at - dt.timedelta(minutes=10), at + dt.timedelta(minutes=50))
    tell = pairing_limits.Gate(pairing_limits.Step.TELL_PAUSED, paused[1])
    assert pairing_limits.gate(None, paused, None, at) == tell
    assert pairing_limits.gate(None, paused, paused[0], at) == tell  # their code began the pause: not told yet
    assert pairing_limits.gate(None, paused, paused[0] - hour, at) == tell
    assert pairing_limits.gate(None, paused, paused[0] + dt.timedelta(minutes=1), at) == ignore  # told once
    assert pairing_limits.gate(at + hour, paused, None, at) == ignore


def test_the_code_space_keeps_a_hit_below_one_in_a_million_at_the_allowed_rate() -> None:
    assert pairing.code_space() == 31 ** 9 - 23 ** 9 - 8 ** 9
    # At most EVERYONE codes are checked in any hour, for 7 × 24 hours, against up to 293 live codes.
    assert pairing_limits.EVERYONE * 7 * 24 == 84_000
    assert pairing.guess_chance(pairing_limits.EVERYONE, live_codes=293) < 1e-6
    assert pairing.guess_chance(pairing_limits.EVERYONE, live_codes=294) > 1e-6
    assert pairing.guess_chance(pairing_limits.EVERYONE, live_codes=1) < 1e-8


def _wrong_codes(n: int) -> list[str]:
    """Codes of the issued form that no teacher holds (the alphabet has no 0/O, so none is ever issued)."""
    return [f"ZZ0-{i // 1000:03d}-{i % 1000:03d}" for i in range(1, n + 1)]


def _bound(db: Database) -> list[str | None]:
    with db.read() as s:
        return [f.reach(t).line_user_id for t in s.scalars(select(Teacher).order_by(Teacher.id))]


def _pairing_alerts(db: Database) -> list[tuple[AlertKind, bool]]:
    with db.read() as s:
        return [(a.kind, a.open_key is not None) for a in s.scalars(select(Alert).order_by(Alert.id))
                if a.kind in (AlertKind.PAIRING_LOCKOUT, AlertKind.PAIRING_PAUSED)]


def test_a_stranger_is_ignored_for_an_hour_after_five_wrong_codes_even_across_a_restart(
        db: Database, line: LineEmulator, client: LineClient, clock: FakeClock,
        capsys: pytest.CaptureFixture[str]) -> None:
    room_id, (teacher_id,) = _teachers_without_line(db, "青木")
    with db.write() as s:
        [code] = issue_codes(s, clock.now, room_id)
    stranger = user_id(66)
    _friends(line, 66)
    wrong = pairing.REPLIES["ja"]["wrong"]
    until = (clock.now + dt.timedelta(hours=1)).astimezone(dt.timezone(dt.timedelta(hours=9))).strftime("%H:%M")
    told = [wrong] * (pairing_limits.PER_USER - 1) + [
        wrong + "\n\n" + pairing.REPLIES["ja"]["locked"].format(until=until)]  # the 5th says until when
    with WebhookReceiver(db, SECRET, handlers=pairing.standard_handlers(lambda: client), clock=clock) as rx:
        line.set_webhook_endpoint(rx.url)
        handled = Handled(rx)
        for guess in _wrong_codes(12):
            line.send_text(stranger, guess)
            handled()
        assert _replies(line, stranger) == told  # the 6th to the 12th: no answer
        line.send_text(stranger, code.code)  # the right code, during the lockout
        handled()
    assert _replies(line, stranger) == told
    assert _bound(db) == [None]
    assert _pairing_alerts(db) == [(AlertKind.PAIRING_LOCKOUT, True)]
    assert main.main(["alerts", "--json"]) == 0  # the manager sees it on the command line too
    [shown] = [a for a in json.loads(capsys.readouterr().out) if a["kind"] == "pairing_lockout"]
    assert (shown["open"], shown["title_code"]) == (True, "alert.pairing_locked")
    assert "1 LINE user sent too many wrong pairing codes" in shown["title"]

    # A new receiver (the app restarted) still ignores them until the hour is over.
    clock.advance(minutes=59)
    with WebhookReceiver(db, SECRET, handlers=pairing.standard_handlers(lambda: client), clock=clock) as rx:
        line.set_webhook_endpoint(rx.url)
        handled = Handled(rx)
        line.send_text(stranger, code.code)
        handled()
        assert _bound(db) == [None] and _replies(line, stranger) == told
        with db.write() as s:  # the minute watch keeps the incident open while the lockout lasts
            alerts.evaluate(s, now=clock.now, running_since=None)
        assert _pairing_alerts(db) == [(AlertKind.PAIRING_LOCKOUT, True)]

        clock.advance(minutes=1)
        line.send_text(stranger, code.code)
        handled()
    assert _bound(db) == [stranger]
    assert _replies(line, stranger)[-1] == PAIRED_JA
    with db.write() as s:
        alerts.evaluate(s, now=clock.now, running_since=None)
        assert f.reach_of(s, teacher_id).line_opt_in
    assert _pairing_alerts(db) == [(AlertKind.PAIRING_LOCKOUT, False)]  # one incident, cleared after the hour


def test_six_strangers_with_five_wrong_codes_each_close_nothing_and_a_teacher_still_pairs(
        db: Database, line: LineEmulator, handled: Handled, clock: FakeClock) -> None:
    room_id, (teacher_id,) = _teachers_without_line(db, "青木")
    with db.write() as s:
        [code] = issue_codes(s, clock.now, room_id)
    _friends(line, *range(70, 77))
    guesses = iter(_wrong_codes(6 * pairing_limits.PER_USER))
    for n in range(70, 76):
        for _ in range(pairing_limits.PER_USER):
            line.send_text(user_id(n), next(guesses))
    handled(6 * pairing_limits.PER_USER)
    line.send_text(user_id(76), code.code)
    handled()
    assert _bound(db) == [user_id(76)] and _replies(line, user_id(76)) == [PAIRED_JA]
    assert _pairing_alerts(db) == [(AlertKind.PAIRING_LOCKOUT, True)]  # the six, each alone


def _strangers_guessed(db: Database, clock: FakeClock, count: int) -> None:
    """`count` wrong codes in the last minutes, each from a LINE user of its own (they are rows: sending
    them all through the receiver proves nothing more than the six strangers above)."""
    with db.write() as s:
        s.add_all(PairingFailure(line_user_id=f"U{'f' * 24}{n:08d}", at=clock.now - dt.timedelta(seconds=n + 1))
                  for n in range(count))


def test_wrong_codes_from_many_strangers_pause_pairing_for_everyone_and_everyone_hears_until_when(
        db: Database, line: LineEmulator, handled: Handled, clock: FakeClock) -> None:
    room_id, (teacher_id,) = _teachers_without_line(db, "青木")
    with db.write() as s:
        [code] = issue_codes(s, clock.now, room_id)
    _strangers_guessed(db, clock, pairing_limits.EVERYONE - 1)
    stranger, teacher = user_id(70), user_id(71)
    _friends(line, 70, 71)
    guesses = iter(_wrong_codes(3))
    line.send_text(stranger, next(guesses))  # the 500th wrong code within the hour: pairing pauses
    handled()
    paused = pairing.REPLIES["ja"]["paused"].format(
        until=(clock.now + dt.timedelta(hours=1)).astimezone(dt.timezone(dt.timedelta(hours=9))).strftime("%H:%M"))
    clock.advance(minutes=1)
    line.send_text(teacher, code.code)  # the right code, from the teacher's own phone: not checked, but answered
    line.send_text(teacher, code.code)  # again: they were told already
    line.send_text(stranger, next(guesses))  # the stranger too hears when, once
    line.send_text(stranger, next(guesses))
    handled(4)
    assert _replies(line, teacher) == [paused]
    assert _replies(line, stranger) == [pairing.REPLIES["ja"]["wrong"], paused]
    assert _bound(db) == [None]
    assert _pairing_alerts(db) == [(AlertKind.PAIRING_PAUSED, True)]
    with db.read() as s:
        assert [render(text, "en") for text in pairing_limits.notices(s, clock.now)] == [
            "Connecting teachers on LINE is paused: too many wrong pairing codes came within an hour"]

    clock.advance(minutes=59)  # the hour is over; what was sent during it does not begin another pause
    line.send_text(teacher, code.code)
    handled()
    assert _bound(db) == [teacher] and _replies(line, teacher) == [paused, PAIRED_JA]
    with db.write() as s:
        alerts.evaluate(s, now=clock.now, running_since=None)
        assert pairing_limits.notices(s, clock.now) == []
        assert f.reach_of(s, teacher_id).line_opt_in
    assert _pairing_alerts(db) == [(AlertKind.PAIRING_PAUSED, False)]


# ----- the reply endpoint and the add-friend link -----

def test_a_reply_token_is_taken_once(line: LineEmulator, client: LineClient) -> None:
    line.add_user(user_id(1), "青木")
    event = line.send_text(user_id(1), "hello").event  # no endpoint set: made, not posted
    client.reply(event["replyToken"], [{"type": "text", "text": "one"}])
    with pytest.raises(LineApiError) as again:
        client.reply(event["replyToken"], [{"type": "text", "text": "two"}])
    assert (again.value.status, again.value.line_message) == (400, "Invalid reply token")
    with pytest.raises(LineApiError) as bad:
        client.reply(event["replyToken"], [{"type": "text", "text": ""}])
    assert bad.value.status == 400 and any("messages[0].text" in d for d in bad.value.details)
    assert [(m.message["text"], m.via) for m in line.inbox(user_id(1))] == [("one", "reply")]
    assert line.consumption == 0  # replies are free


def test_a_reply_token_lives_one_minute(line: LineEmulator, client: LineClient, clock: FakeClock) -> None:
    line.add_user(user_id(1), "青木")
    event = line.send_text(user_id(1), "hello").event
    clock.advance(seconds=61)
    with pytest.raises(LineApiError, match="Invalid reply token"):
        client.reply(event["replyToken"], [{"type": "text", "text": "late"}])


def test_the_friend_link_and_its_qr_code_come_from_the_bot_info(client: LineClient) -> None:
    info = client.bot_info()
    url, png = pairing.friend_link(info)
    assert url == f"https://line.me/R/ti/p/{info['basicId']}"
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    with pytest.raises(ValueError, match="basic ID"):
        pairing.friend_link({"displayName": "x"})


def test_the_control_api_taps_a_button_the_user_received(line: LineEmulator) -> None:
    line.add_user(user_id(1), "青木")
    with LineClient(TOKEN, base_url=line.base_url) as c:
        button = {"type": "button", "action": {"type": "postback", "label": "了解", "data": "ack:1:x",
                                               "displayText": "了解"}}
        bubble = {"type": "bubble", "body": {"type": "box", "layout": "vertical", "contents": [button]}}
        result = c.push(user_id(1), [{"type": "flex", "altText": "a", "contents": bubble}],
                        retry_key="00000000-0000-4000-8000-000000000001")
        assert result.http_status == 200
    answer = httpx.post(f"{line.base_url}/_emulator/events/tap", json={"userId": user_id(1)}, timeout=30).json()
    assert answer["event"]["postback"] == {"data": "ack:1:x"}
    missing = httpx.post(f"{line.base_url}/_emulator/events/tap", json={"userId": user_id(2)}, timeout=30)
    assert missing.status_code == 400


def test_a_teacher_who_blocked_the_account_is_reachable_after_a_follow_and_consents_again_by_pairing(
        db: Database, line: LineEmulator, handled: Handled, clock: FakeClock) -> None:
    with db.write() as s:
        room_id = f.classroom(s, "本校").id
        teacher_id = f.teacher(s, "佐藤", 1).id  # paired before, consenting
    line.add_user(user_id(1), "佐藤")
    with db.write() as s:
        assert issue_codes(s, clock.now, room_id) == []  # nothing to pair

    line.unfollow(user_id(1))
    clock.advance(minutes=1)
    line.follow(user_id(1))
    handled(2)
    with db.write() as s:
        teacher = s.get(Teacher, teacher_id)
        assert teacher is not None
        assert (f.reach(teacher).line_unreachable_at, f.reach(teacher).line_opt_in, f.reach(teacher).line_opt_in_at) == (None, False, None)
        [code] = issue_codes(s, clock.now, room_id)  # consent comes back by pairing again
    assert code.teacher_id == teacher_id

    clock.advance(minutes=1)
    line.send_text(user_id(1), code.code)
    handled()
    with db.read() as s:
        teacher = s.get(Teacher, teacher_id)
        assert teacher is not None and (f.reach(teacher).line_opt_in, f.reach(teacher).line_opt_in_at) == (True, clock.now)
    assert _replies(line, user_id(1)) == [PAIRED_JA]


class _Fails:
    """A handler after pairing that fails, so the pairing's transaction rolls back."""

    types = frozenset({"message"})

    def __init__(self, calls: int) -> None:
        self.left = calls
        self.done = threading.Event()

    def handle(self, session: object, event: object, *, now: dt.datetime) -> None:
        self.left -= 1
        if self.left == 0:
            self.done.set()
        raise RuntimeError("the disk is full")


def test_no_reply_is_sent_when_the_pairing_is_rolled_back(db: Database, line: LineEmulator, client: LineClient,
                                                         clock: FakeClock) -> None:
    room_id, (teacher_id,) = _teachers_without_line(db, "青木")
    with db.write() as s:
        [code] = issue_codes(s, clock.now, room_id)
    _friends(line, 51)
    failing = _Fails(calls=2)
    with WebhookReceiver(db, SECRET, handlers=(pairing.PairingHandler(lambda: client), failing), clock=clock) as rx:
        line.set_webhook_endpoint(rx.url)
        line.send_text(user_id(51), code.code)
        line.send_text(user_id(51), "ZZ9-ZZ9-ZZ9")
        assert failing.done.wait(30)
    # Leaving the block joined the handlers' thread: both transactions are rolled back by now.
    with db.read() as s:
        teacher = s.get(Teacher, teacher_id)
        assert teacher is not None and f.reach(teacher).line_user_id is None
        assert s.scalar(select(PairingCode.used_at)) is None
    assert _replies(line, user_id(51)) == []


def test_an_old_join_redelivered_after_a_leave_does_not_bring_the_group_back(
        db: Database, line: LineEmulator, handled: Handled, clock: FakeClock) -> None:
    with db.write() as s:
        room_id = f.classroom(s, "本校").id
    line.add_group(GROUP, "講師", [user_id(1)])
    joined = line.join(GROUP)
    handled()
    with db.write() as s:
        accept_group(s, room_id, GROUP, clock.now)
    clock.advance(minutes=1)
    line.leave(GROUP)
    handled()
    with db.write() as s:  # LINE lost the first copy of the join: it arrives only now, redelivered
        s.execute(f.table(WebhookEvent).delete().where(WebhookEvent.event_id == joined.event["webhookEventId"]))
    line.redeliver(joined.event["webhookEventId"])
    handled()
    with db.read() as s:
        assert [a.kind for a in alerts.open_alerts(s)] == [AlertKind.LINE_GROUP_LEFT]


def test_the_handlers_take_line_from_the_settings(db: Database, line: LineEmulator,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    source = pairing.line_from_settings(db)
    assert source() is None  # LINE is not set up yet
    monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", line.base_url)
    secrets.set_line_token(TOKEN)
    client = source()
    assert client is not None and client.bot_info()["basicId"].startswith("@")
    assert source() is client  # made once
    client.close()
