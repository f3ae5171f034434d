"""The plan verb: a dry run of what would be sent in the next days, and the LINE quota forecast."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from cli import words
from cli.verbs import Subcommands, Verb, now
from core.errors import ValidationError
from core.texts import t

if TYPE_CHECKING:
    from core.store.db import Database
    from core.store.paths import DataPaths


def add_parsers(sub: Subcommands) -> None:
    plan = sub.add_parser("plan", help="dry run: what would be sent in the next days, and the LINE quota forecast")
    plan.add_argument("--days", type=int, default=7)
    plan.add_argument("--json", action="store_true")


def cmd_plan(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.planning import forecast
    from core.setup import readiness

    if not 1 <= args.days <= 62:
        raise ValidationError(t("cli.plan.days"))
    at = now()
    items = forecast.dry_run(db, now=at, days=args.days)
    fc = forecast.forecast(db, now=at)
    if args.json:
        print(forecast.as_json(items, fc, words.current()))
        return 0
    # What stops these messages comes first: a plan of sends that cannot go must not read as a promise.
    for blocker in readiness.blockers(readiness.check(db, now=at, autostart=None)):
        print(words.line("cli.plan.blocked", blocker=blocker))
    for i in items:
        print(f"{i.local_send_time}  {i.kind:<18} {i.channel:<5} {i.recipient}  [{i.classroom}]  {words.say(i.why)}")
    print(words.line("cli.plan.count", count=len(items), span=t("cli.plan.span", days=args.days)))
    if fc.limit is None:
        print(words.line("cli.plan.no_limit", planned_count=fc.planned_rest_of_month))
    else:
        # What LINE did not say (this month's use, and so what remains) is a "?", as the publish dry run says it.
        print(words.line("cli.plan.quota", used_count=_known(fc.used), limit_count=fc.limit,
                         planned_count=fc.planned_rest_of_month, remaining_count=_known(fc.remaining_after_plan)))
    return 0


def _known(count: int | None) -> int | str:
    return count if count is not None else "?"


COMMANDS: dict[str, Verb] = {"plan": cmd_plan}
