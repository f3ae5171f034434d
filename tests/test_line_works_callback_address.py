"""Settings → LINE WORKS says the callback address to enter for the bot in the Developer Console: where
Shiftcast receives (the owner's own address, or the address its receiving is reachable at now) followed
by LINE WORKS' callback path; until Shiftcast receives, it says how it comes to."""

from __future__ import annotations

from core.receiving import line_works_callback
from core.receiving.address import QuickTunnel
from core.setup import receiving
from core.setup.receiving import ReceivingState
from core.store import setting_keys as keys
from core.store.db import Database
from tests.test_ui_settings import open_view
from tests.ui_fixtures import ctx, settle  # noqa: F401 - fixtures
from tests.waiting import PATIENCE_MS
from ui.services.context import AppContext
from ui.settings.line_works import LineWorksSection

PATH = line_works_callback.PATH


def test_the_callback_address_is_the_receiving_s_own_address_or_the_one_it_runs_at(db: Database) -> None:
    assert receiving.callback_address(db, PATH) is None  # nowhere chosen: not receiving
    with db.write() as s:
        keys.LINE_RECEIVE_ADDRESS.write(s, "own")
        keys.LINE_RECEIVE_OWN_URL.write(s, "https://shifts.example.jp/hook/")
    assert receiving.callback_address(db, PATH) == "https://shifts.example.jp/hook/line-works/callback"
    with db.write() as s:
        keys.LINE_RECEIVE_ADDRESS.write(s, QuickTunnel.name)
    assert receiving.callback_address(db, PATH) is None  # a tunnel's address is known once it runs
    running = ReceivingState("https://a-b-c.trycloudflare.com/line/webhook")
    assert receiving.callback_address(db, PATH, running) == "https://a-b-c.trycloudflare.com/line-works/callback"


def test_settings_shows_the_callback_address_to_enter(qtbot, ctx: AppContext, db: Database) -> None:
    view = open_view(qtbot, ctx)
    section: LineWorksSection = view.line_works
    qtbot.waitUntil(lambda: section.isVisible() and section.callback.text() != "", timeout=PATIENCE_MS)
    assert section.callback.text().startswith("Not known yet: Shiftcast is not receiving.")
    with db.write() as s:
        keys.LINE_RECEIVE_ADDRESS.write(s, "own")
        keys.LINE_RECEIVE_OWN_URL.write(s, "https://shifts.example.jp")
    section.reload()
    qtbot.waitUntil(lambda: section.callback.text() == "https://shifts.example.jp/line-works/callback",
                    timeout=PATIENCE_MS)
