"""The readiness line "LINE can reach Shiftcast" against the LINE emulator over real HTTP: the
window's receiving as it is now, and what it recorded for `shiftcast doctor` with where LINE says
its webhook points."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest

from core.emulator import LineEmulator
from core.receiving.address import LoopbackAddress
from core.setup import readiness, receiving
from core.setup.line_connect import remember_address
from core.setup.readiness import Fix, Requirement, State
from core.setup.receiving import STARTING, Receiving, ReceivingState
from core.store.db import Database
from core.texts import render
from tests.test_receiving_service import line  # noqa: F401 - a fixture: LINE connected with a channel ID and secret
from tests.waiting import wait_until

NOW = dt.datetime(2026, 12, 1, 0, 0, tzinfo=dt.UTC)
ELSEWHERE = "https://old-bot.example.jp/callback"


@pytest.fixture
def service(db: Database) -> Iterator[Receiving]:
    started = Receiving(db, clock=lambda: NOW)
    yield started
    started.stop()


def _settled(service: Receiving) -> ReceivingState:
    assert wait_until(lambda: service.state is not STARTING), "receiving never settled"
    return service.state


def _in_window(db: Database, service: Receiving) -> Requirement:
    """The line as the window's panel reads it: with its receiving's live state."""
    reach = readiness.receiving_facts(db, service.state)
    return {r.key: r for r in readiness.check(db, now=NOW, autostart=None, receiving_now=reach)}["receiving"]


def _in_doctor(db: Database) -> Requirement:
    """The line as `shiftcast doctor` reads it: what receiving recorded, and LINE asked where it points."""
    reach = readiness.receiving_facts(db, line_endpoint=receiving.line_endpoint(db))
    return {r.key: r for r in readiness.check(db, now=NOW, autostart=None, receiving_now=reach)}["receiving"]


def test_receiving_that_line_points_at_is_ok_in_the_window_and_in_doctor(
        db: Database, line: LineEmulator, service: Receiving) -> None:
    remember_address(db, LoopbackAddress(), 0)
    state = _settled(service.start())
    assert state.receiving and line.webhook_endpoint == state.endpoint
    now = _in_window(db, service)
    assert (now.state, now.fix) == (State.OK, None)
    assert render(now.says, "en") == f"LINE can reach Shiftcast at {state.endpoint}"
    assert render(now.says, "ja") == f"LINEからShiftcast（{state.endpoint}）に届きます。"
    # A teacher's follow arrives: the line names when LINE last delivered something.
    line.add_user("U" + "1" * 32, "Tanaka", friend=False)
    line.follow("U" + "1" * 32, "Tanaka")
    assert wait_until(lambda: any("LINE last delivered an event at" in render(d, "en")
                                  for d in _in_window(db, service).details))
    recorded = _in_doctor(db)
    assert recorded.state is State.OK
    assert render(recorded.details[0], "en").startswith("as Shiftcast said at ")


def test_a_webhook_pointing_elsewhere_is_a_warning_with_its_fix(db: Database, line: LineEmulator,
                                                                service: Receiving) -> None:
    remember_address(db, LoopbackAddress(), 0)
    state = _settled(service.start())
    line.set_webhook_endpoint(ELSEWHERE)  # someone changed it in the LINE Developers console
    found = _in_doctor(db)
    assert (found.state, found.fix) == (State.WARNING, Fix.RECEIVING)
    assert render(found.says, "en") == (f"LINE's webhook points at {ELSEWHERE}, not at Shiftcast ({state.endpoint}): "
                                        "pairing codes and 了解 taps go there")
    assert found.fix_says is not None and "keep Shiftcast open" in render(found.fix_says, "en")
    # Receiving again (the window's Fix button) points LINE back here.
    state = _settled(service.restart())
    assert line.webhook_endpoint == state.endpoint
    assert _in_doctor(db).state is State.OK


def test_a_closed_app_is_a_warning_that_names_what_is_not_received(db: Database, line: LineEmulator,
                                                                   service: Receiving) -> None:
    remember_address(db, LoopbackAddress(), 0)
    _settled(service.start())
    service.stop()
    for found in (_in_window(db, service), _in_doctor(db)):
        assert (found.state, found.fix) == (State.WARNING, Fix.RECEIVING)
        assert render(found.says, "en") == ("LINE cannot reach Shiftcast now: pairing codes and 了解 taps are not "
                                            "received while Shiftcast is closed")
        assert "閉じている間は" in render(found.says, "ja")


def test_webhook_off_is_said_as_the_reason(db: Database, line: LineEmulator, service: Receiving) -> None:
    remember_address(db, LoopbackAddress(), 0)
    line.set_webhook_active(False)
    _settled(service.start())
    found = _in_doctor(db)
    assert found.state is State.WARNING
    assert render(found.says, "en") == ("LINE cannot reach Shiftcast now, so pairing codes and 了解 taps are not "
                                        "received: “Use webhook” is off in the LINE Developers console")


def test_connected_without_keeping_receiving_is_said(db: Database, line: LineEmulator) -> None:
    found = _in_doctor(db)
    assert (found.state, found.fix) == (State.WARNING, Fix.CONNECT_LINE)
    assert render(found.says, "en") == ("Shiftcast does not receive from LINE: pairing codes and 了解 taps are not "
                                        "received")
