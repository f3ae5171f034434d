"""`relay sync` against a relay that does not answer: the manager reads what happened and what to try,
in their language, never a time-out's class name or a traceback."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import httpx
import pytest

import main
from core.relay import client
from core.relay import settings as relay_settings
from core.store.db import Database

KEY = "ab" * 32


@pytest.fixture
def silent() -> Iterator[str]:
    """An address that takes connections and never answers on them."""
    server = socket.create_server(("127.0.0.1", 0))
    taken: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                taken.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}"
    server.close()
    for connection in taken:
        connection.close()


@pytest.fixture
def closed_port() -> str:
    """An address where nothing listens."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        return f"http://127.0.0.1:{server.getsockname()[1]}"


def _sync(db: Database, url: str, lang: str, capsys: pytest.CaptureFixture[str]) -> str:
    relay_settings.attach(db, url, KEY)
    assert main.main(["relay", "sync", "--lang", lang]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "Timeout" not in err and "ConnectError" not in err and "unexpected" not in err
    return err


def test_a_relay_that_does_not_answer_in_time_is_said_in_plain_words(
        db: Database, silent: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client, "TIMEOUT", httpx.Timeout(0.5))  # the relay's patience, not the test's
    err = _sync(db, silent, "en", capsys)
    assert f"the relay at {silent} did not answer in time" in err and "shiftcast relay sync" in err
    err = _sync(db, silent, "ja", capsys)
    assert f"中継サーバー（{silent}）から時間内に応答がありませんでした" in err


def test_a_relay_nothing_answers_at_names_the_connection_and_the_address(
        db: Database, closed_port: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = _sync(db, closed_port, "en", capsys)
    assert f"could not connect to the relay at {closed_port}: check the internet connection" in err
