"""The app shell: tray or no tray, single instance, smoke start."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, cast

import pytest
from PySide6.QtCore import QObject
from PySide6.QtGui import QIcon
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

from core.sending.engine import Engine
from core.store import setting_keys as keys
from core.store import settings
from core.store.paths import DataPaths
from tests.test_i18n import japanese  # noqa: F401
from tests.ui_fixtures import ctx, running_app, settle  # noqa: F401
from tests.waiting import PATIENCE_MS
from ui.services.context import AppContext
from ui.shell.app import Shell, run_gui
from ui.shell.single_instance import SingleInstance


class _Quit:
    def __init__(self, app: QApplication, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        monkeypatch.setattr(app, "exit", self)

    def __call__(self, code: int = 0) -> None:
        assert code == 0
        self.calls += 1


def test_without_a_tray_closing_the_window_quits(qtbot, ctx: AppContext, monkeypatch: pytest.MonkeyPatch) -> None:
    app = running_app()
    quit_calls = _Quit(app, monkeypatch)
    shell = Shell(app, ctx, QIcon(), tray_available=False)
    window = shell.open_window()
    qtbot.addWidget(window)
    window.close()
    assert quit_calls.calls == 1 and shell.quitting


def test_with_a_tray_closing_hides_and_keeps_sending(qtbot, ctx: AppContext, monkeypatch: pytest.MonkeyPatch) -> None:
    app = running_app()
    quit_calls = _Quit(app, monkeypatch)
    ctx.engine = Engine(ctx.db, ctx.paths)  # an engine that would send (not started: no threads needed)
    shell = Shell(app, ctx, QIcon(), tray_available=True)
    hints: list[int] = []
    assert shell.tray is not None
    monkeypatch.setattr(shell.tray, "say_still_running", lambda: hints.append(1))
    window = shell.open_window()
    qtbot.addWidget(window)
    window.close()
    assert quit_calls.calls == 0 and not window.isVisible()
    shell.open_window()
    window.close()
    assert hints == [1]  # said once, the first time only
    with ctx.db.read() as s:
        assert settings.get(s, keys.UI_TRAY_HINT_SHOWN.name) == "yes"
    shell.tray.quit_action.trigger()
    assert quit_calls.calls == 1
    settle(qtbot, ctx)


def test_tray_menu_pause_send_now_and_counts(qtbot, ctx: AppContext) -> None:
    from ui.shell.tray import Tray

    tray = Tray(ctx, QIcon(), open_window=lambda: None, quit_app=lambda: None)
    settle(qtbot, ctx)
    assert tray.counts_action.text().startswith("Waiting 0")
    assert not tray.pause_action.isEnabled()  # nothing sends in this context


def _hand_over_from_another_process(paths: DataPaths) -> subprocess.Popen[str]:
    """A second start, as a process of its own (as a second launch is): it waits for the first's
    answer, which the first gives from its event loop (this test's), and prints whether it came."""
    code = ("from pathlib import Path\n"
            "from PySide6.QtCore import QCoreApplication\n"
            "from core.store.paths import DataPaths\n"
            "from ui.shell.single_instance import SingleInstance\n"
            "app = QCoreApplication([])\n"
            f"print(SingleInstance(DataPaths(Path({str(paths.home)!r}))).hand_over({PATIENCE_MS}), flush=True)\n")
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})


def _answered(qtbot, second: subprocess.Popen[str]) -> bool:
    """The second start's verdict; this test's event loop runs meanwhile, so the first can answer."""
    qtbot.waitUntil(lambda: second.poll() is not None)
    out, _ = second.communicate()
    return out.strip() == "True"


def test_second_launch_hands_over_to_the_first(qtbot, paths: DataPaths) -> None:
    first = SingleInstance(paths)
    assert first.listen()
    try:
        with qtbot.waitSignal(first.activated):
            second = _hand_over_from_another_process(paths)
        assert _answered(qtbot, second)  # the first answered: the second may exit
    finally:
        first.close()
    assert not SingleInstance(paths).hand_over()  # nobody listens any more


def test_only_the_holder_of_the_folder_listens_and_nobody_removes_its_socket(qtbot, paths: DataPaths) -> None:
    first = SingleInstance(paths)
    assert first.listen()
    second = SingleInstance(paths)
    try:
        assert not second.claim() and not second.listen()  # it must hand over instead
        with qtbot.waitSignal(first.activated):
            answer = _hand_over_from_another_process(paths)  # the first's socket still serves
        assert _answered(qtbot, answer)
    finally:
        second.close()
        first.close()
    assert second.listen()  # once the first let go, the folder's window is free to take
    second.close()


def test_a_holder_that_never_answers_is_reported_after_the_patience(paths: DataPaths) -> None:
    from ui.shell.single_instance import Start

    holder = SingleInstance(paths)
    assert holder.claim()  # holds the folder but does not listen (stuck while starting)
    ticks = iter(range(0, 1000, 10))
    try:
        assert SingleInstance(paths).claim_or_hand_over(patience_s=30, clock=lambda: float(next(ticks))) \
            is Start.NO_ANSWER
    finally:
        holder.close()
    assert SingleInstance(paths).claim_or_hand_over(patience_s=30) is Start.HOLDS  # free again: the start holds it


def test_smoke_start_prints_one_json_line(qtbot, paths: DataPaths, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_gui(argparse.Namespace(home=paths.home, smoke=True, command=None)) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    report = json.loads(line)
    assert report["smoke"] == "ok" and report["tabs"] == 4 and report["startup_ms"] > 0
    assert paths.database.exists()


@pytest.mark.parametrize(("given", "computer", "saved", "demo_word"),
                         [("en", "ja_JP.UTF-8", "ja", "DEMO"), ("ja", "en_US.UTF-8", "en", "デモ")])
def test_lang_on_the_command_line_wins_for_the_window_and_is_not_saved(
        qtbot, qapp, paths: DataPaths, db, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, given: str, computer: str, saved: str, demo_word: str) -> None:
    from ui.common import i18n

    monkeypatch.setenv("LANG", computer)
    with db.write() as s:
        keys.UI_LANGUAGE.write(s, saved)
    try:
        assert run_gui(argparse.Namespace(home=paths.home, smoke=True, command=None, lang=given)) == 0
        assert i18n.current() == given  # neither the saved choice nor the computer's
        with db.read() as s:
            assert keys.UI_LANGUAGE.read(s) == saved  # for this run only
        # `shiftcast --lang … demo`: the demo's own database saves no language, the locale says the other one.
        assert run_gui(argparse.Namespace(home=tmp_path / "demo home", smoke=True, command="demo", lang=given)) == 0
        report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert report["window"].endswith(f" — {demo_word}"), report
    finally:
        i18n.install(qapp, "en", tmp_path)


def test_the_demo_process_gets_a_demo_folder_and_none_of_this_windows_secrets_or_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from core.app import demo
    from ui.shell import app as ui_app

    # A stand-in for the interpreter (or the frozen app): it writes its arguments and its environment.
    stand_in = tmp_path / "bin" / "python"
    stand_in.parent.mkdir()
    stand_in.write_text('#!/bin/sh\nhere="$(dirname "$0")"\nprintf "%s\\n" "$@" > "$here/arguments"\n'
                        'env -0 > "$here/environment.part" && mv "$here/environment.part" "$here/environment"\n')
    stand_in.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(stand_in))
    for name, value in {"SHIFTCAST_LINE_TOKEN": "real-token", "SHIFTCAST_SMTP_PASSWORD": "real-password",
                        "SHIFTCAST_LINE_CHANNEL_SECRET": "real-secret", "SHIFTCAST_LINE_ACK_KEY": "real-key",
                        "SHIFTCAST_DB_URL": "postgresql+psycopg://shiftcast:real-pw@db.invalid/shiftcast",
                        "DISPLAY": ":7"}.items():
        monkeypatch.setenv(name, value)
    chosen = tmp_path / "chosen home"
    assert ui_app.start_demo_process(chosen)
    written = tmp_path / "bin" / "environment"
    deadline = time.monotonic() + 60
    while not written.exists():  # the signal: the stand-in wrote what it was given
        assert time.monotonic() < deadline, "the demo process did not start"
        QTest.qWait(20)
    arguments = (tmp_path / "bin" / "arguments").read_text().splitlines()
    assert arguments[-5:] == ["--lang", "en", "--home", str(chosen), "demo"]  # the demo speaks this window's language
    assert demo.demo_home(chosen) == chosen / "demo"  # where that process then keeps its data
    seen = dict(entry.split("=", 1) for entry in written.read_text().split("\0") if "=" in entry)
    assert [name for name in seen if name.startswith("SHIFTCAST_")] == []  # nor the real database's URL
    assert seen["DISPLAY"] == ":7" and seen["PATH"] == os.environ["PATH"]  # what a window needs stays


@pytest.mark.slow  # a real main.py --smoke demo process
def test_the_demo_never_opens_the_database_shiftcast_db_url_names(tmp_path: Path) -> None:
    """Started from a shell where SHIFTCAST_DB_URL points at the real data, the demo keeps to its own file."""
    root = Path(__file__).resolve().parent.parent
    env = os.environ | {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring", "QT_QPA_PLATFORM": "offscreen"}
    real = tmp_path / "real"
    made = subprocess.run([sys.executable, "main.py", "--home", str(real), "add-classroom", "本校"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    env["SHIFTCAST_DB_URL"] = f"sqlite:///{(real / 'shiftcast.db').as_posix()}"
    # --smoke prints one JSON line once the window is shown, then quits: the signal waited for.
    done = subprocess.run([sys.executable, "main.py", "--home", str(tmp_path / "elsewhere"), "--smoke", "demo"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and '"smoke": "ok"' in done.stdout, done.stderr
    with sqlite3.connect(real / "shiftcast.db") as connection:
        assert connection.execute("SELECT key, value FROM settings").fetchall() == []  # no simulator address in it
        assert connection.execute("SELECT name FROM classrooms").fetchall() == [("本校",)]
    assert (tmp_path / "elsewhere" / "demo" / "shiftcast.db").exists()


def test_the_tray_offers_sending_once_the_engine_has_started(qtbot, ctx: AppContext) -> None:
    from ui.services.sending import start_engine
    from ui.shell.tray import Tray

    ctx.engine_starting = True  # the window and the tray come first, the engine right after them
    tray = Tray(ctx, QIcon(), open_window=lambda: None, quit_app=lambda: None)
    assert not tray.pause_action.isEnabled() and not tray.send_action.isEnabled()
    engine = Engine(ctx.db, ctx.paths)
    try:
        assert start_engine(ctx, engine)
        assert tray.pause_action.isEnabled() and tray.send_action.isEnabled()
    finally:
        engine.stop()
    settle(qtbot, ctx)


class _Demo:
    """Stands for a started DemoEnvironment: the shell and the tray only ask whether there is one, and
    the status line for its receiver (none here)."""

    receiver = None


def test_the_demo_says_demo_in_its_title_tray_tooltip_and_icon(qtbot, ctx: AppContext) -> None:
    from PySide6.QtGui import QColor, QPixmap

    from ui.shell.app import DEMO_BADGE_COLOUR, demo_icon
    from ui.shell.main_window import MainWindow
    from ui.shell.tray import Tray

    plain = QPixmap(64, 64)
    plain.fill(QColor("white"))
    badged = demo_icon(QIcon(plain)).pixmap(64, 64).toImage()
    assert badged.pixelColor(32, 60) == QColor(DEMO_BADGE_COLOUR)  # a band across the bottom…
    assert badged.pixelColor(32, 8) == QColor("white")  # …leaving the app's picture above it
    ctx.demo = _Demo()  # type: ignore[assignment]
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    assert window.windowTitle().endswith("— DEMO")
    tray = Tray(ctx, QIcon(), open_window=lambda: None, quit_app=lambda: None)
    assert tray.icon.toolTip().startswith("Shiftcast DEMO")
    settle(qtbot, ctx)
    assert tray.icon.toolTip().startswith("Shiftcast DEMO — Waiting 0")


def test_choosing_the_demo_at_first_start_hands_over_and_quits(
        qtbot, ctx: AppContext, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    from ui.shell import app as ui_app

    app = running_app()
    quit_calls = _Quit(app, monkeypatch)
    started: list[Path] = []

    def start_demo_process(home: Path) -> bool:
        started.append(home)
        return True

    monkeypatch.setattr(ui_app, "start_demo_process", start_demo_process)

    def click_try_the_demo(box: QMessageBox) -> int:
        [demo_button] = [b for b in box.buttons() if b.text() == "Try the demo"]
        demo_button.click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", click_try_the_demo)
    shell = Shell(app, ctx, QIcon(), tray_available=True)
    window = shell.open_window()
    qtbot.addWidget(window)
    ui_app._first_run(ctx, shell)
    assert started == [ctx.paths.home]
    assert quit_calls.calls == 1 and shell.quitting  # this app leaves; one Shiftcast runs, the demo
    assert shell.tray is not None and not shell.tray.icon.isVisible()
    with ctx.db.read() as s:
        assert keys.UI_FIRST_RUN_DONE.read(s)
    settle(qtbot, ctx)


def test_if_the_demo_cannot_start_this_app_stays(qtbot, ctx: AppContext, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    from ui.shell import app as ui_app

    app = running_app()
    quit_calls = _Quit(app, monkeypatch)
    warnings: list[str] = []
    monkeypatch.setattr(ui_app, "start_demo_process", lambda home: False)
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: warnings.append(text))
    shell = Shell(app, ctx, QIcon(), tray_available=False)
    qtbot.addWidget(shell.open_window())
    assert not ui_app.hand_over_to_demo(ctx, shell)
    assert quit_calls.calls == 0 and warnings == ["The demo could not be started."]
    settle(qtbot, ctx)


def test_the_window_is_on_screen_before_the_engine_starts(qtbot, paths: DataPaths, db,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtCore import QTimer

    from ui.services.sending import start_engine as real
    from ui.shell import app as ui_app
    from ui.shell.main_window import MainWindow

    with db.write() as s:
        keys.UI_FIRST_RUN_DONE.write(s, True)  # no welcome dialog: straight to the window
    seen: list[Any] = []  # (starting, windows shown, their status) as the engine starts, then whether it started

    def recording(ctx: AppContext, engine: Engine | None = None, mode: str = "gui") -> bool:
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.ctx is ctx]
        seen.append((ctx.engine_starting, [w.isVisible() for w in windows],
                     [w.sender_status.text().split(" ·")[0] for w in windows]))
        started = real(ctx, engine, mode)
        seen.append(ctx.engine is not None and not ctx.engine_starting)
        # exit(), not quit(): quit() first asks every window to close, and windows of earlier tests refuse.
        QTimer.singleShot(0, lambda: QApplication.exit(0))
        return started

    monkeypatch.setattr(ui_app, "start_engine", recording)
    assert run_gui(argparse.Namespace(home=paths.home, smoke=False, command=None)) == 0
    assert seen[0][:2] == (True, [True])  # the window was shown while the engine had not started yet
    assert seen[0][2] in (["Starting to send…"], [""])  # its status, if it was read in time, says so
    assert seen[1] is True


def test_a_window_that_cannot_open_its_data_folder_says_why_in_one_line(
        qtbot, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    squatter = tmp_path / "Shiftcast"
    squatter.write_text("not a folder")
    assert run_gui(argparse.Namespace(home=squatter, smoke=True, command=None)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(squatter) in err[0] and "is a file, not a folder" in err[0], err
    assert squatter.read_text() == "not a folder"
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")  # no saved choice can be read: the computer's language
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert run_gui(argparse.Namespace(home=squatter, smoke=True, command=None)) == 1
    err_ja = capsys.readouterr().err
    assert str(squatter) in err_ja and "データフォルダー" in err_ja, err_ja


def test_the_tray_announces_every_kind_of_alert() -> None:
    from core.store.kinds import AlertKind
    from ui.shell.tray import NOTIFY

    assert {"OTHER_COMPUTER", "LINE_GROUP_LEFT", "DEAD_LETTER", "AUTH_FAILED"} <= NOTIFY
    assert {kind.name for kind in AlertKind} <= NOTIFY


def test_a_start_whose_holder_never_answers_says_so_in_one_line(
        qtbot, paths: DataPaths, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.shell import single_instance

    holder = SingleInstance(paths)
    assert holder.claim()  # another process holds the folder's window but never listens
    monkeypatch.setattr(single_instance, "PATIENCE_S", 0.5)
    try:
        assert run_gui(argparse.Namespace(home=paths.home, smoke=False, command=None)) == 1
    finally:
        holder.close()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "already open" in err[0] and str(paths.home) in err[0], err
    assert not paths.database.exists()  # it opened nothing of the holder's


class _Question:
    """Stands for the question's modal run: records what it asked and clicks the button named."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, answer: str) -> None:
        from PySide6.QtWidgets import QMessageBox

        self.answer = answer
        self.asked: list[tuple[str, str, list[str]]] = []
        monkeypatch.setattr(QMessageBox, "exec", lambda box: self.run(box))

    def run(self, box) -> int:
        buttons = [b.text() for b in box.buttons()]
        self.asked.append((box.text(), box.informativeText(), buttons))
        [button] = [b for b in box.buttons() if b.text() == self.answer]
        button.click()
        return 0


def _waiting_reminder(ctx: AppContext, due_in: dt.timedelta) -> None:
    from core.store.models import Delivery, DeliveryKind

    due = ctx.clock() + due_in
    with ctx.db.write() as s:
        s.add(Delivery(kind=DeliveryKind.SHIFT_REMINDER, dedup_key=f"soon-{due_in}", due_at=due, next_attempt_at=due))


class _Sending:
    """A shell whose process sends (an engine, not started: no threads needed), with deliveries due in
    `due_in` each, the question answered with `answer`, and the app's exit counted."""

    def __init__(self, qtbot, ctx: AppContext, monkeypatch: pytest.MonkeyPatch, *due_in: dt.timedelta,
                 tray: bool, answer: str = "Keep open") -> None:
        app = running_app()
        self.quit_calls = _Quit(app, monkeypatch)
        ctx.engine = Engine(ctx.db, ctx.paths)
        for each in due_in:
            _waiting_reminder(ctx, each)
        self.question = _Question(monkeypatch, answer)
        self.shell = Shell(app, ctx, QIcon(), tray_available=tray)
        self.window = self.shell.open_window()
        qtbot.addWidget(self.window)

    def press_quit(self) -> None:
        """File → Quit, Ctrl+Q."""
        from PySide6.QtGui import QKeySequence

        file_menu = self.window.menuBar().actions()[0].menu()
        assert isinstance(file_menu, QMenu)
        [quit_action] = [a for a in file_menu.actions() if a.shortcut() == QKeySequence(QKeySequence.StandardKey.Quit)]
        quit_action.trigger()

    def asked(self) -> bool:
        return bool(self.question.asked) and not self.shell.asking


def test_without_a_tray_closing_with_messages_waiting_asks_first(qtbot, ctx: AppContext,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    sending = _Sending(qtbot, ctx, monkeypatch, dt.timedelta(hours=1), dt.timedelta(minutes=10), tray=False)
    sending.window.close()
    qtbot.waitUntil(sending.asked)
    text, more, buttons = sending.question.asked[0]
    assert text == "Messages waiting to be sent within the next 24 hours: 2." and "only while it runs" in more
    assert sorted(buttons) == ["Keep open", "Quit anyway"]
    assert sending.quit_calls.calls == 0 and not sending.shell.quitting and sending.window.isVisible()  # kept open
    sending.question.answer = "Quit anyway"
    sending.window.close()
    qtbot.waitUntil(lambda: sending.quit_calls.calls == 1)
    assert len(sending.question.asked) == 2 and sending.shell.quitting
    settle(qtbot, ctx)


def test_quit_from_the_window_with_messages_waiting_asks_with_a_tray_too(qtbot, ctx: AppContext,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    sending = _Sending(qtbot, ctx, monkeypatch, dt.timedelta(hours=20), tray=True)
    sending.press_quit()
    qtbot.waitUntil(sending.asked)
    assert sending.question.asked[0][0] == "Messages waiting to be sent within the next 24 hours: 1."
    assert sending.quit_calls.calls == 0 and sending.window.isVisible()
    assert sending.shell.tray is not None
    sending.shell.tray.quit_action.trigger()  # the tray's Quit (stop sending) says it in its own words
    assert sending.quit_calls.calls == 1 and len(sending.question.asked) == 1
    sending.window.close()  # once quitting, nothing more is asked
    settle(qtbot, ctx)
    assert len(sending.question.asked) == 1


@pytest.mark.parametrize("how", ["close", "quit"])
def test_with_nothing_waiting_soon_close_and_quit_do_not_ask(qtbot, ctx: AppContext, monkeypatch: pytest.MonkeyPatch,
                                                            how: str) -> None:
    sending = _Sending(qtbot, ctx, monkeypatch, dt.timedelta(days=3), tray=False)  # not soon
    sending.window.close() if how == "close" else sending.press_quit()
    qtbot.waitUntil(lambda: sending.quit_calls.calls == 1)
    assert sending.question.asked == []
    settle(qtbot, ctx)


def test_the_question_before_quitting_speaks_japanese(qtbot, ctx: AppContext, japanese: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    sending = _Sending(qtbot, ctx, monkeypatch, dt.timedelta(hours=1), tray=False, answer="このまま開いておく")
    sending.window.close()
    qtbot.waitUntil(sending.asked)
    text, more, buttons = sending.question.asked[0]
    assert text == "24時間以内に送信する予定のメッセージが1通あります。"
    assert "起動している間だけ" in more and sorted(buttons) == sorted(["終了する", "このまま開いておく"])
    sending.shell.quit_app()  # the window's close at the test's end asks nothing more
    settle(qtbot, ctx)


def test_the_app_receives_line_webhooks_from_its_start_and_says_so(qtbot, paths: DataPaths, db) -> None:
    """Connect LINE kept a loopback address: the window's start-up starts the receiver, points the
    emulator's webhook at it, a follow reaches it, the status line says where, and quitting stops it."""
    import httpx
    from PySide6.QtCore import QTimer

    from core.emulator import LineEmulator
    from core.receiving.address import LoopbackAddress
    from core.setup.line_connect import remember_address
    from core.store import secrets
    from ui.shell.main_window import MainWindow

    secret = "0123456789abcdef0123456789abcdef"
    with LineEmulator(token="long-lived-token-nobody-has", channel_id="2001234567", channel_secret=secret,
                      loopback_webhooks=True) as line:
        with db.write() as s:
            keys.UI_FIRST_RUN_DONE.write(s, True)
            keys.LINE_API_BASE.write(s, line.base_url)
            keys.LINE_CHANNEL_ID.write(s, "2001234567")
        secrets.set_line_channel_secret(secret)
        remember_address(db, LoopbackAddress(), 0)
        line.add_user("U" + "2" * 32, "Suzuki", friend=False)
        seen: list[str] = []

        def look() -> None:
            windows = [w for w in QApplication.topLevelWidgets()
                       if isinstance(w, MainWindow) and w.ctx.paths.home == paths.home]  # not earlier tests'
            status = windows[0].sender_status.text() if windows else ""
            if "receiving from LINE at" in status and not seen:
                seen.append(status)
                result = line.follow("U" + "2" * 32, "Suzuki").result
                seen.append(str(result.status_code if result is not None else None))
                QApplication.exit(0)

        poll = QTimer()
        poll.timeout.connect(look)
        poll.start(20)
        give_up = QTimer(singleShot=True, interval=PATIENCE_MS)
        give_up.timeout.connect(lambda: QApplication.exit(0))
        give_up.start()
        try:
            assert run_gui(argparse.Namespace(home=paths.home, smoke=False, command=None)) == 0
        finally:
            poll.stop()
            give_up.stop()
        assert seen, "the status line never said that Shiftcast receives"
        endpoint = line.webhook_endpoint
        assert endpoint is not None and endpoint.startswith("http://127.0.0.1:")
        assert seen[0].endswith(f" · receiving from LINE at {endpoint}")
        assert seen[1] == "200"  # the teacher's follow reached the app's receiver
        with pytest.raises(httpx.TransportError):  # and it stopped with the app
            httpx.post(endpoint, content=b"{}", timeout=5)


def test_a_smoke_check_fails_on_a_background_error_instead_of_opening_a_dialog(qapp, capsys) -> None:
    from ui.shell import app as shell_app

    class Application(QObject):  # not the tests' own: exit() on it would end every later event loop at once
        def __init__(self) -> None:
            super().__init__()
            self.codes: list[int] = []

        def exit(self, code: int) -> None:
            self.codes.append(code)

    application = Application()
    fail = shell_app._smoke_failure(cast(QApplication, application))
    fail(RuntimeError("the relay check broke"))  # show_error's modal dialog would wait here for ever
    assert application.codes == [1] and application.property(shell_app.SMOKE_FAILED) is True
    assert '"smoke": "failed"' in capsys.readouterr().err
