"""What the Settings screen calls for e-mail and alerts: checked saves, the login test, the state."""

from __future__ import annotations

import pytest

from core.channels import email as email_channel
from core.errors import ValidationError
from core.setup import email
from core.store.db import Database
from tests.smtpfixtures import (  # noqa: F401
    SMTP_PASSWORD,
    SMTP_USER,
    SmtpServer,
    smtp_ca,
    starttls_server,
)


@pytest.fixture(autouse=True)
def _no_password_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(email_channel.PASSWORD_ENV, raising=False)


def test_save_check_and_state(db: Database, starttls_server: SmtpServer) -> None:
    assert email.email_state(db).config is None
    email.save_email_settings(db, host="127.0.0.1", port=starttls_server.port, security="STARTTLS",
                                    user=SMTP_USER, from_address="shifts@school.example.com",
                                    ca_file=str(starttls_server.ca_file))
    email.save_password(SMTP_PASSWORD)
    email.check_login(db)
    state = email.email_state(db)
    assert state.config is not None and state.config.security == "starttls" and state.password_saved
    email.save_password("wrong")
    with pytest.raises(ValidationError, match="535"):
        email.check_login(db)


def test_bad_input_is_refused_before_anything_is_saved(db: Database) -> None:
    with pytest.raises(ValidationError):
        email.save_email_settings(db, host="mail.example.com", port=25, security="none", user=None,
                                        from_address="a@example.com")
    with pytest.raises(ValidationError):
        email.save_email_settings(db, host="mail.example.com", port=None, security="starttls", user=None,
                                        from_address="not an address")
    assert email.email_state(db).config is None


def test_alert_targets(db: Database) -> None:
    with pytest.raises(ValidationError, match="https"):
        email.save_alert_targets(db, webhook_url="http://hooks.example.com/x", manager_email=None)
    email.save_alert_targets(db, webhook_url="https://hooks.slack.com/services/T/B/X",
                                   manager_email="boss@example.com")
    state = email.email_state(db)
    assert (state.webhook_url, state.manager_email) == ("https://hooks.slack.com/services/T/B/X", "boss@example.com")
    email.save_alert_targets(db, webhook_url="", manager_email="")
    assert email.email_state(db).webhook_url is None
