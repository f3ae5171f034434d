"""The Publish area of a classroom on LINE WORKS alone: it names the classroom's LINE WORKS room as the
month's recipient (not "no LINE group yet"), promises the month at once, and publishing queues it to
the room."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from core.channels import line_works_credentials
from core.channels.line_works_client import KEY
from core.emulator.line_works import WorksStandIn
from core.roster import rooms, rules
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind
from tests import factories as f
from tests.test_ui_publish import WAIT, _answer_yes, _loaded, _view
from tests.ui_fixtures import computer_zone, ctx, documents, settle  # noqa: F401
from tests.worksfixtures import credentials, point_at, teacher_on_works, works  # noqa: F401
from ui.services.context import AppContext


def test_a_classroom_on_line_works_alone_publishes_to_its_room(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                                                                works: WorksStandIn, monkeypatch) -> None:
    line_works_credentials.save(db, credentials())
    point_at(db, works)
    with db.write() as s:
        room = f.classroom(s)
        rooms.set_room(s, room.id, KEY, "room-1")
        f.shift(s, room, rules.get_teacher(s, teacher_on_works(s, "佐藤", 1)), dt.date(2026, 12, 3), now=now)
    ctx.clock = lambda: now
    view = _view(qtbot, ctx)
    _loaded(qtbot, ctx, view)
    assert view.recipients_label.text() == "本校's LINE WORKS room"
    assert view.recipients_label.toolTip() == "LINE WORKS: room-1"
    assert view.promise_label.text() == "The month goes to the classroom's group as soon as you publish."
    # No LINE group: no LINE members or LINE messages counted, and the preview is the room's one picture.
    assert view.members_label.text() == "none: no LINE group; the month goes to the room above"
    assert view.cost_label.text() == "none: no LINE message is sent"
    qtbot.waitUntil(lambda: view.preview_form.text() == "As one picture of the month's grid, to the classroom's "
                    "LINE WORKS room", timeout=WAIT)
    assert "LINE group" not in view.preview_form.text()
    _answer_yes(monkeypatch)
    view.publish_button.click()

    def queued() -> list[str]:
        with db.read() as s:
            return list(s.scalars(select(Delivery.channel).where(Delivery.kind == DeliveryKind.SHIFT_PUBLICATION)))
    qtbot.waitUntil(lambda: queued() == [KEY], timeout=WAIT)
