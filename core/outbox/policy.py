"""Delivery rules as pure functions: the outcomes and error codes every channel shares, backoff,
retry-key validity, and what a failed delivery means for the teacher's next channel.

What a channel's answer means is the channel's to say: each driver (core/channels/base.py) classifies
its own answers into a `Verdict` with codes of its own (LINE_404, SMTP_5XX, …) beside the shared ones
here, brings their words (its `texts`, "send_error.<code>"), and says what a failure means for a
teacher's fallback (`failure`). `decide` works on the verdict, whatever channel gave it; nothing here
names a channel.

No I/O and no clock of their own: `now` and randomness are passed in, so every rule is tested
directly (tests/test_policy.py) and again end to end against the emulator.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from enum import StrEnum

from core.texts import Text, t
from core.texts.message import dumps, loads

RETRY_KEY_LIFETIME = dt.timedelta(hours=24)
# A request needs time to travel; a key this close to its 24 h limit might be forgotten by the server
# before the retry arrives, and then a duplicate would reach the teacher.
RETRY_KEY_MARGIN = dt.timedelta(minutes=10)


class Outcome(StrEnum):
    SENT = "sent"
    RETRY = "retry"  # transient: back to queued with backoff, counts against the budget
    FAILED = "failed"  # permanent for this delivery
    DEAD = "dead"  # transient, but the budget is spent: failed and dead-lettered
    THROTTLED = "throttled"  # the server processed nothing (rate limit): retry soon, budget untouched
    HOLD = "hold"  # the channel's credentials are refused: stop the channel, keep rows queued


class ErrorCode(StrEnum):
    """The error codes any channel may give (deliveries.last_error_code holds them as plain text). A
    channel's own codes are its driver's, with their words; a code is never reused for another meaning,
    so a row stored long ago still shows its words."""

    TIMEOUT = "TIMEOUT"
    CONNECTION = "CONNECTION_ERROR"
    RATE_LIMITED = "RATE_LIMITED"  # the server processed nothing: again soon, the budget untouched
    QUOTA_EXHAUSTED = "QUOTA_EXHAUSTED"  # the account's messages for the month are used up
    AUTH_FAILED = "AUTH_FAILED"  # the channel's credentials are refused: the channel is held
    RETRY_KEY_EXPIRED = "RETRY_KEY_EXPIRED"
    UPLOAD_FAILED = "UPLOAD_FAILED"
    # Image hosting cannot be used until the manager fixes it: the month goes as a message instead.
    HOSTING_UNUSABLE = "HOSTING_UNUSABLE"
    DEFERRED = "DEFERRED"
    NOT_SET_UP = "NOT_SET_UP"  # never tried: its channel is not set up (core/outbox/not_set_up.py)


class CancelReason(StrEnum):
    """Why a delivery was canceled instead of sent, kept in deliveries.cancel_reason: the reasons any
    channel may give. The values are the codes stored before this enum existed, so old rows still
    compare equal; a new reason is a new member here (no migration: the column is plain text). A
    channel's own reasons (not agreed to it, cannot reach on it, blocked it) are its driver's
    `cancel_reasons`, a kind's own its `cancel_reasons`, each with their words."""

    # Send-time checks: what the delivery is about changed or went away.
    SHIFT_MISSING = "SHIFT_MISSING"
    SHIFT_CHANGED = "SHIFT_CHANGED"  # a newer version of the shift exists
    SHIFT_STARTED = "SHIFT_STARTED"
    SHIFT_NOT_CONFIRMED = "SHIFT_NOT_CONFIRMED"
    TEACHER_INACTIVE = "TEACHER_INACTIVE"  # left or erased
    TEACHER_CHANGED = "TEACHER_CHANGED"  # the shift went to someone else
    CHANNEL_CHANGED = "CHANNEL_CHANGED"  # the teacher no longer wants this channel
    UNREACHABLE = "UNREACHABLE"  # a channel could not reach the teacher; their next channel went instead
    NOTHING_TOLD = "NOTHING_TOLD"  # a correction for a teacher who was never told the old version
    NO_HISTORY = "NO_HISTORY"  # a correction whose earlier version is not on record
    NO_GROUP = "NO_GROUP"  # the classroom has no group on the channel any more
    CLASSROOM_MISSING = "CLASSROOM_MISSING"
    PUBLICATION_MISSING = "PUBLICATION_MISSING"
    SUPERSEDED = "SUPERSEDED"  # a newer revision of the same month replaces it
    ALERT_MISSING = "ALERT_MISSING"
    # Planning.
    COVERED_BY_CORRECTION = "COVERED_BY_CORRECTION"  # a correction sent at the same moment says it all
    # The manager.
    MANAGER = "MANAGER"


# The words of the cancel reasons channels bring along (their drivers' `cancel_reasons`), by code;
# core/channels/registry.py fills it as it registers each channel.
CHANNEL_CANCEL_WORDS: dict[str, Text] = {}


def cancel_text(reason: str) -> Text:
    """Why a delivery was canceled, in words (core/texts/catalog.py "cancel.<reason>", or the words its
    channel gave), with the code."""
    known = reason in {r.value for r in CancelReason}
    words = (t(f"cancel.{reason}") if known else CHANNEL_CANCEL_WORDS.get(reason)
             or t("text.plain", text=reason))
    return t("cancel.shown", reason=words, code=reason)


class Transport(StrEnum):
    """How a request ended when no HTTP answer came back."""

    TIMEOUT = "timeout"
    CONNECTION = "connection"
    UPLOAD = "upload"  # the image upload before the request failed; the channel was not contacted
    UPLOAD_REFUSED = "upload_refused"  # the image host refuses for good; the channel was not contacted
    DEFERRED = "deferred"  # never tried: its batch ran out of time first (the lease must not run out)


@dataclass(frozen=True)
class SendResult:
    """What one send attempt produced, as seen by the channel client.

    `channel` is the key of the channel that sent it, whose rules apply; an SMTP reply is in `smtp_code`.
    `details` are the server's error details as text for people; `properties_at_fault` the request
    properties those details name ("to", "messages[0].text"), for the channel's rules.
    """

    channel: str
    http_status: int | None = None
    smtp_code: int | None = None
    transport_error: Transport | None = None
    request_id: str | None = None
    accepted_request_id: str | None = None
    message: Text | str | None = None  # the answer's words; a Text when the words are ours (a refused URL)
    details: tuple[str, ...] = field(default_factory=tuple)
    duration_ms: int = 0
    properties_at_fault: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    code: str | None = None  # an ErrorCode, or one of the channel's own codes
    message: Text | None = None  # "send_error.<code>": stored encoded (core/texts/message.dumps)
    # The failure is about who the message was for, not what it said (LINE: it does not know the
    # recipient, or refused the request naming the recipient's property).
    at_recipient: bool = False


@dataclass(frozen=True)
class BackoffPolicy:
    """2, 4, 8, 16, 32 minutes by default; at most `max_retries` retries after the first attempt."""

    base: dt.timedelta = dt.timedelta(minutes=2)
    factor: float = 2.0
    max_retries: int = 5
    jitter: float = 0.1  # ± fraction, so a burst of failures does not retry in lockstep
    throttle_delay: dt.timedelta = dt.timedelta(seconds=5)

    def delay(self, retry_number: int, rng: random.Random) -> dt.timedelta:
        """Delay before retry number `retry_number` (1-based)."""
        nominal = self.base.total_seconds() * self.factor ** (retry_number - 1)
        spread = nominal * self.jitter
        return dt.timedelta(seconds=nominal + rng.uniform(-spread, spread))


def transport_verdict(result: SendResult) -> Verdict:
    """A request that got no answer from the channel's server, the same for every channel."""
    if result.transport_error is Transport.DEFERRED:
        return failed(Outcome.THROTTLED, ErrorCode.DEFERRED, result)
    if result.transport_error is Transport.UPLOAD:
        return failed(Outcome.RETRY, ErrorCode.UPLOAD_FAILED, result)
    if result.transport_error is Transport.UPLOAD_REFUSED:
        # Nothing was sent and retrying the upload would fail alike: again at once, the budget
        # untouched, and the builder sends the message without what could not be uploaded.
        return failed(Outcome.THROTTLED, ErrorCode.HOSTING_UNUSABLE, result)
    if result.transport_error is Transport.TIMEOUT:
        return failed(Outcome.RETRY, ErrorCode.TIMEOUT, result)
    return failed(Outcome.RETRY, ErrorCode.CONNECTION, result)


def http_common(result: SendResult) -> Verdict | None:
    """What every HTTP channel reads alike: no answer (as `transport_verdict`) or a 2xx (sent). None
    for any other status, which is the channel's own to read."""
    if result.http_status is None:
        return transport_verdict(result)
    if 200 <= result.http_status < 300:
        return Verdict(Outcome.SENT)
    return None


def failed(outcome: Outcome, code: str, result: SendResult, at_recipient: bool = False) -> Verdict:
    """A verdict with its code and its words ("send_error.<code>", which the code's channel brings
    when the code is its own)."""
    return Verdict(outcome, code, error_text(code, result), at_recipient)


@dataclass(frozen=True)
class Decision:
    outcome: Outcome
    code: str | None
    message: Text | None
    next_attempt_at: dt.datetime | None = None
    at_recipient: bool = False  # see Verdict; stored as deliveries.last_error_at_recipient


# Nothing was sent and the next attempt is another request, ready now (the month without its image):
# waiting would only make a run that sends until idle (`main.py sender --until-idle`) end without it.
_AGAIN_AT_ONCE = frozenset({ErrorCode.HOSTING_UNUSABLE.value})


def decide(
    verdict: Verdict,
    *,
    attempts_made: int,
    now: dt.datetime,
    rng: random.Random,
    backoff: BackoffPolicy = BackoffPolicy(),
) -> Decision:
    """The full rule: a channel's verdict plus the retry budget. `attempts_made` includes this attempt."""
    if verdict.outcome is Outcome.RETRY:
        retries_used = attempts_made - 1
        if retries_used >= backoff.max_retries:
            return Decision(Outcome.DEAD, verdict.code, verdict.message)
        return Decision(Outcome.RETRY, verdict.code, verdict.message, now + backoff.delay(retries_used + 1, rng))
    if verdict.outcome is Outcome.THROTTLED:
        delay = dt.timedelta(0) if verdict.code in _AGAIN_AT_ONCE else backoff.throttle_delay
        return Decision(Outcome.THROTTLED, verdict.code, verdict.message, now + delay)
    return Decision(verdict.outcome, verdict.code, verdict.message, at_recipient=verdict.at_recipient)


def retry_key_usable(issued_at: dt.datetime | None, now: dt.datetime) -> bool:
    """May an automatic retry reuse a key issued at `issued_at`? Never once the server may have forgotten it."""
    if issued_at is None:
        return True
    return now - issued_at < RETRY_KEY_LIFETIME - RETRY_KEY_MARGIN


@dataclass(frozen=True)
class ChannelFailure:
    """What a teacher's delivery that ended without being sent means for their next channel (their
    contact rule "the first that can reach them, then the next"). Each channel's driver says it
    (`failure`) from the codes it gives."""

    fall_back: bool  # send this message on the teacher's next channel instead
    recipient_unreachable: bool  # the channel cannot reach this address at all: remember it for the next messages


def failure(code: str | None, *, dead: bool) -> ChannelFailure:
    """The rule for codes every channel shares, which a driver's own `failure` starts from: retries
    that ran out or a used-up quota say nothing about the teacher, but the message still has to reach
    them, so it goes on their next channel. Anything else the manager has to look at."""
    return ChannelFailure(dead or code == ErrorCode.QUOTA_EXHAUSTED.value, False)


def stored_error(message: Text | str | None) -> str | None:
    """A delivery's error as its text columns keep it (last_error_message, delivery_attempts.error_message):
    encoded, so each reader renders it in its own language (core/texts/message.dumps)."""
    return dumps(message) if message is not None else None


def shown_error(stored: str | None) -> Text | str:
    """What `stored_error` kept; a row written before errors had codes gives back its plain words."""
    return loads(stored) if stored else ""


def error_text(code: str, result: SendResult) -> Text:
    """Why a send failed, as a catalog message ("send_error.<code>"). The answer's own words (LINE's
    message and details, the mail server's reply, a library's connection error) are not ours to
    translate: they travel as one parameter, shown as they came."""
    words: Text | str = "; ".join(([result.message] if isinstance(result.message, str) and result.message else [])
                                  + list(result.details))
    if isinstance(result.message, Text):
        words = result.message
    said = t("send_error.said", words=words) if words else t("text.plain", text="")
    status = result.smtp_code if result.smtp_code is not None else result.http_status
    return t(f"send_error.{code}", said=said, **({"status": status} if status is not None else {}))
