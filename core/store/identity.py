"""Who this database is, which computer is sending from it, and the retry keys both make.

- The database identity is a random UUID made once, when the database is created (migration 0005,
  which also gives existing databases theirs). It lives in the database file, so every copy of a
  data folder — a restored backup, a folder copied to a new computer — carries the same one.
- A retry key is derived, not drawn: UUIDv5 in the database identity's namespace over what is sent
  — the delivery's dedup key (message kind, subject, its version, and the channel when not LINE),
  the uid of its subject's row (the shift or publication), the recipient and the delivery's key
  generation — never the delivery's id, which is only its place in one copy's outbox. Two copies of
  one folder, or two senders in two places, that send the same message present the same
  X-Line-Retry-Key, and LINE accepts only the first, even when the copies planned it under different
  delivery ids. A row that already has a key (one derived by an earlier rule) keeps it: a retry must
  present the key its first request had. A manual retry after a key expired derives the next
  generation's key (core/outbox/deliveries.py).
- The subject's uid is drawn when its row is made and travels with the folder. The dedup key names
  the subject by its row id, and copies that went their own way after the copy can each make a new
  shift (or publication) under the same id, version and teacher: without the uid the two different
  messages would share a key, and within LINE's day the second would be refused as a repeat and
  never reach its teacher.
- No digest of the request is in the key. It would tell apart requests that are one message: the
  了解 button's postback data carries the delivery id, and a publication's image links are signed
  as of its first send, so two copies would derive two keys and the teachers would get it twice.
- The machine identity is a random UUID kept outside the data folder, in the user's configuration
  folder, so a copied data folder does not carry it. Each sender stamps it (with the host name, for
  people to read) into the database with the time it last sent, so a database that was recently sent
  from by another computer can say so (core/alerts.py). docs/reliability.md says what this can and
  cannot detect.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import logging
import os
import socket
import uuid
from dataclasses import dataclass
from pathlib import Path

import platformdirs
from sqlalchemy import case, select, update
from sqlalchemy.orm import Session

from core.store.db import insert_unless_exists
from core.store.models import DatabaseIdentity, SendingMachine

log = logging.getLogger(__name__)

APP_NAME = "Shiftcast"
MACHINE_FILE = "machine-id"
# A sender writes its stamp at most this often: one small UPDATE a minute, not one per turn.
STAMP_EVERY = dt.timedelta(minutes=1)


# ----- retry keys (pure) -----


def retry_key(database: str, dedup_key: str, subject: str | None, recipient: str | tuple[str, ...],
              generation: int) -> str:
    """The `generation`-th retry key of the message `dedup_key` names about the row whose uid is
    `subject` (None: a message about no such row), to `recipient` (a user or group ID, or a
    multicast's IDs): the same wherever the same database sends that message."""
    to = recipient if isinstance(recipient, str) else ",".join(sorted(recipient))
    # A JSON list, not joined text: a dedup key may hold any character, and no two lists encode alike.
    name = json.dumps(["message", dedup_key, subject, to, generation], ensure_ascii=False, separators=(",", ":"))
    return str(uuid.uuid5(uuid.UUID(database), name))


# ----- the database's identity -----


def database_identity(session: Session) -> str:
    """This database's identity; made now only for a database created without the migrations
    (tests' metadata.create_all), since migration 0005 makes it for every other one."""
    found = session.scalar(select(DatabaseIdentity.identity).where(DatabaseIdentity.id == 1))
    if found is not None:
        return found
    insert_unless_exists(session, DatabaseIdentity.__table__,
                         {"id": 1, "identity": str(uuid.uuid4()), "created_at": dt.datetime.now(dt.UTC)},
                         unique=["id"])
    made = session.scalar(select(DatabaseIdentity.identity).where(DatabaseIdentity.id == 1))
    assert made is not None
    return made


# ----- the machine's identity -----


@dataclass(frozen=True)
class Machine:
    machine_id: str
    host: str


def machine_file() -> Path:
    """Where this user's machine identity is kept: the configuration folder, never the data folder."""
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False, roaming=False)) / MACHINE_FILE


def load_machine(path: Path) -> Machine | None:
    """The identity kept at `path`, made there if there is none. None if it can be neither read nor
    written: a sender then sends as before and only the check for other computers is skipped."""
    host = socket.gethostname() or "?"
    unusable = False
    try:
        text = path.read_text(encoding="ascii").strip()
        return Machine(str(uuid.UUID(text)), host)
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as exc:
        log.warning("the machine identity in %s is unusable (%s); making a new one", path, exc)
        unusable = True
    made = str(uuid.uuid4())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}")
        temporary.write_text(made + "\n", encoding="ascii")
        try:
            if unusable:
                os.replace(temporary, path)
            else:
                # Linked into place, never replaced: when two processes start at once, the first
                # one's identity wins and the other reads it, so both are the same computer.
                os.link(temporary, path)
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links
            if not path.exists():
                os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)
        return Machine(str(uuid.UUID(path.read_text(encoding="ascii").strip())), host)
    except (OSError, ValueError) as exc:
        log.warning("cannot keep a machine identity in %s (%s); other computers sending from this data "
                    "folder will not be noticed", path, exc)
        return None


def this_machine() -> Machine | None:
    """This user's machine identity, read once per process (and per configuration folder, which
    only changes under tests)."""
    return _machine_at(machine_file())


@functools.lru_cache(maxsize=4)
def _machine_at(path: Path) -> Machine | None:
    return load_machine(path)


# ----- stamps -----


def stamp(session: Session, machine: Machine, *, now: dt.datetime) -> None:
    """Record that `machine` sends from this database now. An insert that skips an existing row, then
    an update: two senders of one computer stamping at once (on PostgreSQL they do not queue on a
    file lock) never fail on the primary key after LINE has already accepted their messages."""
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert  # type: ignore[assignment]
    host = machine.host[:255]
    session.execute(insert(SendingMachine).values(machine_id=machine.machine_id, host=host, first_sent_at=now,
                                                  last_sent_at=now).on_conflict_do_nothing(index_elements=["machine_id"]))
    session.execute(update(SendingMachine).where(SendingMachine.machine_id == machine.machine_id)
                    .values(host=host, last_sent_at=case((SendingMachine.last_sent_at < now, now),
                                                         else_=SendingMachine.last_sent_at)))
    session.flush()


def others_since(session: Session, machine: Machine | None, since: dt.datetime) -> list[SendingMachine]:
    """Other computers that sent from this database at or after `since`, the latest first.

    Only a database file can be copied to another computer; a server (PostgreSQL) is shared by every
    computer that sends from it by design (core/sending/presence.py lists them), so there it is none."""
    if machine is None or session.get_bind().dialect.name != "sqlite":
        return []
    return list(session.scalars(select(SendingMachine).where(
        SendingMachine.machine_id != machine.machine_id, SendingMachine.last_sent_at >= since,
    ).order_by(SendingMachine.last_sent_at.desc())))
