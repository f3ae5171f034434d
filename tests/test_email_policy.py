"""The outcome rules of the e-mail and webhook channels, and what a failed LINE delivery means for a
teacher's next channel (pure functions, no I/O)."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from core.channels import line, registry
from core.channels.email import SmtpError
from core.outbox import policy
from core.outbox.policy import ChannelFailure, ErrorCode, Outcome, SendResult, Transport
from core.store.models import Channel


def _smtp(code: int | None = None, transport: Transport | None = None) -> policy.Verdict:
    return registry.classify(SendResult(channel=Channel.EMAIL, smtp_code=code, transport_error=transport))


@pytest.mark.parametrize("code", [250, 251])
def test_smtp_2xx_is_sent(code: int) -> None:
    assert _smtp(code).outcome is Outcome.SENT


@pytest.mark.parametrize("code", [421, 450, 451, 452])
def test_smtp_4xx_is_retried(code: int) -> None:
    assert (_smtp(code).outcome, _smtp(code).code) == (Outcome.RETRY, SmtpError.TEMPORARY)


@pytest.mark.parametrize("transport,code", [(Transport.TIMEOUT, ErrorCode.TIMEOUT),
                                            (Transport.CONNECTION, ErrorCode.CONNECTION)])
def test_smtp_timeouts_and_connection_errors_are_retried(transport: Transport, code: ErrorCode) -> None:
    assert (_smtp(transport=transport).outcome, _smtp(transport=transport).code) == (Outcome.RETRY, code)


@pytest.mark.parametrize("code", [550, 551, 552, 553, 554])
def test_smtp_5xx_fails_that_delivery(code: int) -> None:
    assert (_smtp(code).outcome, _smtp(code).code) == (Outcome.FAILED, SmtpError.REJECTED)


@pytest.mark.parametrize("code", [535, 530, 534, 538])
def test_smtp_authentication_refusals_hold_the_channel(code: int) -> None:
    assert (_smtp(code).outcome, _smtp(code).code) == (Outcome.HOLD, SmtpError.AUTH_FAILED)


def test_smtp_retries_use_the_engines_backoff_and_budget() -> None:
    result = SendResult(channel=Channel.EMAIL, smtp_code=451)
    now = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    backoff = policy.BackoffPolicy(jitter=0)
    first = policy.decide(registry.classify(result), attempts_made=1, now=now, rng=random.Random(1), backoff=backoff)
    assert first.outcome is Outcome.RETRY and first.next_attempt_at == now + dt.timedelta(minutes=2)
    assert policy.decide(registry.classify(result), attempts_made=6, now=now, rng=random.Random(1), backoff=backoff).outcome is Outcome.DEAD


def test_smtp_code_shows_in_the_message() -> None:
    verdict = registry.classify(SendResult(channel=Channel.EMAIL, smtp_code=550, message="5.1.1 no such user"))
    assert str(verdict.message) == "the mail server refused the message (SMTP 550): 5.1.1 no such user"


@pytest.mark.parametrize("status,outcome", [(200, Outcome.SENT), (204, Outcome.SENT), (429, Outcome.THROTTLED),
                                            (500, Outcome.RETRY), (503, Outcome.RETRY), (401, Outcome.FAILED),
                                            (404, Outcome.FAILED), (None, Outcome.RETRY)])
def test_webhook_outcomes(status: int | None, outcome: Outcome) -> None:
    result = SendResult(channel=Channel.WEBHOOK, http_status=status,
                        transport_error=Transport.CONNECTION if status is None else None)
    assert registry.classify(result).outcome is outcome


def test_line_rules_are_unchanged_for_line_results() -> None:
    assert registry.classify(SendResult(channel=Channel.LINE, http_status=401)).outcome is Outcome.HOLD
    assert registry.classify(SendResult(channel=Channel.LINE, http_status=400)).code == line.LineError.BAD_REQUEST


def test_a_404_marks_the_teacher_unreachable_and_falls_back() -> None:
    assert line.failure("LINE_404", at_recipient=True, dead=False) == ChannelFailure(True, True)
    # Rows recorded before the flag existed say it by their code alone.
    assert line.failure("LINE_404", at_recipient=False, dead=False) == ChannelFailure(True, True)


def test_a_400_about_the_message_neither_marks_nor_falls_back() -> None:
    assert line.failure("LINE_400", at_recipient=False, dead=False) == ChannelFailure(False, False)


def test_a_400_pointing_at_the_recipient_counts_as_unreachable() -> None:
    assert line.failure("LINE_400", at_recipient=True, dead=False) == ChannelFailure(True, True)


@pytest.mark.parametrize(("properties", "failure"), [
    (("to",), ChannelFailure(True, True)),
    (("messages[0].text",), ChannelFailure(False, False)),
])
def test_lines_answer_decides_the_fallback_through_the_typed_result(properties: tuple[str, ...],
                                                                    failure: ChannelFailure) -> None:
    """From LINE's answer to the fallback rule, as the sender records it: no message text in between."""
    result = SendResult(channel=Channel.LINE, http_status=400, message="The request body has 1 error(s)",
                        details=tuple(f"{p}: The property, '{p}', is invalid" for p in properties),
                        properties_at_fault=properties)
    decision = policy.decide(line.classify(result), attempts_made=1, now=dt.datetime(2026, 12, 1, tzinfo=dt.UTC),
                             rng=random.Random(1))
    assert line.failure(decision.code, at_recipient=decision.at_recipient, dead=False) == failure


@pytest.mark.parametrize("code,dead", [("LINE_5XX", True), ("TIMEOUT", True), ("QUOTA_EXHAUSTED", False),
                                       ("LINE_403", False)])
def test_failures_about_line_fall_back_without_blaming_the_teacher(code: str, dead: bool) -> None:
    assert line.failure(code, at_recipient=False, dead=dead) == ChannelFailure(True, False)


@pytest.mark.parametrize("code", ["RETRY_KEY_EXPIRED", "IMAGE_MISSING", "LINE_4XX", None])
def test_other_failures_do_nothing(code: str | None) -> None:
    assert line.failure(code, at_recipient=False, dead=False) == ChannelFailure(False, False)
