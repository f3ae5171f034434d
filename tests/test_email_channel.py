"""The SMTP client against a real server on loopback: TLS both ways, one login per batch, each reply
code turned into a result the outcome rules understand."""

from __future__ import annotations

import datetime as dt

import pytest

from core.channels import email as email_channel
from core.channels import registry
from core.channels.email import Mailer, SmtpError
from core.channels.email_draft import Envelope, MailDraft, envelope
from core.errors import ValidationError
from core.outbox import policy
from core.outbox.policy import Outcome
from tests.smtpfixtures import FROM, SmtpServer, smtp_ca, smtp_server, starttls_server  # noqa: F401

NOW = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)


def _mail(to: str, n: int = 1) -> Envelope:
    draft = MailDraft(to=to, from_address=FROM, subject=f"件名 {n}", text=f"本文 {n}\n", html=f"<p>本文 {n}</p>",
                      message_id=f"<m{n}@school.example.com>")
    return envelope(draft, date=NOW)


def _send(mailer: Mailer, envelopes: list[Envelope]) -> list[policy.SendResult]:
    results: dict[int, policy.SendResult] = {}
    mailer.send_batch(enumerate(envelopes), lambda key, result: results.__setitem__(key, result))
    return [results[i] for i in range(len(envelopes))]


def test_a_batch_goes_through_one_connection_and_one_login(smtp_server: SmtpServer) -> None:
    mailer = Mailer(smtp_server.config(), "correct horse battery staple")
    results = _send(mailer, [_mail(f"t{n}@example.com", n) for n in range(25)])
    assert [registry.classify(r).outcome for r in results] == [Outcome.SENT] * 25
    assert (smtp_server.recorder.connections, smtp_server.recorder.logins) == (1, 1)
    assert len(smtp_server.recorder.received) == 25
    # The next batch soon after reuses the connection.
    _send(mailer, [_mail("late@example.com")])
    assert (smtp_server.recorder.connections, smtp_server.recorder.logins) == (1, 1)
    mailer.close()


def test_an_idle_connection_is_not_reused(starttls_server: SmtpServer) -> None:
    now = [0.0]
    mailer = Mailer(starttls_server.config(), "correct horse battery staple", keepalive=30.0,
                    monotonic=lambda: now[0])
    _send(mailer, [_mail("a@example.com")])
    now[0] = 100.0
    _send(mailer, [_mail("b@example.com")])
    assert starttls_server.recorder.connections == 2
    mailer.close()


def test_a_refused_recipient_fails_only_that_message(starttls_server: SmtpServer) -> None:
    starttls_server.recorder.rcpt_codes["gone@example.com"] = "550 5.1.1 no such user"
    mailer = Mailer(starttls_server.config(), "correct horse battery staple")
    results = _send(mailer, [_mail("a@example.com"), _mail("gone@example.com"), _mail("b@example.com")])
    verdicts = [registry.classify(r) for r in results]
    assert [v.outcome for v in verdicts] == [Outcome.SENT, Outcome.FAILED, Outcome.SENT]
    assert verdicts[1].code == SmtpError.REJECTED and "SMTP 550" in str(verdicts[1].message or "")
    assert starttls_server.recorder.connections == 1
    mailer.close()


def test_421_drops_the_connection_and_the_next_message_reconnects(starttls_server: SmtpServer) -> None:
    starttls_server.recorder.data_codes.extend(["421 4.3.0 shutting down", "451 4.3.0 try later"])
    mailer = Mailer(starttls_server.config(), "correct horse battery staple")
    results = _send(mailer, [_mail("a@example.com", 1), _mail("b@example.com", 2), _mail("c@example.com", 3)])
    assert [r.smtp_code for r in results] == [421, 451, 250]
    assert [registry.classify(r).outcome for r in results] == [Outcome.RETRY, Outcome.RETRY, Outcome.SENT]
    assert starttls_server.recorder.connections == 2
    mailer.close()


def test_a_refused_login_holds_every_message_of_the_batch_after_one_try(starttls_server: SmtpServer) -> None:
    mailer = Mailer(starttls_server.config(), "a wrong password")
    results = _send(mailer, [_mail(f"t{n}@example.com", n) for n in range(5)])
    assert {r.smtp_code for r in results} == {535}
    assert {registry.classify(r).outcome for r in results} == {Outcome.HOLD}
    assert starttls_server.recorder.logins == 1 and starttls_server.recorder.received == []


def test_an_unreachable_server_is_a_connection_error_for_the_batch(starttls_server: SmtpServer) -> None:
    config = starttls_server.config()
    dead = email_channel.SmtpConfig(config.host, 1, config.security, config.user, FROM, None, config.ca_file, 2.0)
    results = _send(Mailer(dead, "x"), [_mail("a@example.com"), _mail("b@example.com")])
    assert {registry.classify(r).code for r in results} == {policy.ErrorCode.CONNECTION}


def test_a_server_certificate_from_an_unknown_ca_is_refused(starttls_server: SmtpServer) -> None:
    config = starttls_server.config()
    system_ca_only = email_channel.SmtpConfig(config.host, config.port, config.security, config.user, FROM)
    [result] = _send(Mailer(system_ca_only, "correct horse battery staple"), [_mail("a@example.com")])
    assert registry.classify(result).outcome is Outcome.RETRY and "certificate" in str(result.message or "").lower()
    assert starttls_server.recorder.logins == 0  # the password never left


def test_check_reports_the_servers_reason(starttls_server: SmtpServer) -> None:
    Mailer(starttls_server.config(), "correct horse battery staple").check()
    with pytest.raises(ValidationError, match="535"):
        Mailer(starttls_server.config(), "wrong").check()


def test_plain_smtp_is_allowed_only_to_this_computer() -> None:
    email_channel.SmtpConfig("127.0.0.1", 25, "none", None, FROM)
    with pytest.raises(ValidationError):
        email_channel.SmtpConfig("mail.example.com", 25, "none", None, FROM)


def test_settings_and_password_from_the_environment(db, starttls_server: SmtpServer,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    with db.read() as s:
        assert email_channel.config_from_settings(s) is None  # not set up yet
    starttls_server.configure(db)
    first = email_channel.access_from_settings(db)
    assert first is not None and first.mailer.config.port == starttls_server.port
    monkeypatch.setenv(email_channel.PASSWORD_ENV, "from the environment")
    second = email_channel.access_from_settings(db)
    assert second is not None and second.fingerprint != first.fingerprint  # a new password lifts a hold


def test_messages_not_started_within_the_time_budget_come_back_untried(starttls_server: SmtpServer) -> None:
    now = [0.0]

    def clock() -> float:
        now[0] += 1.0  # every look at the clock is a second later
        return now[0]

    mailer = Mailer(starttls_server.config(), "correct horse battery staple", monotonic=clock)
    results: list[policy.SendResult] = []
    mailer.send_batch(((n, _mail(f"t{n}@example.com", n)) for n in range(6)), lambda _k, r: results.append(r),
                      time_budget=3.5)
    verdicts = [registry.classify(r) for r in results]
    assert [v.outcome for v in verdicts].count(Outcome.SENT) == len(starttls_server.recorder.received) > 0
    assert {v.outcome for v in verdicts[len(starttls_server.recorder.received):]} == {Outcome.THROTTLED}
    assert verdicts[-1].code is policy.ErrorCode.DEFERRED and len(results) == 6
    mailer.close()
