"""Sending from this process: the window's engine (its events reach the screens through the bridge)
and its start, which the shell makes once the window is up and the demo's inbox when the computer
"wakes"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ui.services.context import AppContext

if TYPE_CHECKING:
    from core.sending.engine import Engine


def window_engine(ctx: AppContext, mode: str = "gui") -> Engine:
    """`mode`: which part of Shiftcast sends (gui, tray, demo), as the other senders see it."""
    from core.relay import syncer
    from core.sending.engine import WINDOW_SEND_THREADS, Engine

    engine = Engine(ctx.db, ctx.paths, send_threads=WINDOW_SEND_THREADS, app=mode, watch=False,  # run_gui watches
                    companions=syncer.companions(ctx.db, ctx.paths))
    ctx.bridge.attach(engine.events)
    return engine


def start_engine(ctx: AppContext, engine: Engine | None = None, mode: str = "gui") -> bool:
    """Start sending from this process, unless another one already sends for the folder."""
    if engine is None:
        engine = window_engine(ctx, mode)
    started = engine.start()
    ctx.set_engine(engine if started else None)
    return started
