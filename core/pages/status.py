"""Whether the teachers' page is ready: the manager turned it on, its LINE Login channel and LIFF app are
known, and a relay is attached to serve it (its address is in the settings: core/relay/settings.py).
Messages carry the page's buttons only then, so a half-set page never sends a teacher to a dead link."""

from __future__ import annotations

from sqlalchemy.orm import Session

from core.store import setting_keys as keys


def ready_liff_id(session: Session) -> str | None:
    """The LIFF ID the buttons open while the page is ready; None otherwise."""
    if not keys.PAGES_ENABLED.read(session) or not keys.LINE_LOGIN_CHANNEL_ID.read(session):
        return None
    if keys.RELAY_URL.read(session) is None:
        return None
    return keys.LIFF_ID.read(session)


def page_ready(session: Session) -> bool:
    return ready_liff_id(session) is not None
