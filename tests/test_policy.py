"""The outcome table and backoff as pure functions (the same rows run end to end in test_sender.py)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest

from core.channels.line import MONTHLY_LIMIT_MESSAGE, RATE_LIMIT_MESSAGE, LineError
from core.channels.line import classify as classify_line
from core.outbox.policy import BackoffPolicy, ErrorCode, Outcome, SendResult, Transport, decide, retry_key_usable
from core.texts import render

NOW = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def _line(**answer: Any) -> SendResult:
    return SendResult(channel="line", **answer)


@pytest.mark.parametrize(
    ("result", "outcome", "code"),
    [
        (_line(http_status=200, request_id="r"), Outcome.SENT, None),
        (_line(http_status=409, accepted_request_id="a", message="The retry key is already accepted"), Outcome.SENT, None),
        (_line(http_status=409, message="Conflict without accepted id"), Outcome.FAILED, LineError.CLIENT_ERROR),
        (_line(http_status=500), Outcome.RETRY, LineError.SERVER_ERROR),
        (_line(http_status=503), Outcome.RETRY, LineError.SERVER_ERROR),
        (_line(transport_error=Transport.TIMEOUT), Outcome.RETRY, ErrorCode.TIMEOUT),
        (_line(transport_error=Transport.CONNECTION), Outcome.RETRY, ErrorCode.CONNECTION),
        (_line(http_status=429, message=RATE_LIMIT_MESSAGE), Outcome.THROTTLED, ErrorCode.RATE_LIMITED),
        (_line(http_status=429, message=MONTHLY_LIMIT_MESSAGE), Outcome.FAILED, ErrorCode.QUOTA_EXHAUSTED),
        (_line(http_status=401, message="Authentication failed"), Outcome.HOLD, ErrorCode.AUTH_FAILED),
        (_line(http_status=400, message="The request body has 1 error(s)", details=("to: invalid",),
                    properties_at_fault=("to",)), Outcome.FAILED, LineError.BAD_REQUEST),
        (_line(http_status=403), Outcome.FAILED, LineError.FORBIDDEN),
        (_line(http_status=404), Outcome.FAILED, LineError.NOT_FOUND),
        (_line(http_status=413), Outcome.FAILED, LineError.CLIENT_ERROR),
    ],
)
def test_outcome_table(result: SendResult, outcome: Outcome, code: str | None) -> None:
    verdict = classify_line(result)
    assert (verdict.outcome, verdict.code) == (outcome, code)


@pytest.mark.parametrize(("result", "at_recipient"), [
    (_line(http_status=404, message="Not found"), True),
    (_line(http_status=400, details=("to: invalid",), properties_at_fault=("to",)), True),
    (_line(http_status=400, details=("messages[0].text: empty", "to: invalid"),
                properties_at_fault=("messages[0].text", "to")), True),
    (_line(http_status=400, details=("messages[0].text: empty",), properties_at_fault=("messages[0].text",)), False),
    # Only the property LINE named counts, never words in its text.
    (_line(http_status=400, message="to: someone", details=("messages[0].text: say hello; to: you",),
                properties_at_fault=("messages[0].text",)), False),
    (_line(http_status=403, properties_at_fault=("to",)), False),
    (_line(http_status=500), False),
    (_line(transport_error=Transport.TIMEOUT), False),
])
def test_a_failure_points_at_the_recipient_only_when_line_says_so(result: SendResult, at_recipient: bool) -> None:
    assert classify_line(result).at_recipient is at_recipient
    assert decide(classify_line(result), attempts_made=1, now=NOW, rng=random.Random(1)).at_recipient is at_recipient


def test_error_message_keeps_lines_details() -> None:
    verdict = classify_line(_line(http_status=400, message="The request body has 1 error(s)", details=("messages[0].text: too long",)))
    assert verdict.message is not None and verdict.message.code == "send_error.LINE_400"
    assert str(verdict.message) == ("LINE refused the request as invalid (HTTP 400): "
                                    "The request body has 1 error(s); messages[0].text: too long")
    # LINE's words are LINE's: the Japanese keeps them as they came.
    assert render(verdict.message, "ja") == ("リクエストの内容に誤りがあるため、LINEが受け付けませんでした（HTTP 400）: "
                                             "The request body has 1 error(s); messages[0].text: too long")


def test_backoff_doubles_from_two_minutes_with_small_jitter() -> None:
    policy = BackoffPolicy()
    rng = random.Random(7)
    for n, minutes in enumerate([2, 4, 8, 16, 32], start=1):
        delay = policy.delay(n, rng).total_seconds()
        assert minutes * 60 * 0.9 <= delay <= minutes * 60 * 1.1
    no_jitter = BackoffPolicy(jitter=0)
    assert [no_jitter.delay(n, rng) for n in (1, 2, 3)] == [dt.timedelta(minutes=m) for m in (2, 4, 8)]


def test_five_retries_after_the_first_attempt_then_dead() -> None:
    rng = random.Random(1)
    failing = _line(http_status=500)
    outcomes = [decide(classify_line(failing), attempts_made=n, now=NOW, rng=rng).outcome for n in range(1, 7)]
    assert outcomes == [Outcome.RETRY] * 5 + [Outcome.DEAD]
    retry = decide(classify_line(failing), attempts_made=1, now=NOW, rng=rng, backoff=BackoffPolicy(jitter=0))
    assert retry.next_attempt_at == NOW + dt.timedelta(minutes=2)


def test_throttle_does_not_spend_budget_and_retries_soon() -> None:
    decision = decide(classify_line(_line(http_status=429, message=RATE_LIMIT_MESSAGE)), attempts_made=6, now=NOW, rng=random.Random())
    assert decision.outcome is Outcome.THROTTLED
    assert decision.next_attempt_at is not None and decision.next_attempt_at - NOW <= dt.timedelta(seconds=5)


def test_retry_key_validity() -> None:
    assert retry_key_usable(None, NOW)
    assert retry_key_usable(NOW - dt.timedelta(hours=23), NOW)
    assert not retry_key_usable(NOW - dt.timedelta(hours=23, minutes=55), NOW)
    assert not retry_key_usable(NOW - dt.timedelta(hours=24), NOW)
