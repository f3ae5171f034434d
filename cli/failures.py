"""How the command line ends a verb that did not go as planned: one line on stderr in the manager's
words, never a traceback. A disk or folder problem names the file and the cause, a log that could not
be written is said once, and a reader that closed the pipe (`| head`) ends the run quietly."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cli import words
from cli.verbs import EXIT_FAILED, file_only
from core.errors import DatabaseError, ShiftcastError
from core.texts import t
from core.texts.message import logged

if TYPE_CHECKING:
    from core.store.paths import DataPaths

log = logging.getLogger(__name__)


def known(exc: ShiftcastError, args: argparse.Namespace, paths: DataPaths | None) -> int:
    """An error a verb raised on purpose, or a database that could not be opened or upgraded."""
    from core.store.db import storage_problem

    # A database that could not be opened or upgraded names the disk's own trouble when it is one.
    storage = storage_problem(exc, database=_database_file(paths)) if isinstance(exc, DatabaseError) else None
    text = storage or exc.text
    # The log keeps English and the code, for a support request; the manager reads their language.
    log.info("%s failed: %s", args.command, logged(text), extra=file_only())
    print(f"shiftcast: {words.say(text)}", file=sys.stderr)
    return EXIT_FAILED


def unexpected(exc: Exception, args: argparse.Namespace, paths: DataPaths | None, log_file: Path | None) -> int:
    """An error no verb expected: storage the manager must fix in its own words, anything else briefly."""
    from core.store.db import storage_problem

    problem = storage_problem(exc, database=_database_file(paths))
    if problem is not None:
        log.error("%s: %s", args.command, logged(problem), exc_info=exc, extra=file_only())
        print(f"shiftcast: {words.say(problem)}", file=sys.stderr)
        return EXIT_FAILED
    log.error("unexpected error in %s", args.command, exc_info=exc)
    where = t("cli.details_in", path=str(log_file)) if log_file else ""
    print("shiftcast: " + words.line("cli.unexpected", kind=exc.__class__.__name__, where=where), file=sys.stderr)
    return EXIT_FAILED


def say_log_failure() -> None:
    """A verb that did its work while its log file could not be written says so, once, in one line."""
    from core.logs import write_failure
    from core.store.data_folder import folder_problem

    failure = write_failure()
    if failure is not None:
        print(f"shiftcast: {words.say(folder_problem(t('word.log_file'), *failure))}", file=sys.stderr)


def _database_file(paths: DataPaths | None) -> str | None:
    from core.store.db import sqlite_file_of

    database = sqlite_file_of(paths.database_url()) if paths is not None else None
    if database and database.startswith("file:"):  # a URI filename: show the file, not its options
        database = database.removeprefix("file:").partition("?")[0]
    return database


def stdout_reader_gone() -> bool:
    """Whether standard output is a pipe whose reader has closed it."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except AttributeError:  # no poll() (Windows): a broken pipe there is almost always stdout's
        return True
    except (OSError, ValueError):  # no file descriptor behind stdout
        return False


def stdout_to_devnull() -> None:
    """Later writes, the interpreter's own flush at exit too, go nowhere instead of raising again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real file descriptor behind stdout (a test's capture)
        pass
