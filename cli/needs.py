"""The needs verb: a classroom's staffing needs (必要人数) per lesson slot, as a weekly table (and a month's
date overrides and closed days), one set on a weekday or a date, or cleared (core/roster/needs.py)."""

from __future__ import annotations

import argparse
import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cli import words
from cli.verbs import Subcommands, UsageError, Verb
from core.texts import t

if TYPE_CHECKING:
    from core.roster.needs import Need
    from core.store.db import Database
    from core.store.paths import DataPaths

MONDAY = dt.date(2024, 1, 1)


def add_parsers(sub: Subcommands) -> None:
    needs = sub.add_parser("needs", help="a classroom's staffing needs per lesson slot (必要人数): list them, set "
                                         "one on a weekday or a date, or clear them")
    actions = needs.add_subparsers(dest="needs_action", metavar="{list,set,clear}", required=True)
    listing = actions.add_parser("list", help="the weekly table of needs, and with --month that month's dates "
                                              "and closed days")
    listing.add_argument("--classroom", required=True)
    listing.add_argument("--month", help="YYYY-MM")
    setting = actions.add_parser("set", help="set how many teachers a slot needs on a weekday, or on one date "
                                             "(which wins over its weekday)")
    setting.add_argument("--classroom", required=True)
    setting.add_argument("--slot", required=True, help="the lesson slot's name, e.g. 1限")
    _day_arguments(setting)
    setting.add_argument("--count", required=True, help="how many teachers, 0 or more")
    clearing = actions.add_parser("clear", help="clear needs: a slot's, a weekday's, a date's, or all of the "
                                                "classroom's")
    clearing.add_argument("--classroom", required=True)
    clearing.add_argument("--slot", help="only this lesson slot's")
    _day_arguments(clearing)


def _day_arguments(parser: argparse.ArgumentParser) -> None:
    when = parser.add_mutually_exclusive_group()
    when.add_argument("--weekday", help="mon to sun, 月 to 日, or 0 (Monday) to 6 (Sunday)")
    when.add_argument("--date", metavar="DATE", help="one date, YYYY-MM-DD")


def weekly_table(slots: Sequence[str], needs: Sequence[Need]) -> list[str]:
    """One line per slot, a column per weekday (Monday first); "-" where nothing is set."""
    from core.texts.formats import weekday_short

    counts = {(n.slot, n.weekday): n.count for n in needs if n.weekday is not None}
    heads = [weekday_short(MONDAY + dt.timedelta(days=n), words.current()) for n in range(7)]
    first = max([words.columns(s) for s in slots] + [4]) + 2
    lines = [words.pad("", first) + "".join(words.pad(h, 5) for h in heads).rstrip()]
    for slot in slots:
        cells = [str(counts[(slot, n)]) if (slot, n) in counts else "-" for n in range(7)]
        lines.append(words.pad(slot, first) + "".join(words.pad(c, 5) for c in cells).rstrip())
    return lines


def cmd_needs(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.roster import closed_days, lesson_slots, patterns, rules
    from core.roster import needs as nd
    from core.texts.formats import weekday_short

    action = args.needs_action
    if action == "set" and args.weekday is None and args.date is None:
        raise UsageError(t("cli.needs.weekday_or_date"))
    month = rules.parse_month(args.month) if action == "list" and args.month else None
    weekday = patterns.parse_weekday(args.weekday) if action != "list" and args.weekday is not None else None
    day = nd.parse_day(args.date) if action != "list" and args.date is not None else None
    count = nd.parse_count(args.count) if action == "set" else 0
    with db.write() as session:
        classroom = rules.classroom_by_name(session, args.classroom)
        name = classroom.name
        when: str | dt.date = (weekday_short(MONDAY + dt.timedelta(days=weekday), words.current())
                               if weekday is not None else day if day is not None else "")
        if action == "set":
            need = nd.set_need(session, classroom.id, nd.Need(args.slot, count, weekday, day))
            print(words.line("cli.needs.set", slot=need.slot, when=when, count=count, classroom=name))
        elif action == "clear":
            removed = nd.clear_needs(session, classroom.id, slot=args.slot, weekday=weekday, day=day)
            print(words.line("cli.needs.cleared", count=removed, classroom=name))
        slots = [s.name for s in lesson_slots.classroom_slots(session, classroom.id)]
        stored = nd.classroom_needs(session, classroom.id)
        closed = closed_days.read_month(session, classroom.id, *month) if month else {}
    if not slots:
        print(words.line("cli.needs.no_slots", classroom=name))
        return 0
    for line in weekly_table(slots, stored):
        print(line)
    if month is None:
        dated = [n for n in stored if n.day is not None]
    else:
        first, last = rules.month_bounds(*month)
        dated = [n for n in stored if n.day is not None and first <= n.day <= last]
    for need in dated:
        assert need.day is not None
        print(words.line("cli.needs.date_row", day=need.day, slot=need.slot, count=need.count))
    for item in closed.values():
        print(words.line("cli.needs.closed_row", day=item.day, note=item.note).rstrip())
    print(words.line("cli.needs.count", count=len(stored), classroom=name))
    return 0


COMMANDS: dict[str, Verb] = {"needs": cmd_needs}
