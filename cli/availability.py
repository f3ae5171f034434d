"""The availability verbs (シフト希望): ask a classroom's teachers which days of a month they can work —
on LINE, or by e-mail those LINE cannot reach — (or the dry run: who, and what it costs of the quota),
see who answered, late or not at all, remind only those who have not answered, and enter a teacher's
answers for them (`answer`: their reply to the e-mailed request, in the words the LINE reader takes)."""

from __future__ import annotations

import argparse
import datetime as dt
import json
from typing import TYPE_CHECKING

from cli import words
from cli.verbs import Subcommands, Verb, now
from core.errors import ValidationError
from core.texts import t

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from core.roster.availability import MonthAvailability, TeacherAnswers
    from core.store.db import Database
    from core.store.models import AvailabilityRequest
    from core.store.paths import DataPaths


def add_parsers(sub: Subcommands) -> None:
    topic = sub.add_parser("availability", help="ask teachers (on LINE, else by e-mail) when they can work in a "
                                                "month, and see their answers")
    verbs = topic.add_subparsers(dest="availability_action", metavar="{ask,status,remind,answer}", required=True)
    ask = verbs.add_parser("ask", help="send each teacher the month's days to answer: with buttons on LINE, "
                                            "as a list by e-mail")
    ask.add_argument("--month", required=True, help="YYYY-MM")
    ask.add_argument("--classroom", required=True)
    ask.add_argument("--deadline", required=True, help="the last day to answer, YYYY-MM-DD")
    ask.add_argument("--teacher", action="append", metavar="NAME",
                     help="ask only this teacher (repeat for more; default: every active teacher)")
    ask.add_argument("--remind-days", type=int, metavar="N",
                     help="remind who has not answered N days before the deadline")
    ask.add_argument("--dry-run", action="store_true", help="only show who would be asked and the quota cost")
    ask.add_argument("--json", action="store_true")
    status = verbs.add_parser("status", help="who answered, who answered late and who did not")
    status.add_argument("--month", required=True, help="YYYY-MM")
    status.add_argument("--classroom", required=True)
    status.add_argument("--json", action="store_true")
    remind = verbs.add_parser("remind", help="send the request again to the teachers who have not answered")
    remind.add_argument("--month", required=True, help="YYYY-MM")
    remind.add_argument("--classroom", required=True)
    remind.add_argument("--dry-run", action="store_true", help="only show who would be reminded and the quota cost")
    answer = verbs.add_parser("answer", help="enter a teacher's answers for them (a reply to the e-mailed request)")
    answer.add_argument("teacher", help="the teacher's name")
    answer.add_argument("--month", required=True, help="YYYY-MM")
    answer.add_argument("--classroom", required=True)
    answer.add_argument("--day", action="append", default=[], metavar="DAY=ANSWER",
                        help="one day's answer, e.g. 12/5=× or 12/6=17:00-21:00 (repeat for more)")
    answer.add_argument("--text", default="", help="the answers as the teacher wrote them, e.g. '火木 17時以降' or "
                                                   "the e-mailed list with ○ × after each day")


def cmd_availability(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    if args.availability_action == "ask":
        return _ask(db, args)
    if args.availability_action == "remind":
        return _remind(db, args)
    if args.availability_action == "answer":
        return _answer(db, args)
    return _status(db, args)


def _deadline(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError as exc:
        raise ValidationError(t("cli.availability.bad_deadline", text=text)) from exc


def _quota(session: Session, messages: int) -> None:
    from core.store import setting_keys as keys

    quota = keys.LINE_QUOTA.read(session)
    print(words.line("cli.availability.cost", message_count=messages))
    if quota.limit is not None:
        print(words.line("cli.publish.quota", used_count=quota.used or 0, limit_count=quota.limit))


def _ask(db: Database, args: argparse.Namespace) -> int:
    from core.roster import rules
    from core.sending.kinds import availability_request as kind

    year, month = rules.parse_month(args.month)
    deadline = _deadline(args.deadline)
    with (db.read() if args.dry_run else db.write()) as session:
        room = rules.classroom_by_name(session, args.classroom)
        asking = kind.ask(session, room.id, year, month, deadline, args.teacher, now=now(),
                          remind_days_before=args.remind_days, dry_run=args.dry_run)
        if not asking.asked and not args.dry_run:
            raise ValidationError(t("availability.nobody"))
        if args.json:
            print(json.dumps({"request": asking.request_id, "asked": asking.asked, "by_email": asking.by_email,
                              "unreachable": asking.unreachable, "messages": asking.messages,
                              "deliveries": asking.deliveries}, ensure_ascii=False))
            return 0
        print(words.line("cli.availability.dry_run" if args.dry_run else "cli.availability.asked",
                         classroom=room.name, month=f"{year}-{month:02d}", deadline=deadline,
                         teacher_count=len(asking.asked), names=asking.asked or ("-",)))
        if asking.by_email:
            print(words.line("cli.availability.by_email", names=asking.by_email))
        if asking.unreachable:
            print(words.line("cli.availability.unreachable", names=asking.unreachable))
        if args.dry_run:
            _quota(session, asking.messages)
    return 0


def _request(session: Session, args: argparse.Namespace) -> AvailabilityRequest:
    from core.roster import availability, rules

    year, month = rules.parse_month(args.month)
    room = rules.classroom_by_name(session, args.classroom)
    request = availability.latest(session, room.id, year, month)
    if request is None:
        raise ValidationError(t("cli.availability.none", classroom=room.name, month=f"{year}-{month:02d}"))
    return request


def _remind(db: Database, args: argparse.Namespace) -> int:
    from core.sending.kinds import availability_request as kind

    with (db.read() if args.dry_run else db.write()) as session:
        request = _request(session, args)
        if args.dry_run:
            would = kind.reminding(session, request)
            print(words.line("cli.availability.would_remind", teacher_count=len(would.asked),
                             names=would.asked or ("-",)))
            if would.by_email:
                print(words.line("cli.availability.by_email", names=would.by_email))
            _quota(session, would.messages)
            return 0
        reminded = kind.remind(session, request, now=now())
    print(words.line("cli.availability.reminded", teacher_count=len(reminded), names=reminded or ("-",)))
    return 0


def _answer(db: Database, args: argparse.Namespace) -> int:
    from core.roster import availability, availability_text, rules

    given = [args.text] + [" ".join(day.split("=", 1)) for day in args.day]
    with db.write() as session:
        request = _request(session, args)
        teacher = rules.teacher_by_name(session, args.teacher)
        answers = availability_text.parse_reply("\n".join(given), request.year, request.month)
        if answers is None:
            raise ValidationError(t("cli.availability.not_read"))
        count = availability.enter(session, request, teacher.id, answers, at=now())
        late = next(a.late for a in availability.answers(session, request.id) if a.teacher_id == teacher.id)
    print(words.line("cli.availability.entered_late" if late else "cli.availability.entered",
                     teacher=teacher.display_name, month=f"{request.year}-{request.month:02d}", day_count=count))
    return 0


def _status_of(session: Session, request: AvailabilityRequest) -> MonthAvailability:
    from core.roster import availability

    found = availability.month_status(session, request.classroom_id, request.year, request.month)
    assert found is not None  # the request was just read
    return found


def _status(db: Database, args: argparse.Namespace) -> int:
    with db.read() as session:
        request = _request(session, args)
        found = _status_of(session, request)
    shown, rows = found.request, found.teachers
    if args.json:
        print(json.dumps({"request": request.id, "deadline": shown.deadline.isoformat(),
                          "teachers": [_as_json(r) for r in rows]}, ensure_ascii=False, indent=2))
        return 0
    answered = [r for r in rows if r.answered]
    print(words.line("cli.availability.status", classroom=shown.classroom, month=f"{shown.year}-{shown.month:02d}",
                     deadline=shown.deadline, answered_count=len(answered), teacher_count=len(rows)))
    for row in rows:
        print(_row(row))
    return 0


def _row(row: TeacherAnswers) -> str:
    if not row.answered:
        state = t("cli.availability.state_none") if row.reminded_at is None else t(
            "cli.availability.state_reminded", at=row.reminded_at)
    else:
        assert row.answered_at is not None
        yes = sum(1 for a in row.days.values() if a.answer != "no")
        state = t("cli.availability.state_late" if row.late else "cli.availability.state_answered",
                  day_count=len(row.days), available_count=yes, at=row.answered_at, correction_count=row.corrections)
    mark = "entered_mark" if row.entered_by_manager else "page_mark" if row.from_page else None
    entered = "  " + words.say(t(f"cli.availability.{mark}")) if mark else ""
    return f"  {row.name}  {words.say(state)}{entered}"


def _as_json(row: TeacherAnswers) -> dict[str, object]:
    return {"name": row.name, "answered": row.answered, "late": row.late, "corrections": row.corrections,
            "entered_by_manager": row.entered_by_manager, "from_page": row.from_page,
            "answered_at": row.answered_at.isoformat() if row.answered_at else None,
            "reminded_at": row.reminded_at.isoformat() if row.reminded_at else None,
            "days": {d.isoformat(): {"answer": a.answer, "from": a.start.isoformat() if a.start else None,
                                     "until": a.end.isoformat() if a.end else None} for d, a in sorted(row.days.items())}}


COMMANDS: dict[str, Verb] = {"availability": cmd_availability}
