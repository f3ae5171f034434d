"""The alerts verb: open incidents and those of the last 7 days, as the window's alert list shows them."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from cli import words
from cli.verbs import Subcommands, Verb, now
from core.texts import Text

if TYPE_CHECKING:
    from core.store.db import Database
    from core.store.models import Alert
    from core.store.paths import DataPaths


def add_parsers(sub: Subcommands) -> None:
    alert_list = sub.add_parser("alerts", help="list open incidents and those of the last 7 days")
    alert_list.add_argument("--json", action="store_true")


def _alert_row(a: Alert) -> dict[str, Any]:
    from core import alerts

    title, detail = alerts.title_of(a), alerts.detail_of(a)
    return {
        "id": a.id, "kind": a.kind.value, "scope": a.scope, "open": a.open_key is not None, "title": words.say(title),
        "title_code": title.code if isinstance(title, Text) else None,
        "detail": words.say(detail), "opened_at": a.opened_at.isoformat(), "last_seen_at": a.last_seen_at.isoformat(),
        "cleared_at": a.cleared_at.isoformat() if a.cleared_at else None,
    }


def cmd_alerts(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core import alerts

    with db.read() as session:
        rows = [_alert_row(a) for a in alerts.list_alerts(session, now=now())]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for r in rows:
        state = words.line("cli.alerts.open") if r["open"] else words.line("cli.alerts.cleared")
        print(f"{r['id']:>5}  {state}  {r['opened_at'][:16]}  {r['title']}")
    print(words.line("cli.alerts.summary", open_count=sum(r["open"] for r in rows), count=len(rows)))
    return 0


COMMANDS: dict[str, Verb] = {"alerts": cmd_alerts}
