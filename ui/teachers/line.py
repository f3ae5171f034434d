"""Asking LINE about teachers: check one user ID, list the account's friends, and say in plain words
why LINE refused. The functions run on a pool thread (they do network I/O); the texts are for the UI.

Why this matters: a teacher cannot see their own LINE user ID anywhere in the LINE app, so the
manager needs Shiftcast to find it, or to explain the other ways when LINE will not list friends.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from core.channels.line import LineApiError, LineClient, access_from_settings
from core.errors import ShiftcastError
from core.store.db import Database


class LineNotConnected(ShiftcastError):
    """No channel access token has been saved yet."""


@dataclass(frozen=True)
class Friend:
    user_id: str
    display_name: str


@contextmanager
def line_client(db: Database) -> Iterator[LineClient]:
    access = access_from_settings(db)
    if access is None:
        raise LineNotConnected(QCoreApplication.translate(
            "TeacherLine", "Shiftcast is not connected to LINE yet: add the channel access token in Settings."))
    try:
        yield access.client
    finally:
        access.client.close()


def display_name(db: Database, user_id: str) -> str:
    """The LINE display name of a user who is a friend of the account (pool thread)."""
    with line_client(db) as client:
        return str(client.profile(user_id.strip()).get("displayName") or "")


def friend_ids(db: Database) -> list[str]:
    """Every friend's user ID; LINE answers 403 unless the account is verified or premium (pool thread)."""
    with line_client(db) as client:
        return client.follower_ids()


def friend_profiles(db: Database, user_ids: Sequence[str]) -> list[Friend]:
    """Display names of some friends; those who blocked the account since (404) are left out (pool thread)."""
    friends = []
    with line_client(db) as client:
        for user_id in user_ids:
            try:
                profile = client.profile(user_id)
            except LineApiError as exc:
                if exc.status == 404:
                    continue
                raise
            friends.append(Friend(user_id, str(profile.get("displayName") or user_id)))
    return friends


def explain(exc: BaseException) -> str | None:
    """LINE's refusals in the manager's words; None for anything else (shown the usual way)."""
    if isinstance(exc, LineNotConnected):
        return str(exc)
    if not isinstance(exc, LineApiError):
        return None
    if exc.status == 404:
        return QCoreApplication.translate(
            "TeacherLine", "LINE does not know this user as a friend of the account. The ID may be mistyped, "
            "or the teacher has not added the account as a friend (or has blocked it).")
    if exc.status == 400:
        return QCoreApplication.translate(
            "TeacherLine", "LINE says this is not a valid user ID. A LINE user ID is U followed by 32 hex "
            "digits; it is not the LINE ID people search for.")
    if exc.status == 401:
        return QCoreApplication.translate("TeacherLine", "LINE refused the channel access token. Check it in Settings.")
    if exc.status == 403:
        return friends_forbidden_text()
    if exc.status is None:
        return QCoreApplication.translate("TeacherLine", "Could not reach LINE. Check the connection and try again.")
    return None


def friends_forbidden_text() -> str:
    return QCoreApplication.translate(
        "TeacherLine",
        "LINE lets only verified and premium accounts list their friends, so Shiftcast cannot show them "
        "for this account.\n\n"
        "Other ways to get a teacher's LINE user ID:\n"
        "• Ask the teacher to send any message to the account, then read their user ID from the webhook "
        "log of the account's Messaging API channel.\n"
        "• Use LINE Login: when the teacher logs in through a LINE Login channel linked to the account, "
        "their user ID is shown.\n"
        "• Add the teacher to the classroom's LINE group together with the account; their user ID then "
        "appears in the group's member events.\n\n"
        "Teachers without a LINE user ID can still be reached by e-mail: enter their address and tick "
        "e-mail notifications."
    )
