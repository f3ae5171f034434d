"""Command line: argument parsing and the verbs that need no screen.

main.py parses with `build_parser()`; GUI-like modes are handed to ui/, everything else runs here.
Bad input ends with a one-line message and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from cli import outbox, webhook, words
from core.errors import DatabaseError, ShiftcastError
from core.startup import resume_collector
from core.texts import t
from core.texts.formats import LANGUAGES
from core.texts.message import logged, shortened
from core.version import __version__

# `--version`, `--help` and a usage error end before any verb runs, so the parser imports nothing
# beyond the standard library and these; each verb imports its own core when it runs.
if TYPE_CHECKING:
    from core.store.db import Database
    from core.store.paths import DataPaths

log = logging.getLogger(__name__)
EXIT_USAGE = 2
EXIT_FAILED = 1
SCREEN_MODES = {"gui", "tray", "demo", "screenshots"}


class UsageError(ShiftcastError):
    pass


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

    sub.add_parser("gui", help="open the window (the default)")
    sub.add_parser("tray", help="start in the system tray only (used when starting at login)")
    sub.add_parser("demo", help="try Shiftcast with sample data and the built-in LINE simulator")
    shots = sub.add_parser("screenshots", help="save a PNG of every main view and dialog (demo data)")
    shots.add_argument("--out", required=True, type=Path)

    imp = sub.add_parser("import", help="import teachers or shifts from CSV (all or nothing)")
    imp.add_argument("what", choices=["teachers", "shifts"])
    imp.add_argument("file", type=Path)

    exp = sub.add_parser("export", help="export teachers or shifts as CSV")
    exp.add_argument("what", choices=["teachers", "shifts"])
    exp.add_argument("--classroom", help="only this classroom (shifts)")
    exp.add_argument("--month", help="only this month, YYYY-MM (shifts)")
    exp.add_argument("--output", "-o", type=Path, help="write to this file (UTF-8 with BOM, for Excel)")

    shifts = sub.add_parser("shifts", help="list a classroom's shifts for a month")
    shifts.add_argument("--classroom", required=True)
    shifts.add_argument("--month", required=True, help="YYYY-MM")
    shifts.add_argument("--json", action="store_true")

    teachers = sub.add_parser("teachers", help="list teachers")
    teachers.add_argument("--json", action="store_true")

    classrooms = sub.add_parser("classrooms", help="list classrooms")
    classrooms.add_argument("--json", action="store_true")

    add_room = sub.add_parser("add-classroom", help="create a classroom")
    add_room.add_argument("name")
    add_room.add_argument("--timezone", default="Asia/Tokyo")
    add_room.add_argument("--group-id", help="the LINE group ID (C + 32 hex digits)")
    add_room.add_argument("--lead", type=int, default=120, help="reminder lead time in minutes")
    add_room.add_argument("--quiet", default="22:00-07:00", help="quiet hours HH:MM-HH:MM, or 'off'")
    add_room.add_argument("--language", choices=["ja", "en"], default="ja")

    confirm = sub.add_parser("confirm", help="confirm every draft shift of a classroom's month")
    confirm.add_argument("--classroom", required=True)
    confirm.add_argument("--month", required=True, help="YYYY-MM")
    outbox.add_parsers(sub)
    webhook.add_parsers(sub)
    for verb in sub.choices.values():  # `shiftcast import --lang en …` as well as `shiftcast --lang en import …`
        verb.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=LANG_HELP)
    return parser


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    argv = list(sys.argv[1:] if argv is None else argv)
    with words.argparse_in(words.start(argv)):
        return build_parser().parse_args(argv)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _print_json(value: Any) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2))


def _quiet_hours(text: str) -> tuple[dt.time, dt.time] | None:
    from core.roster import clock

    if text.strip().lower() == "off":
        return None
    start, sep, end = text.partition("-")
    if not sep:
        raise UsageError(t("cli.bad_quiet_hours", text=text))
    return clock.parse_wall_time(start)[0], clock.parse_wall_time(end)[0]


def cmd_import(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from cli.progress import ImportProgress
    from core.roster import csv_files

    try:
        data = args.file.read_bytes()
    except OSError as exc:
        raise UsageError(t("cli.cannot_read", path=str(args.file), detail=str(exc.strerror))) from None
    progress = ImportProgress()
    try:
        with db.write() as session:
            if args.what == "teachers":
                result = csv_files.import_teachers(session, data, progress=progress)
            else:
                result = csv_files.import_shifts(session, data, now=_now(), progress=progress)
    except csv_files.CsvImportError as exc:
        progress.end()
        log.info("import of %s refused: %s", args.file, logged(exc.text), extra=_file_only())
        if len(exc.problems) == 1:
            print("shiftcast: " + words.line("cli.import.rejected_one", path=str(args.file),
                                             problem=exc.problems[0].text), file=sys.stderr)
            return EXIT_FAILED
        print("shiftcast: " + words.line("cli.import.rejected", path=str(args.file), count=len(exc.problems)),
              file=sys.stderr)
        for problem in exc.problems:
            print(f"  {words.say(problem.text)}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        progress.end()
    print(words.line("cli.import.done", what=t(f"cli.what.{args.what}"), added_count=result.created,
                     updated_count=result.updated))
    return 0


def cmd_export(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.roster import csv_files, rules

    with db.read() as session:
        if args.what == "teachers":
            text = csv_files.export_teachers(session)
        else:
            classroom_id = rules.classroom_by_name(session, args.classroom).id if args.classroom else None
            month = rules.parse_month(args.month) if args.month else None
            text = csv_files.export_shifts(session, classroom_id=classroom_id, month=month)
    if args.output:
        from core.store.exports import write_export

        write_export(args.output, lambda: text.encode("utf-8-sig"))
        print(words.line("cli.wrote", path=str(args.output)))
    else:
        sys.stdout.write(text)
    return 0


def cmd_shifts(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.roster import clock, rules

    year, month = rules.parse_month(args.month)
    with db.read() as session:
        classroom = rules.classroom_by_name(session, args.classroom)
        rows = [
            {
                "id": s.id,
                "date": s.local_date.isoformat(),
                "teacher": s.teacher.display_name,
                "start": clock.format_wall_time(s.start_time),
                "end": clock.format_wall_time(s.end_time, next_day=s.ends_next_day),
                "status": s.status.value,
                "version": s.version,
                "note": s.note,
            }
            for s in rules.month_shifts(session, classroom.id, year, month)
        ]
    if args.json:
        _print_json(rows)
    else:
        for r in rows:
            print(f"{r['id']:>6}  {r['date']}  {r['start']}–{r['end']}  {r['status']:<9}  v{r['version']}  {r['teacher']}  {r['note']}")
        print(words.line("cli.shift_count", count=len(rows)))
    return 0


def cmd_teachers(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.roster import rules

    with db.read() as session:
        rows = [
            {
                "id": t.id,
                "name": t.name,
                "line_user_id": t.line_user_id,
                "email": t.email,
                "line_opt_in": t.line_opt_in,
                "email_opt_in": t.email_opt_in,
                "active": t.active,
            }
            for t in rules.list_teachers(session)
        ]
    if args.json:
        _print_json(rows)
    else:
        for r in rows:
            flags = ",".join(k for k in ("line_opt_in", "email_opt_in", "active") if r[k])
            print(f"{r['id']:>5}  {r['name']}  {r['line_user_id'] or '-'}  {r['email'] or '-'}  [{flags}]")
        print(words.line("cli.teacher_count", count=len(rows)))
    return 0


def cmd_classrooms(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.roster import rules

    with db.read() as session:
        rows = [
            {
                "id": c.id,
                "name": c.name,
                "timezone": c.timezone,
                "line_group_id": c.line_group_id,
                "reminder_lead_minutes": c.reminder_lead_minutes,
                "quiet_hours": (
                    f"{c.quiet_start:%H:%M}-{c.quiet_end:%H:%M}" if c.quiet_hours_enabled else None
                ),
                "language": c.language,
            }
            for c in rules.list_classrooms(session)
        ]
    if args.json:
        _print_json(rows)
    else:
        for r in rows:
            print(words.line("cli.classrooms.row", id=f"{r['id']:>4}", name=r["name"], zone=r["timezone"],
                             lead=r["reminder_lead_minutes"], quiet=r["quiet_hours"] or words.line("cli.quiet_off")))
        print(words.line("cli.classroom_count", count=len(rows)))
    return 0


def cmd_add_classroom(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.roster import rules

    with db.write() as session:
        classroom = rules.create_classroom(
            session,
            name=args.name,
            timezone=args.timezone,
            line_group_id=args.group_id,
            reminder_lead_minutes=args.lead,
            quiet_hours=_quiet_hours(args.quiet),
            language=args.language,
        )
        print(words.line("cli.classroom_created", id=classroom.id, name=classroom.name))
    return 0


def cmd_confirm(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.roster import rules

    year, month = rules.parse_month(args.month)
    with db.write() as session:
        classroom = rules.classroom_by_name(session, args.classroom)
        confirmed = rules.confirm_month(session, classroom.id, year, month, now=_now())
    print(words.line("cli.confirmed", count=len(confirmed), classroom=args.classroom,
                     month=f"{year}-{month:02d}"))
    return 0


# Every verb gets the process's one DataPaths: a verb that touches a file finds it there, never in the
# default data folder on its own.
Verb = Callable[["Database", argparse.Namespace, "DataPaths"], int]
COMMANDS: dict[str, Verb] = {
    "import": cmd_import,
    "export": cmd_export,
    "shifts": cmd_shifts,
    "teachers": cmd_teachers,
    "classrooms": cmd_classrooms,
    "add-classroom": cmd_add_classroom,
    "confirm": cmd_confirm,
    **outbox.COMMANDS,
    **webhook.COMMANDS,
}


def run(args: argparse.Namespace, *, paths: DataPaths | None = None) -> int:
    """Run a non-screen verb. Errors meant for the user become one line on stderr."""
    log_file: Path | None = None
    try:
        # Creating the data folder and opening the log are inside the error handling: an unwritable
        # folder or log file is the manager's problem to fix, told in one line, not a traceback.
        paths, log_file = _open_data_folder(args, paths)
        if args.command in outbox.NO_DATABASE:
            resume_collector()
            code = outbox.NO_DATABASE[args.command](None, args, paths)
        else:
            from core.store.bootstrap import open_database  # SQLAlchemy: only for the verbs that need it
            db = open_database(paths)
            try:
                _settle_language(db, getattr(args, "lang", None))
                if args.command not in outbox.END_START_UP_THEMSELVES:
                    resume_collector()  # start-up is over; the verb may run long or build much
                code = COMMANDS[args.command](db, args, paths)
            finally:
                db.dispose()
        sys.stdout.flush()  # a closed pipe shows here for output still in the buffer
        if code == 0:
            _say_log_failure()
        return code
    except BrokenPipeError as exc:
        if not _stdout_reader_gone():  # a socket's broken pipe (a mail server hanging up) is a real error
            return _failed(exc, args, paths, log_file)
        # The reader (`| head`) has all it wanted: end quietly, as Unix tools do. Later writes,
        # including the interpreter's own flush at exit, go to devnull instead of raising again.
        _stdout_to_devnull()
        return 0
    except ShiftcastError as exc:
        from core.store.db import storage_problem

        # A database that could not be opened or upgraded names the disk's own trouble when it is one.
        storage = storage_problem(exc, database=_database_file(paths)) if isinstance(exc, DatabaseError) else None
        text = storage or exc.text
        # The log keeps English and the code, for a support request; the manager reads their language.
        log.info("%s failed: %s", args.command, logged(text), extra=_file_only())
        print(f"shiftcast: {words.say(text)}", file=sys.stderr)
        return EXIT_FAILED
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, never a traceback
        return _failed(exc, args, paths, log_file)


def _failed(exc: Exception, args: argparse.Namespace, paths: DataPaths | None, log_file: Path | None) -> int:
    """An error no verb expected: storage the manager must fix in its own words, anything else briefly."""
    from core.logs import FILE_ONLY
    from core.store.db import storage_problem

    problem = storage_problem(exc, database=_database_file(paths))
    if problem is not None:
        log.error("%s: %s", args.command, logged(problem), exc_info=exc, extra=FILE_ONLY)
        print(f"shiftcast: {words.say(problem)}", file=sys.stderr)
        return EXIT_FAILED
    log.error("unexpected error in %s", args.command, exc_info=exc)
    where = t("cli.details_in", path=str(log_file)) if log_file else ""
    print("shiftcast: " + words.line("cli.unexpected", kind=exc.__class__.__name__, where=where), file=sys.stderr)
    return EXIT_FAILED


def _say_log_failure() -> None:
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


def _open_data_folder(args: argparse.Namespace, paths: DataPaths | None) -> tuple[DataPaths, Path]:
    import core.sending.kinds  # noqa: F401 - registers the message kinds every verb on the outbox may meet
    from core.store.data_folder import open_data_folder

    # The sender that runs until stopped tells its progress on the terminal; every other verb, `sender
    # --until-idle` too, prints only its own result there, and its log lines go to the log file.
    watched = args.command == "sender" and not getattr(args, "until_idle", False)
    return open_data_folder(args.home, stderr=watched, paths=paths)


def _file_only() -> dict[str, bool]:
    from core.logs import FILE_ONLY

    return FILE_ONLY


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


def _stdout_reader_gone() -> bool:
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


def _stdout_to_devnull() -> None:
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real file descriptor behind stdout (a test's capture)
        pass


def fail_usage(exc: UsageError) -> int:
    print(f"shiftcast: {words.say(exc.text)}", file=sys.stderr)
    return EXIT_USAGE
