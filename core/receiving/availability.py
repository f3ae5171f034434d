"""Teachers' answers to an availability request (シフト希望): the buttons they tap and the text they write.

A postback whose data is an availability button's (`av:…`, core/messages/availability_flex.py) counts
when its MAC is this database's button key's, the request exists, the tapping LINE user is the teacher
the button was made for, and that teacher was asked: ○ and × record the day; △ comes from LINE's time
picker with the time chosen (`postback.params.time`) and records hours from then, and the reply offers
a second picker for until when, which completes the day. Anything else — forged data, another's
button — is ignored without a reply; postbacks of other features (了解) are not looked at.

An answer for a month that is over (on the classroom's clock, `availability.month_over`) is refused,
tapped or typed alike: nothing is recorded and the reply says so. A text is taken for such an answer
only when it reads as one; anything else stays chat.

A text message from a teacher with an open request (its month not over) is read by the pure parser
(core/roster/availability_text.py); what it reads unambiguously is recorded, otherwise the reply
explains and shows the buttons again. A message that reads as a pairing code is pairing's, and one
that asks for cover of a day (代講, 休み … with a date: core/roster/cover.py) is the cover handler's.

Each recorded answer replaces the day's current one, which stays as history (core/roster/availability.py),
and is marked late after the deadline. The reply, with the event's reply token (free of the quota), says
what was recorded — for a tap its day, for text the whole month as it now stands — so the teacher can
see and correct it, in their classroom's language.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from core.messages import availability_flex
from core.receiving.events import ReceivedEvent
from core.receiving.replies import LineSource, messages_after_commit, reply_after_commit
from core.roster import availability, contacts, cover
from core.roster.availability_text import HOURS, DayAnswer, parse
from core.sending.kinds.availability_request import asked
from core.store import ack_key
from core.store.models import AvailabilityRequest, Channel, Teacher
from core.store.secrets import SecretStoreError
from core.texts.message import logged

log = logging.getLogger(__name__)
TYPES = frozenset({"postback", "message"})
TEXT_LIMIT = 500  # longer messages are chat, not an answer


class AvailabilityHandler:
    types = TYPES

    def __init__(self, line: LineSource, *, is_code: Callable[[str], bool] = lambda _text: False) -> None:
        self.line = line
        self.is_code = is_code

    def handle(self, session: Session, event: ReceivedEvent, *, now: dt.datetime) -> None:
        if event.source_type != "user" or not event.user_id:
            return
        if event.type == "postback":
            self._postback(session, event, now)
        else:
            self._text(session, event, now)

    def _postback(self, session: Session, event: ReceivedEvent, now: dt.datetime) -> None:
        postback = event.body.get("postback")
        data = postback.get("data") if isinstance(postback, dict) else None
        if not isinstance(data, str) or not availability_flex.is_ours(data):
            return  # another feature's button
        key = _key(session)
        tap = availability_flex.read_tap(key, data) if key else None
        if tap is None:
            log.warning("an availability postback with data this database did not sign was ignored")
            return
        request = session.get(AvailabilityRequest, tap.request_id)
        teacher = contacts.owner(session, Channel.LINE, event.user_id) if event.user_id else None
        if (request is None or teacher is None or teacher.id != tap.teacher_id
                or not availability.was_asked(session, request.id, teacher.id)):
            log.warning("an availability postback for request %s from someone it was not sent to was ignored",
                        tap.request_id)
            return
        try:
            day = dt.date(request.year, request.month, tap.day)
        except ValueError:
            return
        if availability.is_over(session, request, now):
            self._month_over(session, event, request, teacher, "tapped")
            return
        params = postback.get("params") if isinstance(postback, dict) else None
        picked = _time(params.get("time") if isinstance(params, dict) else None)
        at = min(event.occurred_at or now, now)
        answer = _answer(session, request, teacher, day, tap.code, picked)
        if answer is None:
            return
        availability.record(session, request, teacher.id, [answer], source=availability.BUTTONS, at=at)
        log.info("teacher %s answered request %s for %s by button", teacher.id, request.id, day.isoformat())
        shown = asked(session, request, teacher.id, reminder=False)
        reply: dict[str, Any] = {"type": "text", "text": availability_flex.tap_summary(shown, day)}
        if tap.code == availability_flex.CODES[HOURS] and key:
            reply = {"type": "text", "text": availability_flex.until_question(shown, day) + "\n\n" + reply["text"],
                     "quickReply": availability_flex.until_picker(shown, day, answer.start, _signer(key))}
        messages_after_commit(session, self.line, _token(event), [reply])

    def _text(self, session: Session, event: ReceivedEvent, now: dt.datetime) -> None:
        message = event.body.get("message")
        text = message.get("text") if isinstance(message, dict) and message.get("type") == "text" else None
        if not isinstance(text, str) or not text.strip() or len(text) > TEXT_LIMIT or self.is_code(text):
            return
        if cover.asked_day(text, now.date()) is not None:
            return  # a request for cover (「12/5 代講お願いします」): the cover handler answers it
        teacher = contacts.owner(session, Channel.LINE, event.user_id) if event.user_id else None
        request = availability.newest_asked(session, teacher.id) if teacher is not None else None
        if teacher is None or request is None:
            return  # chat with the account, not an answer
        given = parse(text, request.year, request.month)
        if availability.is_over(session, request, now):
            if given is not None:  # an answer after all, too late: refused as a tap would be
                self._month_over(session, event, request, teacher, "typed")
            return  # otherwise chat with the account
        token = _token(event)
        if given is None:
            log.info("a text from teacher %s for request %s was not read as an answer", teacher.id, request.id)
            shown = asked(session, request, teacher.id, reminder=False)
            key = _key(session)
            buttons = availability_flex.messages(shown, _signer(key)) if key else []
            # A reply carries at most five messages: the explanation and the month's carousel (one, as it fits).
            messages_after_commit(session, self.line, token, [
                {"type": "text", "text": availability_flex.not_understood(shown)}, *buttons][:5])
            return
        availability.record(session, request, teacher.id, given, source=availability.TEXT,
                            at=min(event.occurred_at or now, now))
        log.info("teacher %s answered request %s by text (days: %d)", teacher.id, request.id, len(given))
        shown = asked(session, request, teacher.id, reminder=False)
        reply_after_commit(session, self.line, token, availability_flex.summary(shown))


    def _month_over(self, session: Session, event: ReceivedEvent, request: AvailabilityRequest, teacher: Teacher,
                    how: str) -> None:
        log.info("teacher %s %s an answer for request %s after its month was over; it was refused",
                 teacher.id, how, request.id)
        shown = asked(session, request, teacher.id, reminder=False)
        reply_after_commit(session, self.line, _token(event), availability_flex.month_over(shown))


def _key(session: Session) -> str | None:
    try:
        return ack_key.held_key(session)
    except SecretStoreError as exc:
        log.warning("an availability answer was ignored: %s", logged(exc.text))
        return None


def _token(event: ReceivedEvent) -> str | None:
    """The event's reply token; a redelivered event's has expired."""
    token = event.body.get("replyToken")
    return token if isinstance(token, str) and token and not event.is_redelivery else None


def _signer(key: str) -> availability_flex.Sign:
    return lambda payload: availability_flex.sign(key, payload)


def _time(value: Any) -> dt.time | None:
    """LINE's time picker's "HH:mm"."""
    if not isinstance(value, str):
        return None
    try:
        return dt.time.fromisoformat(value) if len(value) == 5 else None
    except ValueError:
        return None


def _answer(session: Session, request: AvailabilityRequest, teacher: Teacher, day: dt.date, code: str,
            picked: dt.time | None) -> DayAnswer | None:
    """The day's new answer from a tap: ○/×; △ with its time (keeping an end after it); the end picker's time."""
    chosen = availability_flex.answer_of(code)
    if chosen is not None and chosen != HOURS:
        return DayAnswer(day, chosen)
    if picked is None:
        return None  # a picker's postback always carries its time
    mine = next((a for a in availability.answers(session, request.id) if a.teacher_id == teacher.id), None)
    current = mine.days.get(day) if mine is not None else None
    if chosen == HOURS:
        end = current.end if current is not None and current.answer == HOURS and current.end and current.end > picked \
            else None
        return DayAnswer(day, HOURS, picked, end)
    start = current.start if current is not None and current.answer == HOURS else None
    if start is not None and picked <= start:
        return None
    return DayAnswer(day, HOURS, start, picked)
