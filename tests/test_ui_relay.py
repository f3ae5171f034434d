"""Settings → Always on (ui/settings/relay.py) against the Cloudflare stand-in and the LINE emulator: the
token pasted into the keyring, Deploy showing each step in Japanese as it runs, the relay's address and
version, Remove after asking; and the section read whole in Japanese on a 1280×720 screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMessageBox

from core.emulator import LineEmulator
from core.setup import relay_state
from core.setup.relay_bundle import load
from core.setup.relay_deploy import DEPLOY_STEPS, REMOVE_STEPS
from core.store.db import Database
from core.texts import render
from tests.cloudflare_standin import CloudflareStandIn
from tests.test_i18n import japanese  # noqa: F401
from tests.test_relay_deploy import EARLIER, cloudflare, line  # noqa: F401
from tests.test_relay_deploy import pytestmark as STANDIN
from tests.test_ui_wrapped_text import cut
from tests.ui_fixtures import ctx, settle  # noqa: F401
from tests.waiting import PATIENCE_MS
from ui.services.context import AppContext
from ui.settings.relay import RelaySection
from ui.settings.view import SettingsView


def _section(qtbot, ctx: AppContext) -> RelaySection:
    section = RelaySection(ctx)
    qtbot.addWidget(section)
    section.show()
    qtbot.waitExposed(section)
    settle(qtbot, ctx, timeout=PATIENCE_MS)
    return section


@STANDIN[0]
@STANDIN[1]
def test_always_on_deploys_step_by_step_and_removes_after_asking(
        qtbot, ctx: AppContext, db: Database, cloudflare: CloudflareStandIn, line: LineEmulator, japanese: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    section = _section(qtbot, ctx)
    assert section.status.text() == "中継サーバーは設置されていません。" and not section.remove.isEnabled()

    token = cloudflare.add_token()
    section.token.setText(token)
    qtbot.mouseClick(section.save_token, Qt.MouseButton.LeftButton)
    settle(qtbot, ctx, timeout=PATIENCE_MS)
    assert relay_state.cloudflare_token() == token and section.token.text() == ""

    qtbot.mouseClick(section.deploy, Qt.MouseButton.LeftButton)
    settle(qtbot, ctx, timeout=PATIENCE_MS)
    qtbot.waitUntil(lambda: section.status.url is not None)
    lines = section.steps.text().splitlines()
    assert lines == [f"✓ {render(step.words, 'ja')}" for step in DEPLOY_STEPS]
    url = relay_state.relay_url(db)
    assert section.status.url == url and load().relay_version in section.status.text()
    assert line.webhook_endpoint == f"{url}/line/webhook"

    asked: list[str] = []

    def yes(parent, title, text, *args, **kwargs):
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", yes)
    qtbot.mouseClick(section.remove, Qt.MouseButton.LeftButton)
    settle(qtbot, ctx, timeout=PATIENCE_MS)
    assert len(asked) == 1 and "削除" in asked[0]
    qtbot.waitUntil(lambda: section.status.text() == "中継サーバーは設置されていません。")
    assert section.steps.text().splitlines() == [f"✓ {render(step.words, 'ja')}" for step in REMOVE_STEPS]
    assert cloudflare.scripts == {} and cloudflare.databases == {} and line.webhook_endpoint == EARLIER


@STANDIN[0]
@STANDIN[1]
def test_a_refused_token_is_said_in_the_section(qtbot, ctx: AppContext, cloudflare: CloudflareStandIn,
                                               line: LineEmulator, japanese: Path) -> None:
    relay_state.set_cloudflare_token(cloudflare.add_token(frozenset({"d1:edit", "account_settings:read"})))
    section = _section(qtbot, ctx)
    qtbot.mouseClick(section.deploy, Qt.MouseButton.LeftButton)
    settle(qtbot, ctx, timeout=PATIENCE_MS)
    qtbot.waitUntil(lambda: section.status.problem_shown)
    assert "Cloudflare のAPIトークンに" in section.status.text() and section.deploy.isEnabled()
    assert cloudflare.databases == {}


def test_always_on_is_read_whole_in_japanese_at_1280_by_720(qtbot, ctx: AppContext, japanese: Path) -> None:
    view = SettingsView(ctx)
    qtbot.addWidget(view)
    view.resize(1280, 720)
    view.show()
    qtbot.waitExposed(view)
    settle(qtbot, ctx, timeout=PATIENCE_MS)
    view.show_section("relay")
    section = view.relay
    assert section.title() == "常時稼働"
    labels = [label for label in section.findChildren(QLabel) if label.isVisible() and label.wordWrap() and label.text()]
    assert len(labels) >= 3
    assert not any(cut(label) for label in labels)
    for button in (section.open_link, section.save_token, section.deploy, section.remove):
        assert button.width() >= button.sizeHint().width()  # no button cut
    assert section.width() <= 1280
