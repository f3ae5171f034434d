"""`shiftcast draft --classroom NAME --month YYYY-MM`: a classroom's month drafted from the database (the
availability answers, weekly patterns, staffing needs and teachers' limits), printed per teacher with what it
changes against the current drafts and every uncovered need with why; `--apply` writes it as drafts, which
teachers hear of only when the month is confirmed; `--json` prints the same as JSON."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from cli import words
from cli.verbs import now, print_json

if TYPE_CHECKING:
    from core.planning.draft_month import DraftMonth
    from core.planning.drafted import MonthDraft
    from core.roster.draft_changes import Changes
    from core.store.db import Database

DEFAULT_SECONDS = 30


def cmd_month(db: Database, args: argparse.Namespace) -> int:
    from core.drafting import solver
    from core.planning import draft_month, from_roster
    from core.roster import draft_changes, rules

    year, month = rules.parse_month(args.month)
    replace = not args.keep_drafts
    moment = now()
    with db.read() as session:
        room = rules.classroom_by_name(session, args.classroom)
        ids = draft_month.sharing(session, room.id) if args.shared else [room.id]
        wanted = draft_month.read(session, ids, year, month, unanswered=args.unanswered, replace_drafts=replace,
                                  now=moment)
        current = draft_changes.current_drafts(session, ids, year, month, now=moment)
    drafted = from_roster.draft(wanted, float(args.time_limit or DEFAULT_SECONDS), lambda _: None, solver.Stopper())
    changes = draft_changes.compare(current, drafted.proposed, replace_drafts=replace)
    if args.apply and not changes.empty:
        with db.write() as session:
            draft_changes.apply_changes(session, changes, now=now())
    if args.json:
        print_json(_as_json(wanted, drafted, changes, applied=args.apply))
    else:
        _print(wanted, drafted, changes, applied=args.apply)
    return 0


def _print(wanted: DraftMonth, drafted: MonthDraft, changes: Changes, *, applied: bool) -> None:
    from core.texts import t
    from core.texts.formats import day_text

    lang = words.current()
    print(words.line("cli.draft.summary", shifts=t("cli.draft.shifts", count=len(drafted.proposed)),
                     uncovered=t("cli.draft.left", count=drafted.missing),
                     status=t(f"cli.draft.status.{drafted.status}")))
    if drafted.status != "optimal" and drafted.gap is not None:
        print(words.line("cli.draft.gap", percent=round(drafted.gap * 100, 1)))
    rooms = {room.classroom_id: room.name for room in wanted.rooms}
    added = {(d.teacher_id, d.local_date, d.start_time) for d in changes.added}
    for teacher in wanted.teachers:
        mine = [d for d in drafted.proposed if d.teacher_id == teacher.teacher_id]
        if not mine:
            continue
        print(words.line("cli.draft.teacher", teacher=teacher.name, count=len(mine)))
        for d in mine:
            mark = words.line("cli.draft.new") if (d.teacher_id, d.local_date, d.start_time) in added else ""
            where = rooms[d.classroom_id] if len(rooms) > 1 else ""
            print("  " + " ".join(p for p in (day_text(d.local_date, lang), f"{d.start_time:%H:%M}–{d.end_time:%H:%M}",
                                              where, mark) if p))
    print(words.line("cli.draft.changes", added=len(changes.added), removed=len(changes.removed),
                     unchanged=len(changes.unchanged)))
    for gap in drafted.gaps:
        slot = f"{rooms[gap.classroom_id]} {gap.slot}" if len(rooms) > 1 else gap.slot
        print(words.line("cli.draft.uncovered", day=day_text(gap.day, lang), slot=slot, count=gap.missing,
                         why=words.say(gap.why)))
    if applied:
        print(words.line("cli.draft.applied", added=len(changes.added), removed=len(changes.removed)))


def _as_json(wanted: DraftMonth, drafted: MonthDraft, changes: Changes, *, applied: bool) -> dict[str, Any]:
    rooms = {room.classroom_id: room.name for room in wanted.rooms}
    names = {teacher.teacher_id: teacher.name for teacher in wanted.teachers}
    added = set(changes.added)

    def shift(d: Any) -> dict[str, Any]:
        return {"teacher": names.get(d.teacher_id, ""), "teacher_id": d.teacher_id, "classroom": rooms.get(d.classroom_id, ""),
                "day": d.local_date.isoformat(), "start": f"{d.start_time:%H:%M}", "end": f"{d.end_time:%H:%M}"}

    return {
        "month": f"{wanted.year:04d}-{wanted.month:02d}",
        "classrooms": list(rooms.values()),
        "status": drafted.status,
        "gap": drafted.gap,
        "shifts": [shift(d) | {"new": d in added} for d in drafted.proposed],
        "removed": [shift(d) for _, d in changes.removed],
        "unchanged": len(changes.unchanged),
        "uncovered": [{"classroom": rooms[g.classroom_id], "day": g.day.isoformat(), "slot": g.slot,
                       "missing": g.missing, "why": words.say(g.why)} for g in drafted.gaps],
        "uncovered_total": drafted.missing,
        "applied": applied,
    }
