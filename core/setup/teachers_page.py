"""The teachers' page's settings, as the window and the command line read and change them: the LINE
Login channel (whose ID tokens the relay checks) and its LIFF app, and the manager's opt-in to hand the
relay the page's data. Bad input changes nothing and says why in the manager's language.

LINE gives one person a different user ID under each provider, so the LINE Login channel must sit
under the provider of the Messaging API channel; the one thing checkable here is that its ID is not the
Messaging API channel's own. A LIFF ID starts with its LINE Login channel's ID, so a LIFF app added to
another channel is caught too.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import ValidationError
from core.store import setting_keys as keys
from core.store.db import Database
from core.texts import t

ENDPOINT_PATH = "/liff/"
LIFF_URL = "https://liff.line.me/"


@dataclass(frozen=True)
class PageSettings:
    login_channel_id: str | None
    liff_id: str | None
    enabled: bool  # the manager's opt-in
    relay_url: str | None  # the attached relay's address; None: none attached

    @property
    def endpoint(self) -> str | None:
        """The LIFF app's endpoint URL to enter in LINE Developers Console; None without a relay."""
        return self.relay_url.rstrip("/") + ENDPOINT_PATH if self.relay_url else None

    @property
    def has_ids(self) -> bool:
        return bool(self.login_channel_id and self.liff_id)

    @property
    def ready(self) -> bool:
        """As core/pages/status.py decides it: on, both IDs, a relay."""
        return self.enabled and self.has_ids and self.relay_url is not None


def read(db: Database) -> PageSettings:
    with db.read() as session:
        return PageSettings(keys.LINE_LOGIN_CHANNEL_ID.read(session), keys.LIFF_ID.read(session),
                            keys.PAGES_ENABLED.read(session), keys.RELAY_URL.read(session))


def checked_ids(login_channel_id: str, liff_id: str, *, messaging_channel_id: str | None) -> tuple[str | None, str | None]:
    """Both IDs as they will be kept (both None: cleared), or ValidationError saying what is wrong (pure)."""
    channel = keys.LINE_LOGIN_CHANNEL_ID.check(login_channel_id)
    app = keys.LIFF_ID.check(liff_id.strip().removeprefix(LIFF_URL))  # the console shows the LIFF URL beside it
    if (channel is None) != (app is None):
        raise ValidationError(t("teachers_page.both_ids"))
    if channel is None or app is None:
        return None, None
    if messaging_channel_id is not None and channel == messaging_channel_id.strip():
        raise ValidationError(t("teachers_page.messaging_channel", channel=channel))
    owner = app.split("-", 1)[0]
    if owner != channel:
        raise ValidationError(t("teachers_page.other_channel", liff_id=app, owner=owner, channel=channel))
    return channel, app


def save(db: Database, *, login_channel_id: str, liff_id: str, enabled: bool) -> PageSettings:
    """Keep both IDs and the opt-in together; turning the page on needs both IDs (a relay may come later:
    the readiness check says so meanwhile)."""
    with db.write() as session:
        channel, app = checked_ids(login_channel_id, liff_id, messaging_channel_id=keys.LINE_CHANNEL_ID.read(session))
        if enabled and channel is None:
            raise ValidationError(t("teachers_page.needs_ids"))
        keys.LINE_LOGIN_CHANNEL_ID.write(session, channel)
        keys.LIFF_ID.write(session, app)
        keys.PAGES_ENABLED.write(session, enabled)
    return read(db)


def set_enabled(db: Database, enabled: bool) -> PageSettings:
    """Turn the page on (both IDs saved first) or off, the IDs kept."""
    with db.write() as session:
        if enabled and not (keys.LINE_LOGIN_CHANNEL_ID.read(session) and keys.LIFF_ID.read(session)):
            raise ValidationError(t("teachers_page.needs_ids"))
        keys.PAGES_ENABLED.write(session, enabled)
    return read(db)
