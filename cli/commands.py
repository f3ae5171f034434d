"""Command line: the parser put together from the topic modules' sub-commands, and the run of a verb.

main.py parses with `parse_args`; screen modes are handed to ui/, every other verb runs here. Each
group of verbs is a topic module (cli/verbs.py says what one gives); a new verb is added there.
Bad input ends with a one-line message and a non-zero exit, never a traceback (cli/failures.py).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from cli import (
    alerts,
    availability,
    calendar,
    closed_days,
    cover,
    credentials,
    deliveries,
    dependencies,
    doctor,
    draft,
    emulator,
    failures,
    fill,
    hours,
    lesson_slots,
    line,
    line_works,
    needs,
    patterns,
    planning,
    publish,
    relay,
    roster,
    screens,
    sending,
    webhook,
    words,
)
from cli.verbs import EXIT_USAGE, Topic, UsageError, Verb
from core.errors import ShiftcastError
from core.startup import resume_collector
from core.texts import t
from core.texts.formats import LANGUAGES
from core.texts.message import shortened
from core.version import __version__

# `--version`, `--help` and a usage error end before any verb runs, so the parser (and every topic
# module) imports nothing beyond the standard library and the texts; each verb imports its own core
# when it runs.
if TYPE_CHECKING:
    from core.store.data_folder import OpenedFolder
    from core.store.db import Database
    from core.store.paths import DataPaths

__all__ = ["COMMANDS", "SCREEN_MODES", "UsageError", "build_parser", "fail_usage", "parse_args", "run"]

# In the order `--help` lists them.
TOPICS: tuple[Topic, ...] = (screens, doctor, roster, closed_days, fill, patterns, lesson_slots, needs, cover, hours, draft,
                             sending, deliveries, credentials, line, line_works, alerts, planning, publish, availability, emulator,
                             webhook, relay, calendar)
SCREEN_MODES = screens.SCREEN_MODES
COMMANDS: dict[str, Verb] = {name: verb for topic in TOPICS for name, verb in topic.COMMANDS.items()}
# Verbs that touch only the roster and the keyring: they never meet a message kind, so they do not
# pay for loading the kinds (and with them the channels' HTTP clients) at start-up.
ROSTER_ONLY = frozenset(roster.COMMANDS) | frozenset(closed_days.COMMANDS) | frozenset(fill.COMMANDS) | frozenset(
    patterns.COMMANDS) | frozenset(lesson_slots.COMMANDS) | frozenset(needs.COMMANDS) | frozenset(hours.COMMANDS) | frozenset(credentials.COMMANDS) | frozenset(
    calendar.COMMANDS)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", words.HelpFormatter)  # sub-commands' help in the run's language too
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(t("cli.usage", message=message))

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # argparse writes a refused choice into its sentence itself: shortened first, as every value is.
        super()._check_value(action, shortened(value, words.current()) if isinstance(value, str) else value)


LANG_HELP = "the language of this run's messages and help: ja or en (default: the app's setting, else the system's)"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="shiftcast", description="Shift rosters published and reminded over LINE.")
    parser.add_argument("--version", action="version", version=f"Shiftcast {__version__}")
    parser.add_argument("--lang", choices=LANGUAGES, help=LANG_HELP)
    parser.add_argument("--home", type=Path, help="data folder (default: the platform's user data folder)")
    parser.add_argument("--smoke", action="store_true",
                        help="start the whole window, print one JSON line with the start-up time, and exit")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for topic in TOPICS:
        topic.add_parsers(sub)
    # `shiftcast import --lang en …` as well as `shiftcast --lang en import …`; an alias shares its verb's parser.
    for verb in _verb_parsers(sub):
        verb.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=LANG_HELP)
    return parser


def _verb_parsers(sub: argparse._SubParsersAction[Any]) -> list[argparse.ArgumentParser]:
    """Every verb's parser once, and the parsers of a verb's own sub-commands (`teachers move`)."""
    found = list({id(p): p for p in sub.choices.values()}.values())
    for verb in list(found):
        for action in verb._actions:
            if isinstance(action, argparse._SubParsersAction):
                found += _verb_parsers(action)
    return found


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    argv = list(sys.argv[1:] if argv is None else argv)
    with words.argparse_in(words.start(argv)):
        return build_parser().parse_args(argv)


def run(args: argparse.Namespace, *, paths: DataPaths | None = None) -> int:
    """Run a non-screen verb. Errors meant for the user become one line on stderr."""
    log_file: Path | None = None
    try:
        # Creating the data folder and opening the log are inside the error handling: an unwritable
        # folder or log file is the manager's problem to fix, told in one line, not a traceback.
        opened = _open_data_folder(args, paths)
        paths, log_file = opened.paths, opened.log_file
        if args.command in emulator.NO_DATABASE:
            resume_collector()
            code = emulator.NO_DATABASE[args.command](None, args, paths)
        elif draft.without_database(args):
            resume_collector()
            code = draft.cmd_problem(None, args, paths)
        else:
            code = _run_with_database(args, paths, read_only=opened.read_only)
        sys.stdout.flush()  # a closed pipe shows here for output still in the buffer
        if code == 0:
            failures.say_log_failure()
        if opened.warning is not None:  # after the verb's own words; a refused change already named the folder
            print(f"shiftcast: {words.say(opened.warning)}", file=sys.stderr)
        return code
    except BrokenPipeError as exc:
        if not failures.stdout_reader_gone():  # a socket's broken pipe (a mail server hanging up) is a real error
            return failures.unexpected(exc, args, paths, log_file)
        # The reader (`| head`) has all it wanted: end quietly, as Unix tools do.
        failures.stdout_to_devnull()
        return 0
    except ShiftcastError as exc:
        return failures.known(exc, args, paths)
    except ModuleNotFoundError as exc:
        missing = dependencies.missing_library(exc)
        if missing is None:
            return failures.unexpected(exc, args, paths, log_file)
        return dependencies.report(missing)
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, never a traceback
        return failures.unexpected(exc, args, paths, log_file)


def _run_with_database(args: argparse.Namespace, paths: DataPaths, *, read_only: bool = False) -> int:
    if not read_only:
        return _with_database(args, paths, None)
    from core.store.data_folder import StorageError, read_only_url
    from core.store.db import storage_problem

    try:  # a read-only data folder: reading works; a change is refused in words naming the folder
        return _with_database(args, paths, read_only_url(paths))
    except Exception as exc:
        problem = storage_problem(exc)
        if problem is None or problem.code not in ("storage.read_only", "storage.cannot_open", "storage.not_writable"):
            raise
        raise StorageError(t("cli.data_folder_read_only", path=str(paths.home))) from exc


def _with_database(args: argparse.Namespace, paths: DataPaths, url: str | None) -> int:
    from core.store.bootstrap import open_database  # SQLAlchemy: only for the verbs that need it

    db = open_database(paths, url=url)
    if args.command not in ROSTER_ONLY:
        import core.relay.images  # registers the relay as a host for the month's pictures
        import core.sending.kinds  # noqa: F401 - registers the message kinds every verb on the outbox may meet
    try:
        _settle_language(db, getattr(args, "lang", None))
        if args.command not in sending.END_START_UP_THEMSELVES:
            resume_collector()  # start-up is over; the verb may run long or build much
        return COMMANDS[args.command](db, args, paths)
    finally:
        db.dispose()


def _open_data_folder(args: argparse.Namespace, paths: DataPaths | None) -> OpenedFolder:
    from core.store.data_folder import open_for_reading

    # The sender that runs until stopped tells its progress on the terminal; every other verb, `sender
    # --until-idle` too, prints only its own result there, and its log lines go to the log file.
    watched = args.command == "sender" and not getattr(args, "until_idle", False)
    return open_for_reading(args.home, stderr=watched, paths=paths)


def _settle_language(db: Database, given: str | None) -> None:
    """The app's saved language, now that the database is open (--lang still wins)."""
    from core.store import setting_keys as keys

    if given:
        words.settle(given, None)
        return
    try:
        with db.read() as session:
            words.settle(None, keys.UI_LANGUAGE.read(session))
    except ShiftcastError:  # a hand-edited, unusable value: the locale's language will do
        words.settle(None, None)


def fail_usage(exc: UsageError) -> int:
    print(f"shiftcast: {words.say(exc.text)}", file=sys.stderr)
    return EXIT_USAGE
