"""The same deliveries through other ways of sending: huey, persist-queue, and no queue at all.

Each uses what Shiftcast uses for the parts that are not the queue: the same `LineClient` (one,
shared by all threads), the same message builders (core/sending/builders.py), the same number of threads and
the same database. A task-queue worker has no turn to batch into, so its bookkeeping is per task:
read the delivery and build its message, send with a retry key, then mark the row sent with one
UPDATE in its own transaction. The retry key is derived from the delivery id (uuid5), which gives
the peers LINE's duplicate protection without writing anything before the send.
"""

from __future__ import annotations

import signal
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from core.channels.base import Outgoing
from core.channels.line import LineClient
from core.channels.line import classify as classify_line
from core.outbox.policy import Outcome
from core.sending import builders
from core.store.db import Database
from core.store.models import Delivery, utcnow
from tests.perf.figures import RunFigures, Stopwatch
from tests.perf.workload import mark_sent, paths_of

ATTEMPTS = 3  # per delivery, inline; with a healthy emulator the first one succeeds


class _Countdown:
    """Counts finished deliveries across threads; stops the stopwatch when the last one is done."""

    def __init__(self, count: int, watch: Stopwatch) -> None:
        self.left = count
        self._watch = watch
        self._lock = threading.Lock()
        self.done = threading.Event()

    def finished_one(self) -> None:
        with self._lock:
            self.left -= 1
            if self.left == 0:
                self._watch.stop()
                self.done.set()


def _push(client: LineClient, outgoing: Outgoing, retry_key: str) -> None:
    for _ in range(ATTEMPTS):
        result = client.push(str(outgoing.to), list(outgoing.messages), retry_key=retry_key)
        if classify_line(result).outcome is Outcome.SENT:
            return
    raise RuntimeError(f"push to {outgoing.to} failed: {result}")


def _task_body(db: Database, client: LineClient, keys: uuid.UUID) -> Callable[[int], None]:
    """What one task does with a delivery id: build from the database, send, mark sent."""

    paths = paths_of(db)

    def work(delivery_id: int) -> None:
        now = utcnow()
        with db.read() as session:
            delivery = session.get(Delivery, delivery_id)
            assert delivery is not None
            outgoing = builders.prepare(session, delivery, now, paths)
        _push(client, outgoing, str(uuid.uuid5(keys, str(delivery_id))))
        mark_sent(db, delivery_id, now)

    return work


@contextmanager
def _signal_handlers_kept() -> Iterator[None]:
    # huey's Consumer.start() installs its own SIGINT/SIGTERM/SIGHUP handlers in the main thread.
    kept = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for number, handler in kept.items():
            signal.signal(number, handler)


def run_huey(db: Database, client: LineClient, ids: Sequence[int], *, workers: int, folder: Path,
             ready: Callable[[], None], timeout: float = 300.0) -> RunFigures:
    """SqliteHuey (synchronous=FULL like Shiftcast's database) and an in-process thread consumer."""
    from huey import SqliteHuey
    from huey.consumer import Consumer

    filename = str(folder / "huey.db")
    huey = SqliteHuey(name="bench", filename=filename, fsync=True, results=False)
    # The queue is full before the clock starts, as Shiftcast's outbox is. It is filled through a
    # second instance on the same file without fsync, only so the untimed setup stays short.
    filler = SqliteHuey(name="bench", filename=filename, fsync=False, results=False)
    watch = Stopwatch()
    countdown = _Countdown(len(ids), watch)
    work = _task_body(db, client, uuid.uuid4())

    def send_delivery(delivery_id: int) -> None:
        work(delivery_id)
        countdown.finished_one()

    huey.task(retries=2)(send_delivery)
    enqueue = filler.task(retries=2)(send_delivery)
    for delivery_id in ids:
        enqueue(delivery_id)
    filler.storage.close()
    consumer = Consumer(huey, workers=workers, worker_type="thread", periodic=False)
    ready()
    with _signal_handlers_kept():
        watch.start()
        consumer.start()
        finished = countdown.done.wait(timeout)
        consumer.stop(graceful=True)
    huey.storage.close()
    if not finished:
        raise TimeoutError(f"huey left {countdown.left} deliveries after {timeout:.0f} s")
    return watch.figures(len(ids))


def run_persist_queue(db: Database, client: LineClient, ids: Sequence[int], *, workers: int, folder: Path,
                      ready: Callable[[], None], timeout: float = 300.0) -> RunFigures:
    """persist-queue's SQLiteAckQueue: each thread gets an item, sends, marks sent, acks (nack on error)."""
    from persistqueue import Empty, SQLiteAckQueue

    queue = SQLiteAckQueue(str(folder / "persist-queue"), multithreading=True, auto_commit=True)
    for delivery_id in ids:
        queue.put(delivery_id)
    watch = Stopwatch()
    countdown = _Countdown(len(ids), watch)
    work = _task_body(db, client, uuid.uuid4())

    def worker() -> None:
        while not countdown.done.is_set():
            try:
                item = queue.get(block=True, timeout=0.05, raw=True)
            except Empty:
                continue
            try:
                work(item["data"])
            except Exception:  # noqa: BLE001 - back into the queue, as an ack queue user would do
                queue.nack(id=item["pqid"])
                continue
            queue.ack(id=item["pqid"])
            countdown.finished_one()

    threads = [threading.Thread(target=worker, name=f"pq-{n}", daemon=True) for n in range(workers)]
    ready()
    watch.start()
    for thread in threads:
        thread.start()
    finished = countdown.done.wait(timeout)
    countdown.done.set()
    for thread in threads:
        thread.join(30)
    queue.close()
    if not finished:
        raise TimeoutError(f"persist-queue left {countdown.left} deliveries after {timeout:.0f} s")
    return watch.figures(len(ids))


def run_no_queue(client: LineClient, messages: Sequence[tuple[int, Outgoing]], *,
                 workers: int, ready: Callable[[], None]) -> RunFigures:
    """Threads over a list of ready messages: no queue, no database, nothing recorded."""
    slices = [messages[n::workers] for n in range(workers)]

    def worker(mine: Sequence[tuple[int, Outgoing]]) -> None:
        for _, outgoing in mine:
            _push(client, outgoing, str(uuid.uuid4()))

    threads = [threading.Thread(target=worker, args=(s,), name=f"plain-{n}", daemon=True)
               for n, s in enumerate(slices)]
    ready()
    watch = Stopwatch().start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    watch.stop()
    return watch.figures(len(messages))
