"""What Settings, set-up and the readiness check ask of LINE WORKS, as plain blocking functions (run
them on a background thread).

LINE WORKS is reached with an app's service account (client ID and secret, the service account and
its private key) and a bot (its ID and secret), all kept by core/channels/line_works_credentials.py:
the secrets in the keyring, the rest in the settings, each checked there. Here they are saved as a
manager types them (`save`: a secret left blank keeps the saved one; the key file's PEM, never its
path), tested (`test`: LINE WORKS is asked for an access token, and the answer kept, so
the readiness check and `shiftcast doctor` can say it offline), and read back without their secrets
(`state`). `facts` is what the readiness check reads; it goes through the channel's driver only, so it
costs nothing while LINE WORKS is not used.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from sqlalchemy import select

from core.channels import line_works_credentials as credentials
from core.channels import registry
from core.channels.net import short
from core.errors import ValidationError
from core.roster import membership, rooms
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Classroom, Teacher, TeacherContact
from core.texts import Text, t
from core.texts.message import dumps, loads

log = logging.getLogger(__name__)

KEY = "line_works"  # the channel's key (core/channels/line_works.py)
MAX_KEY_FILE = 64 * 1024  # a PEM private key is a few kilobytes; anything much larger is another file
_PEM = re.compile(r"-----BEGIN ([A-Z ]*)PRIVATE KEY-----.+?-----END \1PRIVATE KEY-----", re.DOTALL)

# Asks LINE WORKS once with the credentials saved; raises with the refusal in the manager's words (its `text`).
Checker = Callable[[], None]


class Status(StrEnum):
    NOT_SET_UP = "not_set_up"
    KEYRING = "keyring"  # saved, but the keyring cannot be read now
    SET_UP = "set_up"  # saved, not tested since
    TESTED = "tested"  # the last test obtained a token
    TEST_FAILED = "test_failed"
    REFUSED = "refused"  # LINE WORKS refused these credentials when sending: its messages wait


@dataclass(frozen=True)
class LastTest:
    at: dt.datetime
    why: Text | str | None  # None: LINE WORKS gave a token


@dataclass(frozen=True)
class Saved:
    """What is saved, without its secrets: what the Settings form shows again."""

    client_id: str
    service_account: str
    bot_id: str
    domain_id: str | None


@dataclass(frozen=True)
class WorksState:
    saved: Saved | None  # None: not set up (or the keyring cannot be read)
    keyring_problem: Text | str | None
    last_test: LastTest | None
    refused: bool  # the channel is held: LINE WORKS refused its credentials when sending
    refused_since: dt.datetime | None

    @property
    def status(self) -> Status:
        return status(set_up=self.saved is not None, keyring_problem=self.keyring_problem,
                      last_test=self.last_test, refused=self.refused)

    @property
    def says(self) -> Text:
        return says(self.status, self.last_test, self.refused_since, self.keyring_problem)


def status(*, set_up: bool, keyring_problem: Text | str | None, last_test: LastTest | None, refused: bool) -> Status:
    """Which state LINE WORKS is in (pure): the keyring first, then a refusal, then the last test."""
    if keyring_problem is not None:
        return Status.KEYRING
    if not set_up:
        return Status.NOT_SET_UP
    if refused:
        return Status.REFUSED
    if last_test is None:
        return Status.SET_UP
    return Status.TESTED if last_test.why is None else Status.TEST_FAILED


def says(state: Status, last_test: LastTest | None, refused_since: dt.datetime | None,
         keyring_problem: Text | str | None = None) -> Text:
    """The state in one sentence (pure)."""
    if state is Status.KEYRING:
        return t("readiness.keyring.broken", detail=keyring_problem or "")
    if state is Status.REFUSED:
        return (t("line_works.state.refused_since", since=refused_since.astimezone()) if refused_since is not None
                else t("line_works.state.refused"))
    if state is Status.TESTED and last_test is not None:
        return t("line_works.state.tested", at=last_test.at.astimezone())
    if state is Status.TEST_FAILED and last_test is not None and last_test.why is not None:
        return t("line_works.state.test_failed", at=last_test.at.astimezone(), why=last_test.why)
    if state is Status.SET_UP:
        return t("line_works.state.set_up")
    return t("line_works.state.not_set_up")


# ----- the last test, kept so an offline check can say it -----


def last_test(db: Database) -> LastTest | None:
    with db.read() as session:
        stored = keys.LINE_WORKS_LAST_TEST.read(session)
    return _parse_test(stored)


def _parse_test(stored: str | None) -> LastTest | None:
    """A hand-edited value reads as no test: the manager tests again."""
    try:
        data = json.loads(stored) if stored else None
        if not isinstance(data, dict):
            return None
        at = dt.datetime.fromisoformat(data["at"])
        why = data.get("why")
        return LastTest(at, loads(why) if isinstance(why, str) else None) if at.tzinfo is not None else None
    except (ValueError, TypeError, KeyError):
        return None


def _record_test(db: Database, outcome: LastTest | None) -> None:
    stored = None if outcome is None else json.dumps(
        {"at": outcome.at.isoformat(), "why": dumps(outcome.why) if outcome.why is not None else None},
        ensure_ascii=False)
    with db.write() as session:
        keys.LINE_WORKS_LAST_TEST.write(session, stored)


def test(db: Database, checker: Checker, *, now: dt.datetime) -> LastTest:
    """Ask LINE WORKS for a token with what is saved, keep the answer and return it; `says_test` words it."""
    try:
        checker()
    except Exception as exc:  # whatever stops the test is the answer; the log keeps the rest
        log.info("LINE WORKS test failed", exc_info=True)
        said = getattr(exc, "text", None)
        outcome = LastTest(now, said if isinstance(said, Text | str) and str(said) else t("text.plain", text=short(exc)))
    else:
        outcome = LastTest(now, None)
    _record_test(db, outcome)
    return outcome


def says_test(outcome: LastTest) -> Text:
    """A test's answer in the manager's words (pure)."""
    return t("line_works.test.ok") if outcome.why is None else t("line_works.test.failed", why=outcome.why)


def client_checker(db: Database) -> Checker:
    """The real test: the channel asks LINE WORKS for an access token with the credentials saved, at
    the configured addresses."""

    def check() -> None:
        saved = credentials.load(db)
        if saved is None:
            raise ValidationError(t("line_works.test.not_set_up"))
        credentials.check(saved, base_urls=credentials.base_urls(db))

    return check


# ----- saving and reading back -----


def read_private_key(path: str | Path) -> str:
    """The PEM text of a private key file (what is saved: the key itself, never its path)."""
    file = Path(path)
    try:
        with file.open("rb") as opened:
            data = opened.read(MAX_KEY_FILE + 1)
    except OSError as exc:
        raise ValidationError(t("line_works.key.unreadable", path=str(file), detail=short(exc))) from None
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise ValidationError(t("line_works.key.not_pem", path=str(file))) from None
    if len(data) > MAX_KEY_FILE or (found := _PEM.search(text)) is None:
        raise ValidationError(t("line_works.key.not_pem", path=str(file)))
    return found.group(0) + "\n"


def save(db: Database, *, client_id: str, client_secret: str | None, service_account: str,
         private_key: str | None, bot_id: str, bot_secret: str | None, domain_id: str | None = None) -> None:
    """Save the values as typed, the channel's credentials checking every one first (bad input saves
    nothing). A secret or key left blank (None or empty) keeps the one saved before. Forgets the last test."""
    typed = {"client_secret": (client_secret or "").strip(),
             "private_key": private_key if (private_key or "").strip() else "", "bot_secret": (bot_secret or "").strip()}
    before = credentials.load(db) if not all(typed.values()) else None
    kept = {name: value or (getattr(before, name) if before is not None else "") for name, value in typed.items()}
    credentials.save(db, credentials.WorksCredentials(client_id, kept["client_secret"], service_account,
                                                      kept["private_key"], bot_id, kept["bot_secret"],
                                                      (domain_id or "").strip() or None))
    _record_test(db, None)


def state(db: Database) -> WorksState | None:
    """What is saved (without its secrets), the last test and whether sending is held, offline; None
    while the channel is not part of Shiftcast."""
    if not registry.registered(KEY):
        return None
    saved, problem = None, None
    try:
        found = credentials.load(db)
    except secrets.SecretStoreError as exc:
        problem = exc.text
    else:
        if found is not None:
            saved = Saved(found.client_id, found.service_account, found.bot_id, found.domain_id)
    now = facts(db)
    return WorksState(saved, problem, last_test(db), bool(now and now.refused), now.refused_since if now else None)


# ----- what the readiness check reads -----


@dataclass(frozen=True)
class WorksFacts:
    set_up: bool  # the driver connects: the credentials are saved and readable
    keyring_problem: Text | str | None
    last_test: LastTest | None
    refused: bool  # LINE WORKS refused the saved credentials when sending: its messages wait
    refused_since: dt.datetime | None
    teachers: int  # active teachers with a LINE WORKS ID
    # Classrooms with a teacher on LINE WORKS but no LINE WORKS channel for their month, by name.
    without_channel: tuple[str, ...] = ()
    with_channel: int = 0  # classrooms that have one

    @property
    def used(self) -> bool:
        """Whether the manager uses LINE WORKS at all: otherwise the readiness check says nothing of it."""
        return self.set_up or self.keyring_problem is not None or self.teachers > 0 or self.with_channel > 0


def facts(db: Database) -> WorksFacts | None:
    """What the readiness check needs of LINE WORKS, offline; None while the channel is not part of Shiftcast."""
    if not registry.registered(KEY):
        return None
    driver = registry.driver(KEY)
    fingerprint, problem = None, None
    try:
        connection = driver.connect(db)
    except secrets.SecretStoreError as exc:
        connection, problem = None, exc.text
    if connection is not None:
        fingerprint = connection.fingerprint
        connection.close()
    with db.read() as session:
        hold = driver.hold_key.read(session) if driver.hold_key is not None else None
        on_works = set(session.scalars(select(Teacher.id).join(TeacherContact).where(
            Teacher.active.is_(True), Teacher.erased_at.is_(None), TeacherContact.channel == KEY,
            TeacherContact.address.is_not(None), TeacherContact.address != "")))
        by_teacher = membership.ids_by_teacher(session)
        everywhere = any(teacher not in by_teacher for teacher in on_works)  # a teacher of no classroom is everyone's
        needed = {room for teacher in on_works for room in by_teacher.get(teacher, ())}
        with_channel = rooms.with_rooms(session, KEY)
        without = tuple(name for room_id, name in session.execute(select(Classroom.id, Classroom.name)
                                                                  .order_by(Classroom.name))
                        if (everywhere or room_id in needed) and room_id not in with_channel)
        stored = keys.LINE_WORKS_LAST_TEST.read(session)
    # A hold for other credentials than the saved ones is lifted by the sender's next try (core/outbox/holds.py).
    refused = hold is not None and fingerprint is not None and hold.fingerprint == fingerprint
    return WorksFacts(connection is not None, problem, _parse_test(stored), refused,
                      hold.since if refused and hold is not None else None, len(on_works), without, len(with_channel))
