"""What keeps a channel from sending is logged once, and again only when it changes or ends."""

from __future__ import annotations

import datetime as dt
import logging

import keyring
import pytest
from keyring.backends import fail

from core.sending.sender import Sender, SenderConfig
from core.store import secrets
from core.store.db import Database
from tests import factories as f
from tests.linefixtures import TOKEN, FakeClock, emulator, make_reminders  # noqa: F401
from tests.memory_keyring import MemoryKeyring

LOOK_EVERY_TURN = SenderConfig(poll_interval=0.0)  # an idle sender's 2 s, with no time to wait for


def _line_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "core.sending.turn" and r.getMessage().startswith("LINE")]


def test_no_keyring_is_logged_once_over_many_turns_then_its_end(
        db: Database, emulator, now: dt.datetime, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch, memory_keyring: MemoryKeyring) -> None:
    monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", emulator.base_url)
    make_reminders(db, 1, now=now)  # due work, so every turn asks for LINE's connection
    keyring.set_keyring(fail.Keyring())
    sender = Sender(db, paths=f.home_paths(), config=LOOK_EVERY_TURN, clock=FakeClock(now))
    try:
        caplog.set_level(logging.INFO, logger="core.sending.turn")
        for _ in range(5):
            sender.turn()
        [said] = _line_lines(caplog)
        assert said.startswith("LINE is not usable: no usable keyring"), said

        keyring.set_keyring(memory_keyring)  # a keyring again, with the token in it
        secrets.set_line_token(TOKEN)
        for _ in range(3):
            sender.turn()
        assert _line_lines(caplog)[1:] == ["LINE is usable again"]
    finally:
        sender.stop()
