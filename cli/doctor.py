"""The doctor verb (alias check): will the teachers get their messages? One line per requirement of
core/setup/readiness.py with its mark and what fixes it; exit 1 when something blocks sending."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from cli import words
from cli.verbs import EXIT_FAILED, Subcommands, Verb, now, print_json

if TYPE_CHECKING:
    from core.setup.readiness import Requirement
    from core.store.db import Database
    from core.store.paths import DataPaths

HELP = "check whether the teachers will get their messages, and what to fix"
DESCRIPTION = ("Checks everything between Shiftcast and the teachers' reminders: the LINE connection and the "
               "keyring, whether LINE can reach Shiftcast (what the app last recorded, and where LINE says its "
               "webhook points: the one question asked of LINE), each classroom's LINE group, the teachers who can "
               "be reached, image hosting, start at login and a running sender. Exit status: 0 when nothing blocks "
               "sending (warnings allowed), 1 when something does.")

# A requirement's state → its mark on the terminal.
MARKS = {"ok": "cli.doctor.ok", "warning": "cli.doctor.warning", "blocking": "cli.doctor.blocking"}


def add_parsers(sub: Subcommands) -> None:
    doctor = sub.add_parser("doctor", aliases=["check"], help=HELP, description=DESCRIPTION)
    doctor.add_argument("--json", action="store_true")


def _row(r: Requirement) -> dict[str, Any]:
    return {"key": r.key, "state": r.state.value, "says": words.say(r.says), "code": r.says.code,
            "fix": r.fix.value if r.fix is not None else None,
            "fix_says": words.say(r.fix_says) if r.fix_says is not None else None,
            "details": [words.say(d) for d in r.details]}


def cmd_doctor(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.app import autostart
    from core.setup import readiness, receiving

    # This process does not receive: the window's or the tray's receiving recorded its state, and LINE
    # says where its webhook points.
    reach = readiness.receiving_facts(db, line_endpoint=receiving.line_endpoint(db))
    found = readiness.check(db, now=now(), autostart=autostart.enabled_or_unknown(), receiving_now=reach)
    blocked = readiness.blocking(found)
    if args.json:
        print_json({"ready": readiness.ready(found), "blocking": blocked,
                    "summary": words.say(readiness.summary(found)), "requirements": [_row(r) for r in found]})
        return EXIT_FAILED if blocked else 0
    for r in found:
        print(f"[{words.line(MARKS[r.state.value])}] {words.say(r.says)}")
        for detail in r.details:
            print(f"    - {words.say(detail)}")
        if r.state is not readiness.State.OK and r.fix_says is not None:
            print(f"    {words.line('cli.doctor.fix', fix=r.fix_says)}")
    print(words.say(readiness.summary(found)))
    return EXIT_FAILED if blocked else 0


COMMANDS: dict[str, Verb] = {"doctor": cmd_doctor, "check": cmd_doctor}
