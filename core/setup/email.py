"""What a Settings screen asks of e-mail and alerts, as plain blocking functions (run on a background
thread). The password never comes back out: callers learn only whether one is saved."""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass

from core.channels import email as email_channel
from core.channels import webhook
from core.errors import ValidationError
from core.roster import ids
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.texts import Text, t


@dataclass(frozen=True)
class EmailState:
    config: email_channel.SmtpConfig | None  # None: e-mail is not set up
    password_saved: bool
    password_from_environment: bool
    keyring_problem: Text | str | None
    held_since: dt.datetime | None  # the server refused the login; sending waits for a change
    webhook_url: str | None
    manager_email: str | None
    manager_line_user_id: str | None = None  # where a nudge about a reminder not acknowledged goes on LINE


def email_state(db: Database) -> EmailState:
    saved, problem = False, None
    try:
        saved = bool(secrets.get_secret(email_channel.PASSWORD_SECRET, env=email_channel.PASSWORD_ENV))
    except secrets.SecretStoreError as exc:
        problem = exc.text  # rendered where it is shown, in the reader's language
    with db.read() as session:
        config = email_channel.config_from_settings(session)
        hold = keys.SMTP_HOLD.read(session)
        webhook_url = keys.ALERTS_WEBHOOK_URL.read(session)
        manager = keys.ALERTS_EMAIL.read(session)
        manager_line = keys.ALERTS_LINE_USER_ID.read(session)
    return EmailState(config, saved, bool(os.environ.get(email_channel.PASSWORD_ENV, "").strip()), problem,
                      hold.since if hold is not None else None, webhook_url, manager, manager_line)


def save_email_settings(db: Database, *, host: str, port: int | None, security: str, user: str | None,
                        from_address: str, from_name: str | None = None, ca_file: str | None = None) -> None:
    """Check everything first (the same rules the sender applies), then save it all at once."""
    checked_from = ids.email(from_address)
    if not host.strip() or checked_from is None:
        raise ValidationError(t("setup.email.enter_server"))
    security = security.strip().lower()
    config = email_channel.SmtpConfig(host.strip(), port or email_channel.DEFAULT_PORTS.get(security, 587), security,
                                      (user or "").strip() or None, checked_from, (from_name or "").strip() or None,
                                      (ca_file or "").strip() or None)
    if config.ca_file and not os.path.isfile(config.ca_file):
        raise ValidationError(t("setup.email.no_ca_file", path=config.ca_file))
    with db.write() as session:
        keys.SMTP_HOST.write(session, config.host)
        keys.SMTP_PORT.write(session, config.port)
        keys.SMTP_SECURITY.write(session, config.security)
        keys.SMTP_USER.write(session, config.user)
        keys.SMTP_FROM.write(session, config.from_address)
        keys.SMTP_FROM_NAME.write(session, config.from_name)
        keys.SMTP_CA_FILE.write(session, config.ca_file)


def save_password(password: str) -> None:
    """Into the keyring only. The sender notices the change itself and lifts a hold."""
    if not password.strip():
        raise ValidationError(t("setup.email.enter_password"))
    email_channel.set_smtp_password(password)


def check_login(db: Database) -> None:
    """Connect and log in once with the saved settings and password; raises with the server's reason."""
    access = email_channel.access_from_settings(db)
    if access is None:
        raise ValidationError(t("setup.email.set_up_first"))
    access.mailer.check()


def save_alert_targets(db: Database, *, webhook_url: str | None, manager_email: str | None,
                       manager_line_user_id: str | None = None) -> None:
    """`manager_line_user_id` None: left as it is; empty: removed."""
    checked_url = webhook.check_url(webhook_url)
    checked_email = ids.email(manager_email)
    with db.write() as session:
        keys.ALERTS_WEBHOOK_URL.write(session, checked_url)
        keys.ALERTS_EMAIL.write(session, checked_email)
        if manager_line_user_id is not None:
            keys.ALERTS_LINE_USER_ID.write(session, manager_line_user_id.strip() or None)
