"""The sender reads templates (and images) from the data folder it is given, never from the default one."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from core.emulator import LineEmulator
from core.sending.sender import Sender, SenderConfig
from core.store.db import Database
from core.store.paths import DataPaths
from tests.linefixtures import FakeClock, emulator, line_ready, make_reminders  # noqa: F401


@pytest.mark.parametrize("lean", [True, False], ids=["lean path", "builders"])
def test_an_edited_template_in_the_given_data_folder_is_the_one_sent(
        db: Database, paths: DataPaths, line_ready: LineEmulator, now: dt.datetime, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, lean: bool) -> None:
    ids = make_reminders(db, 2, now=now, emulator=line_ready)
    (paths.templates / "ja").mkdir(parents=True)
    (paths.templates / "ja" / "shift_reminder.txt").write_text("【この教室の文面】$classroom\n$when\n", encoding="utf-8")
    # The process's default data folder is elsewhere and has a different copy: it must not be read.
    elsewhere = tmp_path / "default-home"
    (elsewhere / "templates" / "ja").mkdir(parents=True)
    (elsewhere / "templates" / "ja" / "shift_reminder.txt").write_text("【別の文面】$when\n", encoding="utf-8")
    monkeypatch.setenv("SHIFTCAST_HOME", str(elsewhere))
    if not lean:  # every reminder through the builders: make the lean path find nothing ready
        from core.sending import reminder_batch

        monkeypatch.setattr(reminder_batch, "load", lambda *args: {})
    sender = Sender(db, paths=paths, config=SenderConfig(concurrency=2),
                    clock=FakeClock(now))
    sender.run_until_idle()
    sender.stop()
    texts = [str(received.message) for received in line_ready.all_inbox()]
    assert len(texts) == len(ids)
    assert all("この教室の文面" in text and "別の文面" not in text for text in texts), texts
