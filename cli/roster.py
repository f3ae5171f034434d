"""The roster verbs: classrooms, teachers and shifts listed, created and confirmed; CSV import and export."""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cli import limits, numbers, words
from cli.verbs import EXIT_FAILED, Subcommands, UsageError, Verb, file_only, now, print_json
from core.roster.reading import MAX_POSITION
from core.texts import t
from core.texts.message import logged

if TYPE_CHECKING:
    from core.store.db import Database
    from core.store.paths import DataPaths

log = logging.getLogger(__name__)


def add_parsers(sub: Subcommands) -> None:
    imp = sub.add_parser("import", help="import teachers or shifts from CSV (all or nothing)")
    imp.add_argument("what", choices=["teachers", "shifts"])
    imp.add_argument("file", type=Path)

    exp = sub.add_parser("export", help="export teachers or shifts as CSV, or a teacher's shifts as iCalendar (ics)")
    exp.add_argument("what", choices=["teachers", "shifts", "ics"])
    exp.add_argument("--classroom", help="only this classroom (shifts)")
    exp.add_argument("--month", help="only this month, YYYY-MM (shifts, ics)")
    exp.add_argument("--teacher", help="the teacher whose shifts (ics)")
    exp.add_argument("--output", "-o", type=Path, help="write to this file (a CSV in UTF-8 with BOM, for Excel)")

    shifts = sub.add_parser("shifts", help="list a classroom's shifts for a month")
    shifts.add_argument("--classroom", required=True)
    shifts.add_argument("--month", required=True, help="YYYY-MM")
    shifts.add_argument("--json", action="store_true")

    teachers = sub.add_parser("teachers", help="list teachers")
    teachers.add_argument("--json", action="store_true")
    in_order = teachers.add_subparsers(dest="order_action", metavar="{move,order,join,leave,limits}")
    move = in_order.add_parser("move", help="move a teacher to another place in the list (your own order)")
    move.add_argument("name", help="the teacher's name")
    place = move.add_mutually_exclusive_group(required=True)
    place.add_argument("--to", type=numbers.whole_number(1, MAX_POSITION), metavar="N",
                       help="to this place (1 is first)")
    place.add_argument("--up", action="store_const", const=-1, dest="step", help="one place up")
    place.add_argument("--down", action="store_const", const=1, dest="step", help="one place down")
    by_reading = in_order.add_parser("order", help="list the teachers by their reading again (forget your own order)")
    by_reading.add_argument("--by-reading", action="store_true", required=True,
                            help="by reading (ふりがな), then by name")
    for action, text in (("join", "make a teacher one of a classroom's own teachers"),
                         ("leave", "a teacher stops being one of a classroom's own (refused while they have "
                                   "confirmed shifts to come there)")):
        member = in_order.add_parser(action, help=text)
        member.add_argument("name", help="the teacher's name")
        member.add_argument("--classroom", required=True, help="the classroom's name")
    limits.add_parser(in_order)

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


def _quiet_hours(text: str) -> tuple[dt.time, dt.time] | None:
    from core.roster import clock

    if text.strip().lower() == "off":
        return None
    start, sep, end = text.partition("-")
    if not sep:
        raise UsageError(t("cli.bad_quiet_hours", text=text))
    return clock.parse_wall_time(start)[0], clock.parse_wall_time(end)[0]


def _register_channels() -> None:
    """Every channel a teachers file may give a contact on, with its columns (the built-in ones' are
    known without this; a listing does without it, as loading the channels costs a start-up)."""
    from core.channels import registry  # noqa: F401 - registering them gives the roster their columns


def cmd_import(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from cli.progress import ImportProgress
    from core.roster import csv_files

    _register_channels()
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
                result = csv_files.import_shifts(session, data, now=now(), progress=progress)
    except csv_files.CsvImportError as exc:
        progress.end()
        log.info("import of %s refused: %s", args.file, logged(exc.text), extra=file_only())
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

    if args.what == "ics":
        from cli import calendar

        return calendar.export_ics(db, args)
    if args.teacher:
        raise UsageError(t("cli.export.not_with", option="--teacher", what=args.what))
    _register_channels()
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
        rows: list[dict[str, Any]] = [
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
        print_json(rows)
    else:
        for r in rows:
            status = words.pad(words.line(f"status.{r['status']}"), 9)
            print(f"{r['id']:>6}  {r['date']}  {r['start']}–{r['end']}  {status}  v{r['version']}  {r['teacher']}  {r['note']}")
        print(words.line("cli.shift_count", count=len(rows)))
    return 0


def cmd_teachers(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.roster import contacts, membership, rules
    from core.roster import limits as teacher_limits
    from core.texts import formats

    columns = contacts.columns()
    if args.order_action == "limits":
        return limits.cmd_limits(db, args)
    if args.order_action in ("join", "leave"):
        return _membership(db, args)
    if args.order_action is not None:
        return _reorder(db, args)
    with db.read() as session:
        classrooms = membership.names_by_teacher(session)
        room_ids = membership.ids_by_teacher(session)
        teachers = rules.list_teachers(session)
        slots = teacher_limits.slot_names(session)
        set_limits = teacher_limits.limits_of(session, (t.id for t in teachers))
        rows: list[dict[str, Any]] = [
            {"id": t.id, "name": t.name, "reading": t.reading, "position": t.position}
            | {column.name: contacts.column_value(t.contacts, channel, column) for channel, column in columns}
            | {"active": t.active, "classrooms": list(classrooms.get(t.id, ()))}
            | {"limits": _limits_json(set_limits[t.id]),
               "limits_text": teacher_limits.describe(set_limits[t.id], formats.join(teacher_limits.slot_words(
                   set_limits[t.id].slots, slots, room_ids.get(t.id, frozenset())), words.current()))}
            for t in teachers
        ]
    if args.json:
        print_json([{key: value for key, value in r.items() if key != "limits_text"} for r in rows])
    else:
        for r in rows:
            agreed = [words.line(f"word.column.{column.name}") for _, column in columns if column.agreed and r[column.name]]
            flags = ",".join([*agreed, *([words.line("cli.teachers.flag.active")] if r["active"] else [])])
            addresses = "  ".join(r[column.name] or "-" for _, column in columns if not column.agreed)
            place = "" if r["position"] is None else "  " + words.line("cli.teachers.place", place=r["position"])
            rooms = "  " + words.line("cli.teachers.classrooms", classrooms=tuple(r["classrooms"])) if r["classrooms"] else ""
            brief = "  " + words.line("cli.teachers.limits", limits=r["limits_text"]) if r["limits_text"] else ""
            print(f"{r['id']:>5}  {r['name']}  {addresses}  [{flags}]{rooms}{brief}{place}")
        print(words.line("cli.teacher_count", count=len(rows)))
        if any(r["position"] is not None for r in rows):
            print(words.line("cli.teachers.own_order"))
    return 0


def _limits_json(chosen: Any) -> dict[str, Any]:
    """A teacher's limits for --json: minutes as stored, slots as lesson slot ids (null: all)."""
    from core.roster.limits import NUMBERS

    return {name: getattr(chosen, name) for name in NUMBERS} | {
        "slots": None if chosen.slots is None else sorted(chosen.slots)}


def _membership(db: Database, args: argparse.Namespace) -> int:
    """`teachers join` and `teachers leave`: a classroom's own teachers (core/roster/membership.py)."""
    from core.roster import membership, rules

    with db.write() as session:
        teacher = rules.teacher_by_name(session, args.name)
        classroom = rules.classroom_by_name(session, args.classroom)
        change = membership.join if args.order_action == "join" else membership.leave
        changed = change(session, classroom.id, teacher.id, now=now())
    said = {("join", True): "cli.teachers.joined", ("join", False): "cli.teachers.member_already",
            ("leave", True): "cli.teachers.left", ("leave", False): "cli.teachers.not_member"}
    print(words.line(said[args.order_action, changed], teacher=teacher.display_name, classroom=classroom.name))
    return 0


def _reorder(db: Database, args: argparse.Namespace) -> int:
    """`teachers move` and `teachers order --by-reading`: the manager's own order (core/roster/order.py)."""
    from core.roster import order, rules

    with db.write() as session:
        if args.order_action == "order":
            order.by_reading(session)
            count = len(rules.list_teachers(session))
            print(words.line("cli.teachers.by_reading", count=count))
            return 0
        teacher = rules.teacher_by_name(session, args.name)
        place = (order.move_to(session, teacher.id, args.to) if args.to is not None
                 else order.move_by(session, teacher.id, args.step))
        count = len(rules.list_teachers(session))
    print(words.line("cli.teachers.moved", teacher=teacher.display_name, place=place, count=count))
    return 0


def cmd_classrooms(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.roster import rules

    with db.read() as session:
        rows: list[dict[str, Any]] = [
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
        print_json(rows)
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
    from core.setup import readiness

    year, month = rules.parse_month(args.month)
    with db.write() as session:
        classroom = rules.classroom_by_name(session, args.classroom)
        confirmed = rules.confirm_month(session, classroom.id, year, month, now=now())
        teachers = sorted({shift.teacher_id for shift in confirmed})
    print(words.line("cli.confirmed", count=len(confirmed), classroom=args.classroom,
                     month=f"{year}-{month:02d}"))
    # The roster is the manager's: it is confirmed either way, but the result must not imply that
    # every teacher will hear of it.
    if untold := readiness.not_told(db, teachers):
        print(words.line("confirm.untold", teachers=untold))
    return 0


COMMANDS: dict[str, Verb] = {
    "import": cmd_import,
    "export": cmd_export,
    "shifts": cmd_shifts,
    "teachers": cmd_teachers,
    "classrooms": cmd_classrooms,
    "add-classroom": cmd_add_classroom,
    "confirm": cmd_confirm,
}
