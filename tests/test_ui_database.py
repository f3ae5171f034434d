"""Settings → Database and the banner of an unreachable server, on a real PostgreSQL."""

from __future__ import annotations

import datetime as dt

import keyring
import pytest
from PySide6.QtWidgets import QMessageBox
from sqlalchemy import func, select, text

from core.outbox import queue
from core.setup.database import ServerAddress
from core.store.db import Database, ServerUnreachable
from core.store.models import DeliveryKind, Teacher
from core.store.paths import DataPaths, read_database_choice
from core.store.secrets import DATABASE_PASSWORD, SERVICE
from tests import factories
from tests.pgserver import PgServer
from tests.test_database_server import own_server  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.settings import database as settings_database
from ui.settings.database import DatabaseSection
from ui.shell.database_banner import DatabaseBanner


def section_for(qtbot, ctx: AppContext, url: str) -> DatabaseSection:
    section = DatabaseSection(ctx)
    qtbot.addWidget(section)
    settle(qtbot, ctx)
    address = ServerAddress.from_url(url)
    assert address is not None
    section.server.setChecked(True)
    section.host.setText(address.host)
    section.port.setValue(address.port)
    section.name.setText(address.database)
    section.user.setText(address.user)
    section.password.setText("pw-for-keyring")
    return section


def answer_dialog(monkeypatch: pytest.MonkeyPatch, button: str) -> list[str]:
    asked: list[str] = []

    def exec_(self: QMessageBox) -> int:
        asked.append(self.text())
        return 0

    monkeypatch.setattr(QMessageBox, "exec", exec_)
    monkeypatch.setattr(QMessageBox, "clickedButton", lambda self: next(b for b in self.buttons() if b.text() == button))
    return asked


def test_the_section_starts_on_the_local_file_with_the_server_fields_off(qtbot, ctx: AppContext) -> None:
    section = DatabaseSection(ctx)
    qtbot.addWidget(section)
    settle(qtbot, ctx)
    assert section.local.isChecked() and not section.host.isEnabled()
    section.server.setChecked(True)
    assert section.host.isEnabled() and section.password.echoMode() == section.password.EchoMode.Password


def test_testing_a_server_says_what_it_found(qtbot, ctx: AppContext, pg_empty_url: str) -> None:
    section = section_for(qtbot, ctx, pg_empty_url)
    section.test.click()
    settle(qtbot, ctx)
    assert "The database is empty" in section.status.text() and not section.status.problem_shown


def test_saving_a_server_keeps_the_url_and_the_password_apart_and_offers_a_restart(
        qtbot, ctx: AppContext, paths: DataPaths, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    restarts: list[bool] = []
    monkeypatch.setattr(settings_database, "restart_app", lambda: restarts.append(True))
    asked = answer_dialog(monkeypatch, "Restart now")
    section = section_for(qtbot, ctx, pg_url)
    section.use.click()
    settle(qtbot, ctx)
    assert read_database_choice(paths) == pg_url
    assert "pw-for-keyring" not in paths.database_config.read_text(encoding="utf-8")
    assert keyring.get_password(SERVICE, DATABASE_PASSWORD) == "pw-for-keyring"
    assert asked and "next start" in asked[0] and restarts == [True]
    again = DatabaseSection(ctx)  # the saved choice is shown when Settings opens again
    qtbot.addWidget(again)
    settle(qtbot, ctx)
    assert again.server.isChecked() and again.password.text() == "pw-for-keyring"


def test_a_server_with_a_newer_schema_is_refused(qtbot, ctx: AppContext, paths: DataPaths, pg_url: str) -> None:
    server = Database(pg_url)
    with server.write() as s:
        s.execute(text("UPDATE alembic_version SET version_num = '9999_future'"))
    server.dispose()
    section = section_for(qtbot, ctx, pg_url)
    section.use.click()
    settle(qtbot, ctx)
    assert section.status.problem_shown and "newer Shiftcast" in section.status.text()
    assert read_database_choice(paths) is None


def test_copying_up_fills_an_empty_server_once(qtbot, ctx: AppContext, pg_empty_url: str, now: dt.datetime,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    with ctx.db.write() as s:
        room = factories.classroom(s)
        for n in range(1, 4):
            factories.shift(s, room, factories.teacher(s, name=f"講師{n}", n=n), dt.date(2026, 12, n + 1), now=now)
        queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="r", due_at=now, now=now)
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    section = section_for(qtbot, ctx, pg_empty_url)
    section.copy.click()
    settle(qtbot, ctx)
    assert "Copied" in section.status.text() and not section.status.problem_shown
    server = Database(pg_empty_url)
    try:
        with server.read() as s:
            assert s.execute(select(func.count()).select_from(Teacher)).scalar_one() == 3
    finally:
        server.dispose()
    section.copy.click()  # a second copy finds data there and copies nothing
    settle(qtbot, ctx)
    assert section.status.problem_shown and "already has data" in section.status.text()


def test_the_banner_shows_while_the_server_is_down_and_clears_when_it_is_back(
        qtbot, qapp, paths: DataPaths, own_server: PgServer) -> None:
    from ui.services.bridge import CoreBridge
    from ui.services.tasks import Tasks

    db = Database(own_server.create_database(template=PgServer.MIGRATED))
    context = AppContext(paths=paths, db=db, tasks=Tasks(), bridge=CoreBridge(db.events))
    try:
        banner = DatabaseBanner(context)
        qtbot.addWidget(banner)
        banner.check()
        settle(qtbot, context)
        assert not banner.unreachable
        own_server.pause()
        banner.check()
        settle(qtbot, context)
        assert banner.unreachable and "cannot be reached" in banner.label.text()
        refused: list[BaseException] = []

        def edit() -> None:
            with db.write() as s:
                factories.classroom(s, name="分校")

        context.tasks.run(edit, on_error=refused.append, owner=banner)
        settle(qtbot, context)
        assert refused and isinstance(refused[0], ServerUnreachable)
        own_server.resume()
        banner.check()
        settle(qtbot, context)
        assert not banner.unreachable
        context.tasks.run(edit, owner=banner)
        settle(qtbot, context)
        with db.read() as s:
            assert s.execute(text("SELECT count(*) FROM classrooms")).scalar_one() == 1
    finally:
        context.tasks.wait()
        context.tasks.shutdown()
        db.dispose()


def test_choosing_the_local_file_again_forgets_the_server(qtbot, ctx: AppContext, paths: DataPaths,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from core.store.paths import write_database_choice

    write_database_choice(paths, ServerAddress("db.example", 5432, "chain", "manager").url())
    restarts: list[bool] = []
    monkeypatch.setattr(settings_database, "restart_app", lambda: restarts.append(True))
    answer_dialog(monkeypatch, "Later")
    section = DatabaseSection(ctx)
    qtbot.addWidget(section)
    settle(qtbot, ctx)
    assert section.server.isChecked() and section.host.text() == "db.example"
    section.local.setChecked(True)
    section.use.click()
    settle(qtbot, ctx)
    assert read_database_choice(paths) is None and not paths.database_config.exists()
    assert paths.database_url() == paths.local_database_url()
    assert restarts == []  # "Later": nothing restarted
