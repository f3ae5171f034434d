"""The sender's LINE requests: encoded once, then sent from its threads or handed to its courier.

`CourierLane` is the sender's side of core/sending/courier.py: it starts the courier when first needed,
hands it a turn's requests, keeps the jobs it has not answered, and kills a courier that stopped
answering. A courier that cannot start leaves the sending to the sender's threads.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from core.channels.line import LineAccess, encode_multicast, encode_push
from core.outbox.policy import SendResult, Transport
from core.sending import courier
from core.sending.outgoing import Outgoing

if TYPE_CHECKING:
    from core.sending.outgoing import Job

log = logging.getLogger(__name__)

RETRY_START_S = 600.0  # after a courier failed to start, send from threads this long before trying again


def encode(outgoing: Outgoing) -> bytes:
    """The body of a LINE push or multicast, as LineClient.send_encoded takes it."""
    messages = list(outgoing.messages)
    if outgoing.endpoint == "multicast":
        return encode_multicast(list(outgoing.to), messages)
    return encode_push(str(outgoing.to), messages)


class CourierLane:
    """The courier as the sender uses it. `on_result(job, result)` is called for every job handed
    over (on the courier's reader thread) while the job is still in `jobs`: whoever finds `jobs`
    empty then finds every result already queued."""

    def __init__(self, *, enabled: bool, threads: int, push_rate: float, multicast_rate: float, rounds: int,
                 on_result: Callable[[Job, SendResult], None]) -> None:
        self.enabled = enabled
        self.jobs: dict[int, Job] = {}  # handed to the courier, not answered yet
        self.handed = 0  # requests handed over in this lane's life
        self._threads, self._push_rate, self._multicast_rate = threads, push_rate, multicast_rate
        self._rounds = rounds
        self._on_result = on_result
        self._courier: courier.Courier | None = None
        self._retry_at = 0.0  # monotonic time before which a courier that failed to start is not tried again
        self._lock = threading.Lock()  # jobs is read on the sender's thread, emptied on the reader's

    @property
    def pid(self) -> int | None:
        return self._courier.pid if self._courier is not None else None

    def __len__(self) -> int:
        return len(self.jobs)

    def ids(self) -> list[int]:
        with self._lock:
            return list(self.jobs)

    def takes(self, job: Job) -> bool:
        # Image uploads run in the sender's process (they need the hosting client): publications stay there.
        return self.enabled and job.outgoing.endpoint in ("push", "multicast") and job.outgoing.before_send is None

    def open(self, access: LineAccess) -> bool:
        """Is a courier running for this client? Starts one on first use (or after one died)."""
        if self._courier is not None and not self._courier.alive and not self.jobs:
            self.close()  # it died and every request it had came back as a retry: start afresh
        if self._courier is None and self.enabled and time.monotonic() >= self._retry_at:
            try:
                self._courier = courier.Courier(
                    access.client, threads=self._threads, push_rate=self._push_rate,
                    multicast_rate=self._multicast_rate, on_result=self._answered)
            except courier.CourierUnavailable as exc:
                log.warning("%s; sending from this process instead", exc)
                # Threads here send just as safely; a start that failed is not retried every turn.
                self._retry_at = time.monotonic() + RETRY_START_S
        return self._courier is not None and self._courier.alive

    def hand(self, jobs: list[Job]) -> None:
        """Hand a turn's jobs over in one write (open() said yes this turn)."""
        if not jobs:
            return
        assert self._courier is not None
        requests: list[courier.Request] = []
        for job in jobs:
            assert job.retry_key is not None  # every LINE job gets one before it leaves
            try:
                body = encode(job.outgoing)
            except Exception as exc:
                log.exception("encoding delivery %s failed", job.delivery_id)
                self._on_result(job, SendResult(transport_error=Transport.CONNECTION, message=str(exc)[:300]))
                continue
            with self._lock:
                self.jobs[job.delivery_id] = job
            requests.append((job.delivery_id, job.outgoing.endpoint, job.retry_key, body))
        self.handed += len(requests)
        self._courier.send(requests)

    def watch(self, now: dt.datetime, timeout: dict[str, float | None]) -> None:
        """Kill a courier that stopped answering (stopped, wedged): its reader then returns every request
        it held as a connection error, retried with the same key. Without this the sender, which renews
        the leases of what is in flight, would keep those deliveries forever. Patience: twice the
        longest a healthy courier can take, every round in flight timing out in turn."""
        if self._courier is None or not self.jobs:
            return
        with self._lock:
            oldest = min(job.started_at for job in self.jobs.values())
        per_request = sum(60.0 if part is None else float(part) for part in timeout.values())
        waited = now - oldest
        if waited > dt.timedelta(seconds=2 * self._rounds * per_request):
            log.error("the sending process has not answered for %d s; it is stopped and its %d requests "
                      "go back for a retry", waited.total_seconds(), len(self.jobs))
            self._courier.kill()

    def close(self) -> None:
        """No more requests: the courier sends what it holds, reports it all and exits."""
        if self._courier is not None:
            self._courier.close()
            self._courier = None

    def _answered(self, delivery_id: int, result: SendResult) -> None:
        with self._lock:
            job = self.jobs.get(delivery_id)
        if job is None:
            log.error("the sending process answered for delivery %s, which it was not given", delivery_id)
            return
        self._on_result(job, result)
        with self._lock:
            del self.jobs[delivery_id]
