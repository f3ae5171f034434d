"""Cover requests (代講) from LINE: a teacher's "Ask for cover" tap or text, and volunteers' "I can cover" taps.

Postbacks: only data with the `cv:` prefix and a valid MAC of this database's key
(core/messages/cover.py) is read here; anything else (the 了解 button's `ack:`, another feature's) is
passed over without a word, as the 了解 handler passes over `cv:`.
- `ask` (a reminder's button): the user must be the LINE user the reminder went to, and the shift
  still theirs, confirmed and not started; a request is opened (core/roster/cover.py).
- `pick` (a choice offered after a text): the user must be the shift's teacher.
- `call` (a call's button, bound to the call's delivery): the user's teacher volunteers when the call went
  to them, or to the group the tap came from; one who cannot take the shift is refused. Data from a call
  that went to someone else (passed on, or forged from another's) is ignored without a reply, as a 了解
  tap from someone else is. `take` (the button of calls sent before) counts the same way: only from a
  teacher who was called for that request, in person or in their group.
Text messages from a bound teacher (their LINE contact) that ask for cover with a date
(「12/5 代講お願いします」, `cover.asked_day`): one shift that day opens a request, several get a reply
with a button per shift, none gets a reply saying so. Every answer is a free reply (the event's reply
token) in the language of the shift's classroom; nothing on the roster changes here.
"""

from __future__ import annotations

import datetime as dt
import logging

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.errors import ValidationError
from core.messages import cover as cover_messages
from core.messages import texts
from core.receiving.events import ReceivedEvent
from core.receiving.replies import LineSource, messages_after_commit, reply_after_commit
from core.roster import clock, contacts, cover, rules
from core.store import ack_key
from core.store import setting_keys as keys
from core.store.kinds import Channel, DeliveryKind, ShiftStatus, SubjectType
from core.store.models import Classroom, Delivery, Shift, Teacher
from core.store.secrets import SecretStoreError
from core.texts import formats
from core.texts.message import logged

log = logging.getLogger(__name__)
TYPES = frozenset({"postback", "message"})
DEFAULT_ZONE = "Asia/Tokyo"


def enable(session: Session, on: bool) -> None:
    """Switch the reminders' "Ask for cover" button on or off (its key, the 了解 button's, is made when on)."""
    keys.LINE_COVER_BUTTON.write(session, on)
    if on:
        ack_key.signing_key(session)  # no keyring: SecretStoreError, and the transaction keeps the button off


def _called_for(session: Session, action: str, number: int, teacher_id: int, group_id: str | None) -> int | None:
    """The cover request a call's button is for, when the call went to this teacher or to the group the
    tap came from; None for a button that was sent to someone else. `call` names the call's delivery,
    `take` (calls sent before) the request, which any call of it to this teacher or group answers."""
    calls = select(Delivery).where(Delivery.kind == DeliveryKind.COVER_CALL,
                                   Delivery.subject_type == SubjectType.COVER_REQUEST)
    calls = calls.where(Delivery.id == number) if action == cover_messages.CALL else calls.where(Delivery.subject_id == number)
    for call in session.scalars(calls):
        to_them = call.teacher_id == teacher_id
        to_their_group = call.teacher_id is None and group_id is not None and call.recipient == group_id
        if (to_them or to_their_group) and call.subject_id is not None:
            return call.subject_id
    return None


def _facts(shift: Shift) -> texts.ShiftFacts:
    return texts.ShiftFacts(shift.classroom.name, shift.local_date, shift.start_time, shift.end_time,
                            shift.ends_next_day, shift.note)


class CoverHandler:
    types = TYPES

    def __init__(self, line: LineSource) -> None:
        self.line = line

    def handle(self, session: Session, event: ReceivedEvent, *, now: dt.datetime) -> None:
        if not event.user_id:
            return
        token = event.body.get("replyToken") if not event.is_redelivery else None
        at = min(event.occurred_at or now, now)
        if event.type == "postback":  # a call to a group is tapped in the group: its events come from there
            postback = event.body.get("postback")
            data = postback.get("data") if isinstance(postback, dict) else None
            group_id = event.group_id if event.source_type == "group" else None
            if event.source_type in ("user", "group") and isinstance(data, str) and cover_messages.is_cover_data(data):
                self._postback(session, event.user_id, group_id, data, token, at)
        elif event.type == "message" and event.source_type == "user":
            message = event.body.get("message")
            text = message.get("text") if isinstance(message, dict) and message.get("type") == "text" else None
            if isinstance(text, str):
                self._text(session, event.user_id, text, token, at)

    # ----- postbacks -----

    def _postback(self, session: Session, user_id: str, group_id: str | None, data: str, token: str | None,
                  at: dt.datetime) -> None:
        try:
            key = ack_key.held_key(session)
        except SecretStoreError as exc:
            log.warning("a cover postback was ignored: %s", logged(exc.text))
            return
        read = cover_messages.read_postback(key, data) if key else None
        if read is None:
            log.warning("a cover postback with data this database did not sign was ignored")
            return
        action, number = read
        teacher = contacts.owner(session, Channel.LINE, user_id)
        if teacher is None:
            log.warning("a cover postback from a LINE user who is no teacher was ignored")
            return
        if action in (cover_messages.CALL, cover_messages.TAKE):
            request_id = _called_for(session, action, number, teacher.id, group_id)
            if request_id is None:
                log.warning("a cover call's button (%s %s) from a teacher it was not sent to was ignored", action, number)
                return
            self._take(session, teacher, request_id, token, at)
            return
        shift = self._asked_shift(session, action, number, user_id)
        if shift is None or shift.teacher_id != teacher.id:
            log.warning("a cover postback (%s %s) from someone it was not sent to was ignored", action, number)
            return
        self._ask(session, shift, teacher, token, at)

    def _asked_shift(self, session: Session, action: str, number: int, user_id: str) -> Shift | None:
        if action == cover_messages.PICK:
            return session.get(Shift, number)
        delivery = session.get(Delivery, number)
        if (delivery is None or delivery.channel != Channel.LINE or delivery.kind != DeliveryKind.SHIFT_REMINDER
                or delivery.teacher_id is None or delivery.subject_id is None):
            return None
        teacher = session.get(Teacher, delivery.teacher_id)
        if teacher is None or contacts.address_on(teacher, Channel.LINE) != user_id:
            return None
        return session.get(Shift, delivery.subject_id)

    def _ask(self, session: Session, shift: Shift, teacher: Teacher, token: str | None, at: dt.datetime) -> None:
        language = shift.classroom.language
        try:
            request = cover.ask(session, shift.id, teacher.id, now=at)
        except ValidationError as exc:
            log.info("teacher %s could not ask cover for shift %s: %s", teacher.id, shift.id, logged(exc.text))
            reply_after_commit(session, self.line, token, cover_messages.reply_text("cover.reply.not_possible", language))
            return
        log.info("teacher %s asked cover for shift %s (request %s)", teacher.id, shift.id, request.id)
        reply_after_commit(session, self.line, token, cover_messages.reply_text(
            "cover.reply.passed", language, when=texts.when(_facts(shift), cover_messages.language_of(language))))

    def _take(self, session: Session, teacher: Teacher, request_id: int, token: str | None, at: dt.datetime) -> None:
        try:
            shift = cover.shift_of(session, request_id)
        except (ValidationError, LookupError):
            log.warning("a cover postback for request %s that does not exist was ignored", request_id)
            return
        language = shift.classroom.language
        try:
            cover.volunteer(session, request_id, teacher.id, now=at)
        except ValidationError:
            closed = cover.request(session, request_id).state not in cover.STILL_OPEN
            log.info("teacher %s offered to cover request %s and was refused", teacher.id, request_id)
            reply_after_commit(session, self.line, token, cover_messages.reply_text(
                "cover.reply.closed" if closed else "cover.reply.not_free", language))
            return
        log.info("teacher %s offered to cover request %s", teacher.id, request_id)
        reply_after_commit(session, self.line, token, cover_messages.reply_text("cover.reply.volunteered", language))

    # ----- text -----

    def _text(self, session: Session, user_id: str, text: str, token: str | None, at: dt.datetime) -> None:
        teacher = contacts.owner(session, Channel.LINE, user_id)
        if teacher is None:
            return  # not a teacher of ours: not ours to answer
        room = self._classroom_of(session, teacher)
        zone = room.timezone if room is not None else DEFAULT_ZONE
        day = cover.asked_day(text, clock.local_now(at, zone).date())
        if day is None:
            return  # ordinary chat with the account
        shifts = [shift for shift in session.scalars(
            select(Shift).where(Shift.teacher_id == teacher.id, Shift.local_date == day,
                                Shift.status == ShiftStatus.CONFIRMED).order_by(Shift.start_time, Shift.id))
            if rules.shift_instants(shift)[0] > at]
        language = shifts[0].classroom.language if shifts else room.language if room is not None else "ja"
        if not shifts:
            reply_after_commit(session, self.line, token, cover_messages.reply_text(
                "cover.reply.no_shift", language, day=formats.day_short(day, cover_messages.language_of(language))))
            return
        if len(shifts) == 1:
            self._ask(session, shifts[0], teacher, token, at)
            return
        sign = cover_messages.signer(session)
        if sign is None:
            return
        buttons = [cover_messages.pick_button(sign, shift.id, _facts(shift), language) for shift in shifts[:4]]
        messages_after_commit(session, self.line, token, [cover_messages.choose_message(buttons, language)])

    @staticmethod
    def _classroom_of(session: Session, teacher: Teacher) -> Classroom | None:
        """The classroom of the teacher's latest shift: its clock and language answer them."""
        return session.scalar(select(Classroom).join(Shift, Shift.classroom_id == Classroom.id)
                              .where(Shift.teacher_id == teacher.id).order_by(Shift.local_date.desc()).limit(1))
