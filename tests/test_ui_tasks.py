"""ui.services.tasks: answers reach the UI thread, and only while the widget that asked still wants them."""

from __future__ import annotations

import ast
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtWidgets import QWidget

from ui.services.tasks import Tasks

UI = Path(__file__).resolve().parent.parent / "ui"
HOLD_S = 10.0  # a held task gives up after this long, so a broken test fails instead of hanging


@pytest.fixture
def gates() -> Iterator[list[threading.Event]]:
    """Events that hold tasks on their pool thread; all are opened when the test ends."""
    made: list[threading.Event] = []
    yield made
    for gate in made:
        gate.set()


@pytest.fixture
def tasks(qapp, gates: list[threading.Event]) -> Iterator[Tasks]:
    helper = Tasks()
    yield helper
    for gate in gates:  # before waiting: a held task would keep the pool busy
        gate.set()
    assert helper.wait(int(HOLD_S * 1000))


def held(gates: list[threading.Event], answer: Any = None, *, error: BaseException | None = None,
         started: threading.Event | None = None) -> tuple[threading.Event, Callable[[], Any]]:
    """A task that waits on its own gate, then returns `answer` or raises `error`."""
    gate = threading.Event()
    gates.append(gate)

    def fn() -> Any:
        if started is not None:
            started.set()
        if not gate.wait(HOLD_S):
            raise TimeoutError("the test never opened the gate")
        if error is not None:
            raise error
        return answer

    return gate, fn


def finish(qtbot, tasks: Tasks) -> None:
    assert tasks.wait(int(HOLD_S * 1000))
    qtbot.waitUntil(lambda: tasks.pending == 0, timeout=5000)


# ----- the owner guard -----

@pytest.mark.parametrize("fails", [False, True], ids=["result", "error"])
def test_answer_for_a_deleted_owner_is_dropped(qtbot, tasks: Tasks, gates, fails: bool) -> None:
    owner = QWidget()
    calls: list[object] = []
    tasks.error_handler = lambda exc: calls.append(("handler", exc))

    def touch(value: object) -> None:  # what a real callback does: use the widget
        calls.append(value)
        owner.setWindowTitle(str(value))

    started = threading.Event()
    gate, fn = held(gates, "late", error=ValueError("late") if fails else None, started=started)
    tasks.run(fn, touch, touch, owner=owner)
    assert started.wait(HOLD_S)
    shiboken6.delete(owner)  # the window closed while its work was still running
    assert not shiboken6.isValid(owner)
    gate.set()
    finish(qtbot, tasks)
    assert calls == []  # neither callback nor the fallback handler ran, and nothing raised


def test_owner_deleted_with_its_parent_is_dropped_too(qtbot, tasks: Tasks, gates) -> None:
    window = QWidget()
    child = QWidget(window)
    got: list[object] = []
    gate, fn = held(gates, 1)
    def answer(v: object) -> None:
        got.append(v)
        child.setEnabled(True)
    tasks.run(fn, answer, owner=child)
    shiboken6.delete(window)
    gate.set()
    finish(qtbot, tasks)
    assert got == []


def test_live_owner_gets_its_answer(qtbot, tasks: Tasks) -> None:
    owner = QWidget()
    got: list[object] = []
    tasks.run(lambda: 42, got.append, owner=owner)
    finish(qtbot, tasks)
    assert got == [42]


# ----- threads -----

def test_work_runs_on_the_pool_and_callbacks_on_the_ui_thread(qtbot, tasks: Tasks) -> None:
    owner = QWidget()
    seen: dict[str, threading.Thread] = {}

    def work() -> int:
        seen["work"] = threading.current_thread()
        return 1

    def broken() -> None:
        seen["broken"] = threading.current_thread()
        raise ValueError("no")

    errors: list[BaseException] = []

    def on_error(exc: BaseException) -> None:
        seen["on_error"] = threading.current_thread()
        errors.append(exc)

    tasks.run(work, lambda _v: seen.__setitem__("on_done", threading.current_thread()), owner=owner)
    tasks.run(broken, lambda _v: pytest.fail("a failed task has no result"), on_error, owner=owner)
    finish(qtbot, tasks)
    ui = threading.main_thread()
    assert seen["work"] is not ui and seen["broken"] is not ui
    assert seen["on_done"] is ui and seen["on_error"] is ui
    assert [type(e) for e in errors] == [ValueError] and str(errors[0]) == "no"


def test_error_without_on_error_goes_to_the_handler_on_the_ui_thread(qtbot, tasks: Tasks) -> None:
    handled: list[tuple[BaseException, threading.Thread]] = []
    tasks.error_handler = lambda exc: handled.append((exc, threading.current_thread()))

    def broken() -> None:
        raise KeyError("gone")

    tasks.run(broken, owner=QWidget())
    finish(qtbot, tasks)
    assert len(handled) == 1
    exc, thread = handled[0]
    assert isinstance(exc, KeyError) and thread is threading.main_thread()


# ----- latest: only the newest request of a kind answers -----

@pytest.mark.parametrize("fails", [False, True], ids=["result", "error"])
def test_stale_answer_is_dropped(qtbot, tasks: Tasks, gates, fails: bool) -> None:
    owner = QWidget()
    got: list[object] = []
    tasks.error_handler = lambda exc: got.append(("handler", exc))
    old_gate, old = held(gates, "old", error=ValueError("old") if fails else None)
    new_gate, new = held(gates, "new")
    tasks.run(old, got.append, got.append, owner=owner, latest="month")
    tasks.run(new, got.append, got.append, owner=owner, latest="month")
    old_gate.set()  # the older request answers first, after the pickers moved on
    qtbot.waitUntil(lambda: tasks.pending == 1, timeout=5000)
    assert got == []
    new_gate.set()
    finish(qtbot, tasks)
    assert got == ["new"]


def test_stale_answer_arriving_after_the_newest_is_dropped(qtbot, tasks: Tasks, gates) -> None:
    owner = QWidget()
    got: list[object] = []
    old_gate, old = held(gates, "old")
    tasks.run(old, got.append, owner=owner, latest="month")
    tasks.run(lambda: "new", got.append, owner=owner, latest="month")
    qtbot.waitUntil(lambda: got == ["new"], timeout=5000)
    old_gate.set()
    finish(qtbot, tasks)
    assert got == ["new"]


def test_latest_is_per_owner_and_per_kind(qtbot, tasks: Tasks, gates) -> None:
    first, second = QWidget(), QWidget()
    got: list[object] = []
    gate_a, a = held(gates, "first/month")
    gate_b, b = held(gates, "first/preview")
    tasks.run(a, got.append, owner=first, latest="month")
    tasks.run(b, got.append, owner=first, latest="preview")
    tasks.run(lambda: "second/month", got.append, owner=second, latest="month")
    gate_a.set()
    gate_b.set()
    finish(qtbot, tasks)
    assert sorted(map(str, got)) == ["first/month", "first/preview", "second/month"]


def test_supersede_drops_the_running_request(qtbot, tasks: Tasks, gates) -> None:
    owner = QWidget()
    got: list[object] = []
    gate, fn = held(gates, "old")
    tasks.run(fn, got.append, got.append, owner=owner, latest="month")
    tasks.supersede(owner, "month")  # nothing to show any more, e.g. the last classroom was deleted
    gate.set()
    finish(qtbot, tasks)
    assert got == []
    tasks.run(lambda: "again", got.append, owner=owner, latest="month")
    finish(qtbot, tasks)
    assert got == ["again"]



# ----- one form everywhere -----

def test_every_widget_passes_its_owner() -> None:
    """Widgets hand their guard to Tasks (owner=...) instead of writing their own."""
    exempt = {"shell/screenshots.py"}  # a script driving the app from outside; no widget asks there
    missing = []
    for path in sorted(UI.rglob("*.py")):
        if path.relative_to(UI).as_posix() in exempt:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "run"
                    and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "tasks"
                    and not any(k.arg == "owner" for k in node.keywords)):
                missing.append(f"{path.relative_to(UI).as_posix()}:{node.lineno}")
    assert missing == []


def test_a_task_asked_for_after_shutdown_is_not_run(qtbot, tasks: Tasks) -> None:
    ran: list[int] = []
    tasks.shutdown()
    tasks.run(lambda: ran.append(1), owner=QWidget())  # a widget refreshing while the window closes
    assert tasks.pending == 0 and tasks.wait(1000)
    assert ran == []


def test_an_answer_arriving_after_shutdown_is_dropped(qtbot, tasks: Tasks, gates) -> None:
    got: list[object] = []
    started = threading.Event()
    gate, fn = held(gates, "late", started=started)
    tasks.run(fn, got.append, owner=QWidget())  # e.g. a closing window's count of waiting messages
    assert started.wait(HOLD_S)
    tasks.shutdown()  # the window's loop ended
    gate.set()
    assert tasks.wait(int(HOLD_S * 1000))
    qtbot.waitUntil(lambda: tasks.pending == 0, timeout=5000)
    assert got == []  # a late callback (a quit, an error box) would run in whatever comes next
