"""`shiftcast cover …` as a real process: the manager lists the requests for cover, calls for
volunteers, assigns and declines (with a reason, which the teacher who asked is sent), in English or
Japanese."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from core.roster import cover
from core.store.db import Database
from core.store.kinds import CoverState, DeliveryKind, ShiftStatus
from core.store.models import Delivery, Shift
from core.store.paths import DataPaths
from tests import factories as f
from tests.test_cli_process import _main

pytestmark = pytest.mark.slow  # every test here starts real processes

NOW = dt.datetime.now(dt.UTC)


def test_the_manager_lists_calls_assigns_and_declines_from_the_command_line(paths: DataPaths, db: Database) -> None:
    day = (NOW + dt.timedelta(days=3)).date()
    with db.write() as s:
        room = f.classroom(s, "本校")
        asking, free, other = (f.teacher(s, name, n) for n, name in enumerate(("青木", "井上", "上田"), start=1))
        shifts = [f.shift(s, room, asking, day, start, end, now=NOW, status=ShiftStatus.CONFIRMED)
                  for start, end in (("10:00", "12:00"), ("16:00", "18:00"))]
        first = cover.ask(s, shifts[0].id, asking.id, now=NOW, reason="通院")
        second = cover.ask(s, shifts[1].id, asking.id, now=NOW)
        ids = (first.id, second.id, shifts[0].id, free.id, other.id, asking.id)
    db.dispose()

    listed = _main(paths.home, "--lang", "ja", "cover", "list")
    assert listed.returncode == 0, listed.stderr
    assert f"#{ids[0]}［未対応］青木" in listed.stdout and "通院" in listed.stdout and "代講の依頼：2件" in listed.stdout

    refused = _main(paths.home, "cover", "call", str(ids[0]), "--to-group")
    assert refused.returncode != 0 and "has no LINE group" in refused.stderr
    called = _main(paths.home, "cover", "call", str(ids[0]), "--teacher", "上田")
    assert called.returncode == 0, called.stderr
    assert "goes out in 1 message" in called.stdout

    assigned = _main(paths.home, "cover", "assign", str(ids[0]), "井上")
    assert assigned.returncode == 0, assigned.stderr
    declined = _main(paths.home, "--lang", "ja", "cover", "decline", str(ids[1]), "--reason", "他の先生が入れません")
    assert declined.returncode == 0 and "見送りました" in declined.stdout and "お知らせが届きます" in declined.stdout
    again = _main(paths.home, "cover", "assign", str(ids[1]), "上田")
    assert again.returncode != 0 and "declined already" in again.stderr

    with db.read() as s:
        shift = s.get(Shift, ids[2])
        assert shift is not None and shift.teacher_id == ids[3]
        assert [v.state for v in cover.requests(s, still_open=False)] == [CoverState.ASSIGNED, CoverState.DECLINED]
        calls = s.scalars(select(Delivery).where(Delivery.kind == DeliveryKind.COVER_CALL)).all()
        assert [(d.teacher_id, d.subject_id) for d in calls] == [(ids[4], ids[0])]
        told = s.scalars(select(Delivery).where(Delivery.kind == DeliveryKind.COVER_DECLINED)).all()
        assert [(d.teacher_id, d.subject_id, d.channel) for d in told] == [(ids[5], ids[1], "line")]
        assert cover.request(s, ids[1]).decline_reason == "他の先生が入れません"
    assert "0 requests for cover" in _main(paths.home, "cover", "list").stdout
