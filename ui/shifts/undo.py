"""Undo and redo of roster edits whose database work runs in the background.

QUndoStack assumes redo() and undo() finish before they return; ours only start a job on the pool.
Three rules keep the stack honest anyway:

- A new edit is done first and pushed only once it committed, so a rule core refuses (an overlap, an
  inactive teacher) never reaches the stack and the dialog that asked can show the reason.
- One step at a time: while a job runs, undo and redo are refused (the actions are disabled) and new
  edits wait in a queue, so the stack index always matches the database once the job ends.
- A step core refuses (a confirmed shift cannot go back to draft; someone else deleted the shift) is
  marked obsolete and taken off the stack where it stands, then the error is shown. The stack is then
  exactly what the database allows: everything below it still undoes, everything above still redoes.

Shifts deleted and re-created by undo come back with new ids; commands keep the id a shift had when
they were made and translate it through `IdMap`.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from core.roster.edits import RosterEdits, editing
from ui.services.context import AppContext

log = logging.getLogger(__name__)


class IdMap:
    """Original shift id → the id of the row that stands for it now."""

    def __init__(self) -> None:
        self._current: dict[int, int] = {}

    def current(self, original: int) -> int:
        return self._current.get(original, original)

    def original(self, current: int) -> int:
        return next((o for o, c in self._current.items() if c == current), current)

    def moved(self, original: int, current: int) -> None:
        if original == current:
            self._current.pop(original, None)
        else:
            self._current[original] = current


class RosterCommand(QUndoCommand):
    """One undoable roster edit. `forward` and `backward` run on a pool thread with the edits of one write
    transaction (core.roster.edits) and must not touch widgets or change the command; what they return is handed to
    `forward_done` / `backward_done` on the UI thread once the transaction has committed."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.runner: CommandRunner | None = None
        self._already_done = False

    def forward(self, edits: RosterEdits, ids: IdMap) -> Any:
        raise NotImplementedError

    def backward(self, edits: RosterEdits, ids: IdMap) -> Any:
        raise NotImplementedError

    def forward_done(self, result: Any, ids: IdMap) -> None:
        """Record what the job created (UI thread)."""

    def backward_done(self, result: Any, ids: IdMap) -> None:
        """Record what the job re-created (UI thread)."""

    # QUndoStack calls these; they only start the job.
    def redo(self) -> None:
        if self._already_done:  # the push right after the first, successful run
            self._already_done = False
            return
        assert self.runner is not None
        self.runner._step(self, forward=True)

    def undo(self) -> None:
        assert self.runner is not None
        self.runner._step(self, forward=False)


class CommandRunner(QObject):
    busy_changed = Signal(bool)
    finished = Signal()  # a job committed: refresh what is shown
    failed = Signal(object)  # an undo or redo step was refused (the exception); the stack was repaired

    def __init__(self, ctx: AppContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.ids = IdMap()
        self.stack = QUndoStack(self)
        self.stack.setUndoLimit(200)
        self._busy = False
        self._waiting: deque[Callable[[], None]] = deque()

    @property
    def busy(self) -> bool:
        return self._busy

    def can_undo(self) -> bool:
        return not self._busy and self.stack.canUndo()

    def can_redo(self) -> bool:
        return not self._busy and self.stack.canRedo()

    def undo(self) -> None:
        if self.can_undo():
            self.stack.undo()

    def redo(self) -> None:
        if self.can_redo():
            self.stack.redo()

    def execute(self, command: RosterCommand, *, on_done: Callable[[Any], None] | None = None,
                on_error: Callable[[BaseException], None] | None = None) -> None:
        """Do a new edit; push it on the stack only if it committed."""
        command.runner = self

        def start() -> None:
            def done(result: Any) -> None:
                command.forward_done(result, self.ids)
                command._already_done = True
                self.stack.push(command)
                self._finish()
                if on_done is not None:
                    on_done(result)

            def error(exc: BaseException) -> None:
                self._finish()
                if on_error is not None:
                    on_error(exc)
                else:
                    self.failed.emit(exc)

            self._run(command.forward, done, error)

        self._waiting.append(start)
        self._next()

    # ----- internals -----

    def _step(self, command: RosterCommand, *, forward: bool) -> None:
        """An undo or redo the stack has already counted; repaired below if core refuses it."""

        def done(result: Any) -> None:
            (command.forward_done if forward else command.backward_done)(result, self.ids)
            self._finish()

        def error(exc: BaseException) -> None:
            log.info("%s of %r refused: %s", "redo" if forward else "undo", command.text(), exc)
            command.setObsolete(True)
            # The obsolete command sits next to the index; stepping over it deletes it without running it.
            if forward:
                self.stack.undo()
            else:
                self.stack.redo()
            self._finish()
            self.failed.emit(exc)

        self._set_busy(True)
        self._run(command.forward if forward else command.backward, done, error)

    def _run(self, job: Callable[[RosterEdits, IdMap], Any], done: Callable[[Any], None],
             error: Callable[[BaseException], None]) -> None:
        self._set_busy(True)
        now, ids, db = self.ctx.clock(), self.ids, self.ctx.db

        def work() -> Any:
            with editing(db, now=now) as edits:
                return job(edits, ids)

        self.ctx.tasks.run(work, done, error, owner=self)

    def _finish(self) -> None:
        self._set_busy(False)
        self.finished.emit()
        self._next()

    def _next(self) -> None:
        if not self._busy and self._waiting:
            self._waiting.popleft()()

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self.busy_changed.emit(busy)
