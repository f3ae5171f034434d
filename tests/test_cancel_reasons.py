"""Cancel reasons are one enum (core.outbox.policy.CancelReason) whose values are the codes already
stored; nothing raises or stores a reason that is not one of them."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest

from core.outbox import deliveries, queue
from core.outbox.policy import CancelReason
from core.sending.outgoing import CancelDelivery
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus

ROOT = Path(__file__).resolve().parent.parent


def test_the_stored_codes_are_the_names() -> None:
    assert all(reason.value == reason.name for reason in CancelReason)
    # Rows written before the enum still compare equal to it.
    assert CancelReason.SUPERSEDED == "SUPERSEDED" and CancelReason("UNREACHABLE") is CancelReason.UNREACHABLE


def test_a_check_may_give_a_known_code_as_text_but_never_an_unknown_one() -> None:
    assert CancelDelivery("SHIFT_CHANGED").reason is CancelReason.SHIFT_CHANGED
    assert CancelDelivery(CancelReason.NO_GROUP).reason is CancelReason.NO_GROUP
    with pytest.raises(ValueError):
        CancelDelivery("SHIFT_CHANGD")


def _reasons_written_out(path: Path) -> list[tuple[int, str]]:
    """Cancel reasons given as text: CancelDelivery("…") and cancel_reason="…"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        given = [node.args[0]] if name == "CancelDelivery" and node.args else []
        given += [k.value for k in node.keywords if k.arg == "cancel_reason"]
        found += [(node.lineno, g.value) for g in given if isinstance(g, ast.Constant) and isinstance(g.value, str)]
    return found


def test_every_reason_raised_anywhere_is_a_member() -> None:
    known = {r.value for r in CancelReason}
    unknown = [(str(p.relative_to(ROOT)), line, text) for p in sorted((ROOT / "core").rglob("*.py"))
               for line, text in _reasons_written_out(p) if text not in known]
    assert unknown == []


def test_reasons_are_given_as_members_not_text() -> None:
    as_text = [(str(p.relative_to(ROOT)), line, text) for top in ("core", "cli", "ui")
               for p in sorted((ROOT / top).rglob("*.py"))
               for line, text in _reasons_written_out(p)]
    assert as_text == []


def test_a_manager_cancel_stores_the_member_value(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        delivery_id, _ = queue.enqueue(s, kind=DeliveryKind.ALERT, dedup="alert:1:0", due_at=now, now=now,
                                       recipient="webhook")
        deliveries.cancel(s, delivery_id, now=now)
    with db.read() as s:
        d = s.get(Delivery, delivery_id)
        assert d is not None and (d.status, d.cancel_reason) == (DeliveryStatus.CANCELED, "MANAGER")
        assert type(d.cancel_reason) is str  # plain text in the column, as before
