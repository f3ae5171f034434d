"""The cover verbs: requests for cover (代講) listed, and the manager's answer to each — a call for
volunteers, an assignment, or a refusal told to the teacher who asked, with a reason if given
(core/roster/cover.py, core/sending/kinds/cover_call.py, cover_declined.py)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from cli import numbers, words
from cli.verbs import Subcommands, Verb, now

if TYPE_CHECKING:
    from core.roster.cover import CoverRequestView
    from core.store.db import Database
    from core.store.paths import DataPaths

MAX_ID = 10**12


def add_parsers(sub: Subcommands) -> None:
    cover = sub.add_parser("cover", help="teachers' requests for cover: list them, call for volunteers, assign or "
                                         "decline")
    actions = cover.add_subparsers(dest="cover_action", metavar="{list,call,assign,decline}", required=True)
    listing = actions.add_parser("list", help="the requests waiting for you, with their volunteers")
    listing.add_argument("--all", action="store_true", help="every request, also those decided")
    call = actions.add_parser("call", help="ask teachers who could take the shift to volunteer, on LINE")
    call.add_argument("id", type=numbers.whole_number(1, MAX_ID), help="the request's number")
    whom = call.add_mutually_exclusive_group()
    whom.add_argument("--to-group", action="store_true", help="in the classroom's LINE group")
    whom.add_argument("--teacher", nargs="+", metavar="NAME", help="to these teachers (each must be free then)")
    assign = actions.add_parser("assign", help="give the shift to a teacher (a volunteer or any teacher free then)")
    assign.add_argument("id", type=numbers.whole_number(1, MAX_ID), help="the request's number")
    assign.add_argument("teacher", help="the teacher's name")
    decline = actions.add_parser("decline", help="say no: the shift stays with the teacher who asked")
    decline.add_argument("id", type=numbers.whole_number(1, MAX_ID), help="the request's number")
    decline.add_argument("--reason", default="", metavar="TEXT",
                         help="why, told to the teacher with the decline (in the classroom's language)")


def _lines(view: CoverRequestView) -> list[str]:
    from core.messages import texts
    from core.texts import t

    lang = words.current()
    facts = texts.ShiftFacts(view.classroom, view.local_date, view.start_time, view.end_time, view.ends_next_day)
    lines = [words.line("cover.summary", id=view.id, state=t(f"cover.state.{view.state.value}"),
                        teacher=view.teacher_name, when=texts.when(facts, lang), classroom=view.classroom,
                        reason=view.reason or "-")]
    if view.assigned_teacher_name:
        lines.append("  " + words.line("cli.cover.assigned", teacher=view.assigned_teacher_name))
    for volunteer in view.volunteers:
        lines.append("  " + words.line("cli.cover.volunteer" if volunteer.free else "cli.cover.volunteer_busy",
                                       teacher=volunteer.teacher_name))
    return lines


def cmd_cover(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.roster import cover, rules
    from core.sending.kinds import cover_call, cover_declined

    at = now()
    if args.cover_action == "list":
        with db.read() as session:
            views = cover.requests(session, still_open=not args.all)
        for view in views:
            for line in _lines(view):
                print(line)
        print(words.line("cli.cover.count", count=len(views)))
        return 0
    with db.write() as session:
        if args.cover_action == "call":
            teacher_ids = [rules.teacher_by_name(session, name).id for name in args.teacher or ()]
            made = cover_call.call(session, args.id, now=at, to_group=args.to_group, teacher_ids=teacher_ids)
            print(words.line("cli.cover.called", id=args.id, count=len(made)))
        elif args.cover_action == "assign":
            teacher = rules.teacher_by_name(session, args.teacher)
            cover.assign(session, args.id, teacher.id, now=at)
            print(words.line("cli.cover.assigned_now", id=args.id, teacher=teacher.display_name))
        else:
            told = cover_declined.decline(session, args.id, now=at, reason=args.reason)
            print(words.line("cli.cover.declined" if told else "cli.cover.declined_untold", id=args.id))
    return 0


COMMANDS: dict[str, Verb] = {"cover": cmd_cover}
