"""The draft verb: a month drafted by the solver (core/drafting). `--problem FILE.json` reads a problem
written as a JSON file (docs/drafting.md) and prints the solution as JSON, with no database; the month
of a classroom from the database is a second source in the same group of arguments."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cli import draft_month, numbers, words
from cli.verbs import EXIT_USAGE, Subcommands, UsageError, Verb, print_json
from core.texts import t

if TYPE_CHECKING:
    from core.store.db import Database
    from core.store.paths import DataPaths


def add_parsers(sub: Subcommands) -> None:
    draft = sub.add_parser("draft", help="draft a month with the solver: cover the staffing needs from the "
                                         "teachers' answers, within their limits")
    source = draft.add_argument_group("what to draft")
    source.add_argument("--problem", type=Path, metavar="FILE.json",
                        help="a problem written as a JSON file (docs/drafting.md); needs no database")
    source.add_argument("--classroom", metavar="NAME", help="draft this classroom's month from the database")
    source.add_argument("--month", metavar="YYYY-MM", help="the month to draft (with --classroom)")
    source.add_argument("--shared", action="store_true",
                        help="draft together the classrooms that share teachers with it (a teacher is never in two "
                             "places at once)")
    source.add_argument("--unanswered", choices=("yes", "no"), default="no",
                        help="what a day a teacher did not answer counts as (default: no, not available)")
    drafts = source.add_mutually_exclusive_group()
    drafts.add_argument("--replace-drafts", dest="keep_drafts", action="store_false", default=False,
                        help="the draft replaces the month's drafts (the default)")
    drafts.add_argument("--keep-drafts", dest="keep_drafts", action="store_true",
                        help="keep the month's drafts as they are and draft around them")
    source.add_argument("--apply", action="store_true",
                        help="write the draft into the roster as draft shifts (teachers are told only when the "
                             "month is confirmed)")
    output = draft.add_argument_group("output")
    output.add_argument("--json", action="store_true", help="print the solution as JSON")
    draft.add_argument("--time-limit", type=numbers.whole_number(1, 3600), metavar="SECONDS",
                       help="stop searching after this many seconds with the best draft found "
                            "(default: the file's time_limit, else 10)")


def without_database(args: argparse.Namespace) -> bool:
    """A problem file is all the verb needs: no data folder's database is opened for it."""
    return args.command == "draft" and getattr(args, "problem", None) is not None


def cmd_problem(_db: Database | None, args: argparse.Namespace, _paths: DataPaths) -> int:
    from core.drafting import files, solver
    from core.texts import t

    try:
        text = args.problem.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"shiftcast: {words.line('cli.cannot_read', path=str(args.problem), detail=str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    try:
        problem = files.read(text)
    except files.ProblemFileError as exc:
        print(f"shiftcast: {args.problem.name}: {words.say(exc.text)}", file=sys.stderr)
        return EXIT_USAGE
    result = solver.solve(problem, time_limit=args.time_limit)
    solution = files.solution(result, problem, words.current())
    if args.json:
        print_json(solution)
        return 0
    print(words.line("cli.draft.summary", shifts=t("cli.draft.shifts", count=len(solution["shifts"])),
                     uncovered=t("cli.draft.left", count=solution["uncovered_total"]),
                     status=t(f"cli.draft.status.{solution['status']}")))
    for shift in solution["shifts"]:
        print(words.line("cli.draft.shift", **{k: str(v) for k, v in shift.items() if k != "classroom"},
                         classroom=shift.get("classroom", "")).rstrip())
    for need in solution["uncovered"]:
        where = f"{need['classroom']} {need['slot']}" if "classroom" in need else need["slot"]
        print(words.line("cli.draft.uncovered", day=need["day"], slot=where, count=need["missing"], why=need["why"]))
    return 0


def cmd_draft(db: Database | None, args: argparse.Namespace, paths: DataPaths) -> int:
    if args.problem is not None:
        if args.classroom is not None or args.apply:
            raise UsageError(t("cli.draft.one_source"))
        return cmd_problem(db, args, paths)
    if args.classroom is None or args.month is None:
        raise UsageError(t("cli.draft.what"))
    assert db is not None
    return draft_month.cmd_month(db, args)


COMMANDS: dict[str, Verb] = {"draft": cmd_draft}
