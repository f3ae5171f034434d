"""`shiftcast teachers limits NAME`: a teacher's limits and wishes shown, or set with options (each given
option sets its limit; `--clear` clears one or all), through core/roster/limits.py. Hours are written as
a manager writes them (40, 40:30, 40.5); slots by name (1限,2限; 北校:1限 for another classroom's)."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from cli import words

if TYPE_CHECKING:
    from core.roster.limits import Limits
    from core.store.db import Database

# Option → the limit it sets, and whether it is written in hours.
OPTIONS = {"max_shifts": ("max_shifts", False), "max_hours": ("max_minutes", True), "min_hours": ("min_minutes", True),
           "max_days_in_a_row": ("max_days_in_a_row", False), "max_weekend_days": ("max_weekend_days", False),
           "share": ("target_share", False)}
CLEARABLE = ("all", "max-shifts", "max-hours", "min-hours", "max-days-in-a-row", "max-weekend-days", "share", "slots")


def add_parser(actions: Any) -> None:
    """The `limits` action beside `teachers move`, `join` and the others."""
    limit = actions.add_parser("limits", help="show a teacher's limits and wishes, or set them with the options below")
    limit.add_argument("name", help="the teacher's name")
    limit.add_argument("--max-shifts", metavar="N", help="at most N shifts a month")
    limit.add_argument("--max-hours", metavar="HOURS", help="at most these hours a month: 40, 40:30 or 40.5")
    limit.add_argument("--min-hours", metavar="HOURS", help="at least these hours a month (a promised minimum)")
    limit.add_argument("--max-days-in-a-row", metavar="N", help="at most N days in a row")
    limit.add_argument("--max-weekend-days", metavar="N", help="at most N Saturdays and Sundays a month")
    limit.add_argument("--share", metavar="N",
                       help="their share of the work, 1 to 100 (2: about twice a teacher with 1; none: 1)")
    limit.add_argument("--slots", metavar="NAMES",
                       help="the lesson slots they can teach, e.g. 1限,2限 (classroom:slot for another classroom's)")
    limit.add_argument("--clear", nargs="?", const="all", choices=CLEARABLE, action="append",
                       help="clear one limit (again for another), or all of them without a name")


def cmd_limits(db: Database, args: argparse.Namespace) -> int:
    from core.roster import limits, membership, rules
    from core.texts import formats

    with db.write() as session:
        teacher = rules.teacher_by_name(session, args.name)
        rooms = membership.classroom_ids(session, teacher.id)
        slots = limits.slot_names(session)
        before = limits.limits_of(session, [teacher.id])[teacher.id]
        after = _changed(args, before, slots, rooms)
        if after != before:
            limits.set_limits(session, teacher.id, after)
        name = teacher.display_name
    if after != before:
        print(words.line("cli.limits.saved", teacher=name))
    for line in lines(after, formats.join(limits.slot_words(after.slots, slots, rooms), words.current())):
        print(line)
    return 0


def _changed(args: argparse.Namespace, before: Limits, slots: Any, rooms: set[int]) -> Limits:
    """The limits the options ask for: `--clear` first, then each option given."""
    from core.roster import limits

    after = before
    for cleared in args.clear or ():
        if cleared == "all":
            after = limits.NONE
        elif cleared == "slots":
            after = replace(after, slots=None)
        else:
            after = replace(after, **{OPTIONS[cleared.replace("-", "_")][0]: None})
    changes: dict[str, Any] = {}
    for option, (name, in_hours) in OPTIONS.items():
        given = getattr(args, option)
        if given is not None:
            changes[name] = (limits.parse_hours if in_hours else limits.parse_count)(given, name)
    if args.slots is not None:
        changes["slots"] = limits.parse_slots(args.slots, slots, rooms)
    return limits.check(replace(after, **changes))


def lines(chosen: Limits, slot_text: str) -> list[str]:
    """The limits in the run's language, one a line; a line saying there are none."""
    from core.roster import limits

    said = [words.say(text) for text in limits.describe(chosen)]
    said.append(words.line("cli.limits.slots", names=slot_text) if slot_text else words.line("cli.limits.all_slots"))
    if chosen.empty:
        said.insert(0, words.line("cli.limits.none"))
    return said
