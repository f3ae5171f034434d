"""The hours verb: a month's hours for payroll per teacher (core/roster/hours.py), as a table on the
terminal in the run's language and, with --csv, as a file for Excel (core/roster/hours_table.py)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from cli import words
from cli.verbs import Subcommands, Verb

if TYPE_CHECKING:
    from core.roster.hours_table import Table
    from core.store.db import Database
    from core.store.paths import DataPaths


def add_parsers(sub: Subcommands) -> None:
    hours = sub.add_parser("hours", help="each teacher's hours of a month for payroll: confirmed shifts only, "
                                         "by classroom and by weekday, Saturday, Sunday or holiday")
    hours.add_argument("--month", required=True, help="YYYY-MM")
    hours.add_argument("--classroom", help="only this classroom (default: every classroom)")
    hours.add_argument("--csv", type=Path, metavar="FILE", help="also write the table to this CSV file for Excel")
    hours.add_argument("--encoding", choices=["utf-8", "shift_jis"], default="utf-8",
                       help="the CSV file's encoding: utf-8 (with BOM, the default) or shift_jis")


def cmd_hours(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.roster import hours, hours_table, rules

    year, month = rules.parse_month(args.month)
    with db.read() as session:
        classroom_id = rules.classroom_by_name(session, args.classroom).id if args.classroom else None
        counted = hours.read_month(session, year, month, classroom_id=classroom_id)
    lang = words.current()
    if args.csv:
        from core.store.exports import write_export

        # Encoded before anything is written, so a name Shift_JIS cannot hold leaves no file behind.
        data = hours_table.csv_bytes(counted, lang, hours_table.Encoding(args.encoding))
        write_export(args.csv, lambda: data)
    table = hours_table.table(counted, lang)
    for line in aligned(table):
        print(line)
    if args.csv:
        print(words.line("cli.wrote", path=str(args.csv)))
    return 0


def aligned(table: Table) -> list[str]:
    """The preamble, a blank line, then the table in columns as wide as a terminal draws them."""
    from core.roster.hours_table import NONE

    if not table.rows:
        return [*table.preamble, "", words.say(NONE)]
    rows = [table.headings, *table.rows]
    widths = [max(words.width(row[i]) for row in rows) for i in range(len(table.headings))]
    return [*table.preamble, "", *("  ".join(words.pad(cell, width, right) for cell, width, right
                                             in zip(row, widths, table.numeric, strict=True)).rstrip()
                                   for row in rows)]


COMMANDS: dict[str, Verb] = {"hours": cmd_hours}
