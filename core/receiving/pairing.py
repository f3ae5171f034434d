"""Pairing teachers with their LINE user ID: one-time codes, the add-friend link, and the message
handler that binds a code's teacher to the LINE user who sent it.

A teacher's `U…` ID reaches the app only in a webhook event, so the manager hands every teacher
without a LINE ID (or without LINE consent) a short code, with the account's add-friend link and QR
code. The teacher adds the account and sends the code; the handler stores their user ID, records
LINE consent with the time they sent it (their own: `agreed_by_teacher` on their LINE contact), spends the code and
replies politely in the language of the classroom the code was issued for. A wrong, used or expired
code gets a polite reply and changes nothing; a message that does not look like a code (any chat
with the account) gets no reply. Codes are 9 characters from an alphabet without 0/O, 1/I/L, with at
least one digit and one letter (so a word such as "WONDERFUL" is never taken for one), shown and read
aloud in groups of three (`AB3-DE5-FG7`), unique for all time, and live for 7 days (`is_live`, pure,
the clock passed in). A code is read from a message however a phone typed it: lower case, full-width,
with or without spaces and hyphens (or the dashes a Japanese keyboard makes instead).

Guessing (core/receiving/pairing_limits.py): a LINE user's 5th wrong code within an hour has their
codes ignored for an hour (the reply to it says until when), and the 500th from all users together
within an hour pauses pairing for everyone for an hour (each sender then hears once until when), so
no more than 500 codes are checked in any hour, however many LINE users an attacker makes. The code
space makes that rate harmless:
- a code lives 7 days = 168 hours, so at most 500 × 168 = 84,000 guesses are checked in its life;
- there are N = 31⁹ − 23⁹ − 8⁹ = 24,638,335,281,480 ≈ 2.46 × 10¹³ codes (9 of 31 characters, less
  those without a digit or without a letter);
- a guess hits one given code with chance 1/N, so in its life a code is hit with chance at most
  84,000 / N ≈ 3.4 × 10⁻⁹; a guess hits one of L live codes with chance L/N, so with L = 100
  teachers waiting to pair at once (more than a small classroom chain has) some code is hit with
  chance at most 84,000 × 100 / N ≈ 3.4 × 10⁻⁷, below one in a million up to L = 293 (and
  3.4 × 10⁻⁶ at L = 1,000) — and only for an attacker who brings 100 fresh LINE accounts every hour
  for the whole week (`guess_chance` computes it; a test holds it).
Codes of 6 characters from before (31⁶ − 23⁶ − 8⁶ ≈ 7.4 × 10⁸: 1.1 × 10⁻⁴ for one code at this rate)
were expired by the upgrade to migration 0010; one sent now is read as a code and answered as expired.

Consent and blocking (core/receiving/follow.py): an unfollow (the teacher blocked the account)
withdraws LINE consent and clears its time, besides marking the teacher unreachable. A later follow
makes the teacher reachable again but does not bring consent back: that takes pairing again (the
teacher sends a new code, which `issue_codes` gives every active teacher without consent) or the
manager's explicit tick, which is consent not given on LINE by the teacher themselves.

The manager pairs their own LINE the same way (`issue_manager_code`): one code of this kind at a time,
kept in the settings rather than the teachers' codes table because it names no teacher. This handler
checks it first, keeps its sender's LINE user ID as the manager's (ALERTS_LINE_USER_ID: where notes for
the manager go on LINE, and whom the teachers' page shows the manager's view), spends it and replies
"paired as manager". Showing it again keeps a live one; a new one is made once it is spent or expired.

Replies go out after the transaction commits (a reply saying "registered" must not precede a
rollback), with the event's reply token, once: LINE's reply tokens are single-use and short-lived,
so a failed reply is logged, not retried.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import logging
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.channels.line import LineClient, access_from_settings
from core.receiving import acknowledge, availability, cover, follow, groups, page, pairing_limits
from core.receiving.events import ReceivedEvent
from core.receiving.handlers import EventHandler
from core.receiving.replies import LineSource, reply_after_commit
from core.roster import clock, contacts, reading
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Channel, Classroom, Shift, Teacher
from core.store.models import PairingCode as PairingCodeRow

log = logging.getLogger(__name__)
TYPES = frozenset({"message"})
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L: read aloud or copied from paper without doubt
CODE_LENGTH = 9
GROUP = 3  # characters shown together: AB3-DE5-FG7
OLD_CODE_LENGTH = 6  # codes issued before 0010: still read as codes, so their sender hears that they expired
CODE_LIFE = dt.timedelta(days=7)
# What a person types between the groups: spaces, hyphens, and the dashes and long-vowel marks a Japanese
# keyboard gives for "-" (NFKC leaves them as they are).
SEPARATORS = frozenset(" -\u3000\t\n\u30fc\u2010\u2011\u2012\u2013\u2014\u2015\u2212")
FRIEND_URL = "https://line.me/R/ti/p/{basic_id}"
DEFAULT_ZONE = "Asia/Tokyo"  # the clock of a reply's time when there is no classroom yet

REPLIES = {
    "ja": {"paired": "登録できました。シフトのお知らせをこちらにお送りします。",
           "manager": "管理者として登録しました。管理者へのお知らせをこちらにお送りします。",
           "wrong": "コードを確認できませんでした。お手数ですが、届いたコードをもう一度お確かめください。"
                    "期限切れの場合は教室の担当者にお問い合わせください。",
           "taken": "このLINEアカウントはすでに別の方で登録されています。教室の担当者にお問い合わせください。",
           "locked": "コードの確認に何度も失敗したため、{until}まではこのアカウントからのコードを受け付けられません。"
                     "{until}を過ぎてから、もう一度お送りください。",
           "paused": "ただいまLINEでの登録を一時的に止めています。お手数ですが、{until}以降にもう一度コードをお送りください。"},
    "en": {"paired": "You're registered. Shift reminders will arrive here.",
           "manager": "Paired as manager. Notes for the manager will arrive here.",
           "wrong": "We couldn't match that code. Please check it and send it again, or ask the classroom "
                    "manager for a new one if it has expired.",
           "taken": "This LINE account is already registered for someone else. Please ask the classroom manager.",
           "locked": "After several codes that did not match, codes from this account are not accepted until {until}. "
                     "Please send yours again after {until}.",
           "paused": "Registering on LINE is paused for a while. Please send your code again after {until}."},
}


INVITATIONS = {
    "ja": ("{name}さん\nシフトのお知らせをLINEでお送りします。下のリンクから教室のLINE公式アカウントを友だち追加し、"
           "このコードを送ってください（{expires}まで有効です）。\n\nコード：{code}\n{url}"),
    "en": ("Hello {name},\nShift reminders will come to you on LINE. Please add the classroom's LINE account as a "
           "friend with the link below and send it this code (valid until {expires}).\n\nCode: {code}\n{url}"),
}


def invitation(language: str, name: str, code: str, url: str, expires: str) -> str:
    """The message a manager pastes to a teacher (e-mail, chat): their code and the add-friend link, in
    the classroom's language, as the replies are."""
    template = INVITATIONS.get(language, INVITATIONS["ja"])
    return template.format(name=name, code=code, url=url, expires=expires)


@dataclass(frozen=True, slots=True)
class PairingCode:
    """A teacher's live code, as the wizard hands it out (`code` in groups: AB3-DE5-FG7)."""

    teacher_id: int
    name: str
    code: str
    expires_at: dt.datetime


@dataclass(frozen=True, slots=True)
class TeacherPairing:
    """One active teacher's pairing: their live code (if any, in groups) and when they paired on LINE (if
    they did). Neither: a teacher with a LINE ID and consent from before pairing existed, or the manager's tick."""

    teacher_id: int
    name: str
    code: str | None
    expires_at: dt.datetime | None
    paired_at: dt.datetime | None


# ----- the rules (pure) -----


def is_live(expires_at: dt.datetime, used_at: dt.datetime | None, at: dt.datetime) -> bool:
    return used_at is None and at < expires_at


def _digit_and_letter(code: str) -> bool:
    return any(c.isdigit() for c in code) and any(c.isalpha() for c in code)


def new_code(choose: Callable[[str], str] = secrets.choice) -> str:
    """A random code with at least one digit and one letter, as stored (without hyphens)."""
    while True:
        code = "".join(choose(ALPHABET) for _ in range(CODE_LENGTH))
        if _digit_and_letter(code):
            return code


def shown(code: str) -> str:
    """A code as people read it: in groups of three joined by hyphens."""
    return "-".join(code[i:i + GROUP] for i in range(0, len(code), GROUP))


def code_space(length: int = CODE_LENGTH) -> int:
    """How many codes there are: every draw of `length` characters with a digit and a letter."""
    letters = sum(1 for c in ALPHABET if c.isalpha())
    return int(len(ALPHABET) ** length - letters ** length - (len(ALPHABET) - letters) ** length)


def guess_chance(guesses_per_hour: int, live_codes: int, life: dt.timedelta = CODE_LIFE) -> float:
    """The chance that guessing at this rate hits any of `live_codes` codes within a code's life."""
    guesses = guesses_per_hour * (life // dt.timedelta(hours=1))
    return guesses * live_codes / code_space()


def as_code(text: str) -> str | None:
    """The code a message means, or None if it is not meant as one. Full-width characters, lower case,
    spaces, hyphens and dashes are forgiven (phones type them); it need not be a valid code to be meant
    as one, and a code of the length issued before 0010 is one too."""
    folded = unicodedata.normalize("NFKC", text).upper()
    compact = "".join(c for c in folded if c not in SEPARATORS)
    if len(compact) not in (CODE_LENGTH, OLD_CODE_LENGTH) or not compact.isascii() or not compact.isalnum():
        return None
    return compact if _digit_and_letter(compact) else None


def friend_url(basic_id: str) -> str:
    return FRIEND_URL.format(basic_id=basic_id)


def friend_link(bot_info: dict[str, Any]) -> tuple[str, bytes]:
    """The add-friend link from the bot info's basic ID (`GET /v2/bot/info`), and its QR code as PNG."""
    import segno  # loaded only when the wizard shows the link

    basic_id = bot_info.get("basicId")
    if not isinstance(basic_id, str) or not basic_id.startswith("@") or len(basic_id) > 32:
        raise ValueError("LINE's bot info has no basic ID")
    url = friend_url(basic_id)
    out = io.BytesIO()
    segno.make_qr(url, error="m").save(out, kind="png", scale=8, border=4)
    return url, out.getvalue()


# ----- codes -----


def _needs_pairing(teacher: Teacher) -> bool:
    line = contacts.on(teacher.contacts, Channel.LINE)
    return teacher.active and teacher.erased_at is None and (line is None or not line.address or line.agreed_at is None)


def _live_codes(session: Session, at: dt.datetime) -> dict[int, PairingCodeRow]:
    """Each teacher's newest live code."""
    rows = session.scalars(select(PairingCodeRow).where(PairingCodeRow.used_at.is_(None),
                                                        PairingCodeRow.expires_at > at).order_by(PairingCodeRow.id))
    return {row.teacher_id: row for row in rows}


def issue_codes(session: Session, now: dt.datetime, classroom_id: int | None = None) -> list[PairingCode]:
    """A live code for every active teacher without a LINE ID or LINE consent, in the listing order
    (core/roster/reading.py). A teacher who
    has a live code keeps it (it may be on paper already); `classroom_id` names the classroom being
    connected, whose language the replies use (teachers are not bound to one classroom)."""
    live = _live_codes(session, now)
    used = set(session.scalars(select(PairingCodeRow.code)))
    manager = live_manager_code(session, now)
    if manager is not None:  # the manager's code is checked first: a teacher never gets the same
        used.add(manager.code)
    out = []
    for teacher in reading.in_order(session.scalars(select(Teacher).where(Teacher.active.is_(True)))):
        if not _needs_pairing(teacher):
            continue
        row = live.get(teacher.id)
        if row is None:
            code = new_code()
            while code in used:
                code = new_code()
            used.add(code)
            row = PairingCodeRow(code=code, teacher_id=teacher.id, classroom_id=classroom_id, issued_at=now,
                                 expires_at=now + CODE_LIFE)
            session.add(row)
        out.append(PairingCode(teacher.id, teacher.display_name, shown(row.code), row.expires_at))
    session.flush()
    return out


def pairing_progress(session: Session, now: dt.datetime) -> list[TeacherPairing]:
    """Every active teacher: their live code and when they paired on LINE, in the listing order."""
    live = _live_codes(session, now)
    out = []
    for teacher in reading.in_order(session.scalars(select(Teacher).where(Teacher.active.is_(True),
                                                                          Teacher.erased_at.is_(None)))):
        row = live.get(teacher.id) if _needs_pairing(teacher) else None
        out.append(TeacherPairing(teacher.id, teacher.display_name, shown(row.code) if row else None,
                                  row.expires_at if row else None,
                                  _paired_at(teacher)))
    return out


def _paired_at(teacher: Teacher) -> dt.datetime | None:
    """When the teacher agreed to LINE themselves, by sending their code (not the manager's tick)."""
    line = next((c for c in teacher.contacts if c.channel == Channel.LINE), None)
    return line.agreed_at if line is not None and line.agreed_by_teacher else None


@dataclass(frozen=True, slots=True)
class HeldCode:
    """A code as the relay holds it: the code as stored (no hyphens), and the reply the teacher gets."""

    code: str
    reply_text: str
    expires_at: dt.datetime


def held_codes(session: Session, at: dt.datetime) -> list[HeldCode]:
    """Every pending code with the reply this handler would give it ("paired", in its classroom's
    language), for the relay to answer while no PC runs; in issue order."""
    out = []
    for row in session.scalars(select(PairingCodeRow).where(PairingCodeRow.used_at.is_(None),
                                                            PairingCodeRow.expires_at > at).order_by(PairingCodeRow.id)):
        teacher = session.get(Teacher, row.teacher_id)
        if teacher is not None and _needs_pairing(teacher):
            out.append(HeldCode(row.code, REPLIES[_language(session, row, teacher)]["paired"], row.expires_at))
    manager = live_manager_code(session, at)
    if manager is not None:
        out.append(HeldCode(manager.code, REPLIES[_first_language(session)]["manager"], manager.expires_at))
    return out


# ----- the manager's code -----


@dataclass(frozen=True, slots=True)
class ManagerCode:
    code: str  # as stored, without hyphens
    expires_at: dt.datetime

    @property
    def shown(self) -> str:
        return shown(self.code)


def live_manager_code(session: Session, at: dt.datetime) -> ManagerCode | None:
    text = keys.ALERTS_MANAGER_CODE.read(session)
    if not text:
        return None
    stored = json.loads(text)
    found = ManagerCode(stored["code"], dt.datetime.fromisoformat(stored["expires_at"]))
    return found if is_live(found.expires_at, None, at) else None


def issue_manager_code(session: Session, now: dt.datetime) -> ManagerCode:
    """The live manager code, made now if there is none; never one a teacher was ever given."""
    found = live_manager_code(session, now)
    if found is not None:
        return found
    used = set(session.scalars(select(PairingCodeRow.code)))
    code = new_code()
    while code in used:
        code = new_code()
    found = ManagerCode(code, now + CODE_LIFE)
    keys.ALERTS_MANAGER_CODE.write(session, json.dumps({"code": code, "expires_at": found.expires_at.isoformat()}))
    return found


def bind_manager(session: Session, code: str, user_id: str, at: dt.datetime) -> bool:
    """If `code` is the live manager code: keep `user_id` as the manager's LINE user ID and spend the code."""
    found = live_manager_code(session, at)
    if found is None or found.code != code:
        return False
    keys.ALERTS_LINE_USER_ID.write(session, user_id)
    keys.ALERTS_MANAGER_CODE.write(session, None)
    return True


# ----- the message handler -----


def _room(session: Session, row: PairingCodeRow | None, teacher: Teacher | None) -> Classroom | None:
    room = session.get(Classroom, row.classroom_id) if row is not None and row.classroom_id is not None else None
    if room is None and teacher is not None:  # the classroom of the teacher's latest shift
        room = session.scalar(select(Classroom).join(Shift, Shift.classroom_id == Classroom.id)
                              .where(Shift.teacher_id == teacher.id).order_by(Shift.local_date.desc()).limit(1))
    return room


def _language(session: Session, row: PairingCodeRow | None, teacher: Teacher | None) -> str:
    room = _room(session, row, teacher)
    language = room.language if room is not None else "ja"
    return language if language in REPLIES else "ja"


class PairingHandler:
    types = TYPES

    def __init__(self, line: LineSource) -> None:
        self.line = line

    def handle(self, session: Session, event: ReceivedEvent, *, now: dt.datetime) -> None:
        message = event.body.get("message")
        if event.source_type != "user" or not event.user_id or not isinstance(message, dict):
            return
        text = message.get("text")
        code = as_code(text) if message.get("type") == "text" and isinstance(text, str) and len(text) <= 40 else None
        if code is None:
            return  # ordinary chat with the account: not ours to answer
        token = event.body.get("replyToken") if not event.is_redelivery else None
        gate = pairing_limits.check(session, event.user_id, now)
        if gate.step is pairing_limits.Step.IGNORE:
            log.debug("a pairing code from a LINE user who was told when to try again was ignored")
            return  # they were told until when with their last answer; a guesser learns nothing more
        if gate.step is pairing_limits.Step.TELL_PAUSED and gate.until is not None:
            log.info("a pairing code came while pairing is paused for everyone; its sender was told until when")
            reply_after_commit(session, self.line, token, _with_time(session, None, None, "paused", gate.until))
            return
        at = min(event.occurred_at or now, now)  # when the teacher sent it (a late redelivery still counts)
        if bind_manager(session, code, event.user_id, at):
            log.info("the manager paired their LINE account")
            reply_after_commit(session, self.line, token, REPLIES[_first_language(session)]["manager"])
            return
        row = session.scalar(select(PairingCodeRow).where(PairingCodeRow.code == code))
        teacher = session.get(Teacher, row.teacher_id) if row is not None else None
        if row is None or teacher is None or not is_live(row.expires_at, row.used_at, at) or not _needs_pairing(teacher):
            log.info("a LINE user sent a pairing code that is wrong, used or expired")
            self._wrong(session, event.user_id, token, row, teacher, "wrong", now)
            return
        language = _language(session, row, teacher)
        owner = contacts.owner(session, Channel.LINE, event.user_id)
        if owner is not None and owner.id != teacher.id:
            log.info("a pairing code came from the LINE user of teacher %s, not of teacher %s", owner.id, teacher.id)
            self._wrong(session, event.user_id, token, row, teacher, "taken", now)
            return
        line = contacts.contact(teacher, Channel.LINE)
        line.address, line.agreed_at, line.agreed_by_teacher = event.user_id, at, True
        line.unreachable_since = None
        row.used_at, row.used_by = at, event.user_id
        log.info("teacher %s paired with their LINE account", teacher.id)
        reply_after_commit(session, self.line, token, REPLIES[language]["paired"])


    def _wrong(self, session: Session, user_id: str, token: str | None, row: PairingCodeRow | None,
               teacher: Teacher | None, reply: str, now: dt.datetime) -> None:
        """Count a code that bound nobody and answer it; the answer that locks its sender out says until when."""
        locked_until = pairing_limits.record_wrong(session, user_id, now)
        text = REPLIES[_language(session, row, teacher)][reply]
        if locked_until is not None:
            text += "\n\n" + _with_time(session, row, teacher, "locked", locked_until)
        reply_after_commit(session, self.line, token, text)


def _first_language(session: Session) -> str:
    """The language of the first classroom (the manager's code is for none in particular)."""
    room = session.scalar(select(Classroom).order_by(Classroom.id).limit(1))
    return room.language if room is not None and room.language in REPLIES else "ja"


def _with_time(session: Session, row: PairingCodeRow | None, teacher: Teacher | None, reply: str,
               until: dt.datetime) -> str:
    """A reply that says until when (on the clock of the classroom the code is for, else the first one's)."""
    room = _room(session, row, teacher) or session.scalar(select(Classroom).order_by(Classroom.id).limit(1))
    zone = room.timezone if room is not None else DEFAULT_ZONE
    language = room.language if room is not None and room.language in REPLIES else "ja"
    return REPLIES[language][reply].format(until=clock.local_now(until, zone).strftime("%H:%M"))


def standard_handlers(line: LineSource) -> tuple[EventHandler, ...]:
    """Every handler of the receiver: follow/unfollow, groups, pairing, 了解 postbacks, cover requests and
    availability answers, and the teachers' page's answers. Postbacks go to every postback handler; each acts only on data with its own
    prefix (`ack:`, `cv:`, `av:`)."""
    return (follow.FollowHandler(), groups.GroupHandler(line), PairingHandler(line), acknowledge.AckHandler(),
            cover.CoverHandler(line), availability.AvailabilityHandler(line, is_code=lambda text: as_code(text) is not None),
            page.PageHandler())


def line_from_settings(db: Database) -> LineSource:
    """The LINE client the settings make (a token, or the channel ID and secret), made on first use and
    kept; while LINE is not set up, None (the handlers then store what they can and do not reply)."""
    made: list[LineClient] = []

    def source() -> LineClient | None:
        if not made:
            access = access_from_settings(db)
            if access is None:
                return None
            made.append(access.client)
        return made[0]

    return source
