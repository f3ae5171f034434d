"""Delivery rules as pure functions: outcome classification (LINE, SMTP, webhook), backoff, retry-key
validity, and what a failed LINE delivery means for its e-mail fallback.

Which classification applies is the channel's to say: each channel's driver (core/channels/base.py)
picks its rule, and `decide` works on the verdict, whatever channel gave it.

No I/O and no clock of their own: `now` and randomness are passed in, so every rule is tested
directly (tests/test_policy.py) and again end to end against the emulator.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from enum import StrEnum

from core.store.models import Channel
from core.texts import Text, t
from core.texts.message import dumps, loads

RETRY_KEY_LIFETIME = dt.timedelta(hours=24)
# A request needs time to travel; a key this close to its 24 h limit might be forgotten by LINE
# before the retry arrives, and then a duplicate would reach the teacher.
RETRY_KEY_MARGIN = dt.timedelta(minutes=10)
RATE_LIMIT_MESSAGE = "The API rate limit has been exceeded. Try again later."
MONTHLY_LIMIT_MESSAGE = "You have reached your monthly limit."


class Outcome(StrEnum):
    SENT = "sent"
    RETRY = "retry"  # transient: back to queued with backoff, counts against the budget
    FAILED = "failed"  # permanent for this delivery
    DEAD = "dead"  # transient, but the budget is spent: failed and dead-lettered
    THROTTLED = "throttled"  # LINE processed nothing (rate limit): retry soon, budget untouched
    HOLD = "hold"  # the channel's credentials are refused: stop the channel, keep rows queued


class ErrorCode(StrEnum):
    SERVER_ERROR = "LINE_5XX"
    TIMEOUT = "TIMEOUT"
    CONNECTION = "CONNECTION_ERROR"
    RATE_LIMITED = "RATE_LIMITED"
    QUOTA_EXHAUSTED = "QUOTA_EXHAUSTED"
    AUTH_FAILED = "AUTH_FAILED"
    BAD_REQUEST = "LINE_400"
    FORBIDDEN = "LINE_403"
    NOT_FOUND = "LINE_404"
    CLIENT_ERROR = "LINE_4XX"
    RETRY_KEY_EXPIRED = "RETRY_KEY_EXPIRED"
    UPLOAD_FAILED = "UPLOAD_FAILED"
    # Image hosting cannot be used until the manager fixes it: the month goes as a message instead.
    HOSTING_UNUSABLE = "HOSTING_UNUSABLE"
    SMTP_TEMPORARY = "SMTP_4XX"
    SMTP_REJECTED = "SMTP_5XX"
    SMTP_AUTH_FAILED = "SMTP_AUTH_FAILED"
    WEBHOOK_REJECTED = "WEBHOOK_4XX"
    WEBHOOK_SERVER_ERROR = "WEBHOOK_5XX"
    DEFERRED = "DEFERRED"
    NOT_SET_UP = "NOT_SET_UP"  # never tried: its channel is not set up (core/outbox/not_set_up.py)


class CancelReason(StrEnum):
    """Why a delivery was canceled instead of sent, kept in deliveries.cancel_reason. The values are
    the codes stored before this enum existed, so old rows still compare equal; a new reason is a new
    member here (no migration: the column is plain text)."""

    # Send-time checks: what the delivery is about changed or went away.
    SHIFT_MISSING = "SHIFT_MISSING"
    SHIFT_CHANGED = "SHIFT_CHANGED"  # a newer version of the shift exists
    SHIFT_STARTED = "SHIFT_STARTED"
    SHIFT_NOT_CONFIRMED = "SHIFT_NOT_CONFIRMED"
    TEACHER_INACTIVE = "TEACHER_INACTIVE"  # left or erased
    TEACHER_CHANGED = "TEACHER_CHANGED"  # the shift went to someone else
    CHANNEL_CHANGED = "CHANNEL_CHANGED"  # the teacher no longer wants this channel
    LINE_NOT_OPTED_IN = "LINE_NOT_OPTED_IN"
    EMAIL_NOT_OPTED_IN = "EMAIL_NOT_OPTED_IN"
    LINE_UNREACHABLE = "LINE_UNREACHABLE"  # went by e-mail instead (core/planning/fallback.py)
    UNREACHABLE = "UNREACHABLE"  # a channel could not reach the teacher; their next channel went instead
    LINE_UNFOLLOWED = "LINE_UNFOLLOWED"  # the teacher blocked the LINE account (a webhook unfollow)
    NOTHING_TOLD = "NOTHING_TOLD"  # a correction for a teacher who was never told the old version
    NO_HISTORY = "NO_HISTORY"  # a correction whose earlier version is not on record
    NO_GROUP = "NO_GROUP"  # the classroom has no LINE group any more
    CLASSROOM_MISSING = "CLASSROOM_MISSING"
    PUBLICATION_MISSING = "PUBLICATION_MISSING"
    SUPERSEDED = "SUPERSEDED"  # a newer revision of the same month replaces it
    ALERT_MISSING = "ALERT_MISSING"
    WEBHOOK_NOT_CONFIGURED = "WEBHOOK_NOT_CONFIGURED"
    MANAGER_EMAIL_NOT_CONFIGURED = "MANAGER_EMAIL_NOT_CONFIGURED"
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
    UPLOAD = "upload"  # the image upload before the request failed; LINE was not contacted
    UPLOAD_REFUSED = "upload_refused"  # the image host refuses for good; LINE was not contacted
    DEFERRED = "deferred"  # never tried: its batch ran out of time first (the lease must not run out)


# SMTP replies that refuse our credentials or how we log in (530 authentication required, 534
# mechanism too weak, 535 credentials invalid, 538 encryption required): every message would fail
# the same way, so the channel is held instead of failing each delivery.
SMTP_AUTH_CODES = frozenset({530, 534, 535, 538})


@dataclass(frozen=True)
class SendResult:
    """What one send attempt produced, as seen by the channel client.

    `channel` is the channel that sent it, whose rules apply; an SMTP reply is in `smtp_code`.
    `details` are LINE's error details as text for people; `properties_at_fault` the request
    properties those details name ("to", "messages[0].text"), for the rules.
    """

    channel: str = Channel.LINE
    http_status: int | None = None
    smtp_code: int | None = None
    transport_error: Transport | None = None
    request_id: str | None = None
    accepted_request_id: str | None = None
    message: Text | str | None = None  # the answer's words; a Text when the words are ours (a refused URL)
    details: tuple[str, ...] = field(default_factory=tuple)
    duration_ms: int = 0
    properties_at_fault: tuple[str, ...] = field(default_factory=tuple)


# The request property that holds the recipient's ID, in LINE's push and multicast bodies.
RECIPIENT_PROPERTY = "to"


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    # Core's ErrorCode, or a code a channel's driver declares (with its "send_error.<code>" words).
    code: str | None = None
    message: Text | None = None  # "send_error.<code>": stored encoded (core/texts/message.dumps)
    # The failure is about who the message was for, not what it said: LINE does not know the
    # recipient (404), or refused the request naming the recipient's property (400 at "to").
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


def _transport_verdict(result: SendResult) -> Verdict:
    if result.transport_error is Transport.DEFERRED:
        return _failed(Outcome.THROTTLED, ErrorCode.DEFERRED, result)
    if result.transport_error is Transport.UPLOAD:
        return _failed(Outcome.RETRY, ErrorCode.UPLOAD_FAILED, result)
    if result.transport_error is Transport.UPLOAD_REFUSED:
        # Nothing was sent and retrying the upload would fail alike: again at once, the budget
        # untouched, and the builder sends the message without what could not be uploaded.
        return _failed(Outcome.THROTTLED, ErrorCode.HOSTING_UNUSABLE, result)
    if result.transport_error is Transport.TIMEOUT:
        return _failed(Outcome.RETRY, ErrorCode.TIMEOUT, result)
    return _failed(Outcome.RETRY, ErrorCode.CONNECTION, result)


def _failed(outcome: Outcome, code: str, result: SendResult, at_recipient: bool = False) -> Verdict:
    return Verdict(outcome, code, error_text(code, result), at_recipient)


def classify_smtp(result: SendResult) -> Verdict:
    """The mail server's reply → what to do. 2xx accepted; 4xx, timeouts and dropped connections are
    temporary; 5xx refuses this message or recipient only; an authentication refusal holds e-mail."""
    code = result.smtp_code
    if code is None:
        return _transport_verdict(result)
    if 200 <= code < 400:
        return Verdict(Outcome.SENT)
    if code in SMTP_AUTH_CODES:
        return _failed(Outcome.HOLD, ErrorCode.SMTP_AUTH_FAILED, result)
    if 400 <= code < 500:
        return _failed(Outcome.RETRY, ErrorCode.SMTP_TEMPORARY, result)
    return _failed(Outcome.FAILED, ErrorCode.SMTP_REJECTED, result)


def classify_webhook(result: SendResult) -> Verdict:
    """An incoming webhook's answer. It has no credentials to hold: a 4xx means the URL is wrong."""
    status = result.http_status
    if status is None:
        return _transport_verdict(result)
    if 200 <= status < 300:
        return Verdict(Outcome.SENT)
    if status == 429:
        return _failed(Outcome.THROTTLED, ErrorCode.RATE_LIMITED, result)
    if status >= 500:
        return _failed(Outcome.RETRY, ErrorCode.WEBHOOK_SERVER_ERROR, result)
    return _failed(Outcome.FAILED, ErrorCode.WEBHOOK_REJECTED, result)


def classify_line(result: SendResult) -> Verdict:
    """LINE's answer → what to do with the delivery."""
    status = result.http_status
    if status is None:
        return _transport_verdict(result)
    if 200 <= status < 300:
        return Verdict(Outcome.SENT)
    if status == 409 and result.accepted_request_id:
        # An earlier attempt with this retry key was accepted: the teacher already has it.
        return Verdict(Outcome.SENT)
    if status >= 500:
        return _failed(Outcome.RETRY, ErrorCode.SERVER_ERROR, result)
    if status == 429:
        if str(result.message or "").strip() == MONTHLY_LIMIT_MESSAGE:
            return _failed(Outcome.FAILED, ErrorCode.QUOTA_EXHAUSTED, result)
        # LINE documents that nothing was processed; any other 429 is treated the same, safely.
        return _failed(Outcome.THROTTLED, ErrorCode.RATE_LIMITED, result)
    if status == 401:
        return _failed(Outcome.HOLD, ErrorCode.AUTH_FAILED, result)
    code = {400: ErrorCode.BAD_REQUEST, 403: ErrorCode.FORBIDDEN, 404: ErrorCode.NOT_FOUND}.get(
        status, ErrorCode.CLIENT_ERROR
    )
    at_recipient = status == 404 or (status == 400 and RECIPIENT_PROPERTY in result.properties_at_fault)
    return _failed(Outcome.FAILED, code, result, at_recipient)


@dataclass(frozen=True)
class Decision:
    outcome: Outcome
    code: str | None
    message: Text | None
    next_attempt_at: dt.datetime | None = None
    at_recipient: bool = False  # see Verdict; stored as deliveries.last_error_at_recipient


# Nothing was sent and the next attempt is another request, ready now (the month without its image):
# waiting would only make a run that sends until idle (`main.py sender --until-idle`) end without it.
_AGAIN_AT_ONCE = frozenset({ErrorCode.HOSTING_UNUSABLE})


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
    """May an automatic retry reuse a key issued at `issued_at`? Never once LINE may have forgotten it."""
    if issued_at is None:
        return True
    return now - issued_at < RETRY_KEY_LIFETIME - RETRY_KEY_MARGIN


@dataclass(frozen=True)
class ChannelFailure:
    """What a delivery that ended without being sent means for its teacher's next channel, by the rules
    of the channel that failed (its driver's `failure`)."""

    fall_back: bool  # send this message on the teacher's next channel instead
    recipient_unreachable: bool  # the channel cannot reach this address at all: remember it for the next messages


def transport_verdict(result: SendResult) -> Verdict:
    """No answer came back (a timeout, a dropped connection, a batch out of time): the same for every channel."""
    return _transport_verdict(result)


@dataclass(frozen=True)
class LineFailure:
    """What a LINE delivery that ended without being sent means for a teacher with e-mail fallback."""

    fall_back: bool  # send this message by e-mail instead
    recipient_unreachable: bool  # LINE cannot reach this user ID at all: remember it for the next messages


# Failures about LINE or the account rather than the message: the teacher should still be told.
_CHANNEL_FAILURES = frozenset({ErrorCode.QUOTA_EXHAUSTED.value, ErrorCode.FORBIDDEN.value})


def line_failure(code: str | None, *, at_recipient: bool, dead: bool) -> LineFailure:
    """Only an error about the recipient marks the teacher unreachable — a 404, or a 400 at the
    recipient (`at_recipient`, as classify_line found it and the delivery row keeps it) — never one
    about the message: one bad template must not cut every teacher off LINE. A message LINE refused
    as malformed is not re-sent by e-mail either; the manager has to look. Retries that ran out, a
    used-up quota or a refused account do not say anything about the teacher, but the message still
    has to reach them, so it goes by e-mail."""
    if code == ErrorCode.NOT_FOUND.value:
        return LineFailure(True, True)
    if code == ErrorCode.BAD_REQUEST.value:
        return LineFailure(at_recipient, at_recipient)
    if dead or code in _CHANNEL_FAILURES:
        return LineFailure(True, False)
    return LineFailure(False, False)


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
