"""Handing a turn's jobs to their channels on the pool threads, and collecting what comes back.

A pooled channel gets one pool task per request, a batch channel one task for its whole batch
(core/channels/base.py). Every job gets exactly one result, also when its channel raises; results
wait in a queue for the loop, which records them in its next turn.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor

from core.channels.base import ChannelDriver, Connection
from core.outbox.policy import SendResult, Transport
from core.sending.outgoing import Job

log = logging.getLogger(__name__)


class Submitter:
    def __init__(self, drivers: Mapping[str, ChannelDriver], *, concurrency: int, time_budget: float,
                 wake: threading.Event) -> None:
        self._drivers = drivers
        self._concurrency = concurrency
        self._time_budget = time_budget
        self._wake = wake
        self._pool: ThreadPoolExecutor | None = None
        self._results: queue.SimpleQueue[tuple[Job, SendResult]] = queue.SimpleQueue()
        # Per channel, the sends handed to a pool task and not yet answered; a batch's ids share its one future.
        self._inflight: dict[str, dict[int, Future[None]]] = {channel: {} for channel in drivers}

    # ----- what is in flight -----

    def _pooled(self, channel: str) -> bool:
        return self._drivers[channel].batch is None

    def busy(self, channel: str) -> bool:
        """Is any send of this channel in flight?"""
        return bool(self._inflight[channel])

    def pool_in_flight(self) -> int:
        """One-request sends handed to a pool task, not yet answered."""
        return sum(len(sends) for channel, sends in self._inflight.items() if self._pooled(channel))

    def batch_in_flight(self) -> bool:
        return any(sends for channel, sends in self._inflight.items() if not self._pooled(channel))

    def queued_for_pool(self) -> int:
        """Sends claimed but still waiting for a free pool thread (right after a turn)."""
        return max(self.pool_in_flight() - self._concurrency, 0)

    def in_flight_ids(self) -> list[int]:
        return [delivery_id for sends in self._inflight.values() for delivery_id in sends.copy()]

    def idle(self) -> bool:
        """Nothing in flight and no result waiting. Results are queued before their task ends: check in this order."""
        return not any(self._inflight.values()) and self._results.empty()

    def any_in_flight(self) -> bool:
        return any(self._inflight.values())

    # ----- handing over and collecting -----

    def submit(self, jobs: list[Job], connection_of: Mapping[str, Connection]) -> None:
        """Hand a turn's jobs to their channels: a pool task per request, or per batch."""
        by_channel: dict[str, list[Job]] = {}
        for job in jobs:
            by_channel.setdefault(job.channel, []).append(job)
        for channel, mine in by_channel.items():
            connection = connection_of[channel]  # claimed only while connected
            tasks = [[job] for job in mine] if self._pooled(channel) else [mine]
            for task in tasks:
                future = self._thread_pool().submit(self._send, channel, connection, task)
                for job in task:
                    self._inflight[channel][job.delivery_id] = future

    def drain(self) -> list[tuple[Job, SendResult]]:
        out = []
        while True:
            try:
                out.append(self._results.get_nowait())
            except queue.Empty:
                return out

    def forget_done(self) -> None:
        for inflight in self._inflight.values():
            for delivery_id in [i for i, f in inflight.items() if f.done()]:
                future = inflight.pop(delivery_id)
                if not future.cancelled() and future.exception() is not None:
                    log.error("send task for delivery %s failed: %s", delivery_id, future.exception())

    def _thread_pool(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self._concurrency, thread_name_prefix="shiftcast-send")
        return self._pool

    def _report(self, job: Job, result: SendResult) -> None:
        self._results.put((job, result))
        self._wake.set()

    def _send(self, channel: str, connection: Connection, jobs: list[Job]) -> None:
        """On a pool thread: every job gets exactly one result, also when the channel raises."""
        reported: set[int] = set()

        def report(job: Job, result: SendResult) -> None:
            reported.add(job.delivery_id)
            self._report(job, result)

        try:
            # A batch has half the lease: what is not sent by then goes back untried, well before the
            # rows could be claimed again (by this sender too) while still waiting in the batch.
            connection.send(jobs, report, time_budget=self._time_budget)
        except Exception as exc:
            log.exception("%s send of %d deliveries raised", self._drivers[channel].title, len(jobs))
            for job in jobs:
                if job.delivery_id not in reported:
                    self._report(job, SendResult(channel=channel, transport_error=Transport.CONNECTION,
                                                 message=str(exc)[:300]))

    # ----- stopping -----

    def cancel_unstarted(self) -> tuple[list[int], list[Future[None]]]:
        """Cancel the tasks not started yet: (their delivery ids, the futures still running)."""
        inflight = {i: f for sends in self._inflight.values() for i, f in sends.items()}
        not_started = [i for i, f in inflight.items() if f.cancel()]
        return not_started, [f for f in inflight.values() if not f.cancelled()]

    def clear(self) -> None:
        for sends in self._inflight.values():
            sends.clear()

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
