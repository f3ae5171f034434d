"""E-mail throughput: Shiftcast's sender draining 1,000 e-mail reminders through one SMTP connection
(STARTTLS, AUTH) to a local aiosmtpd.

The whole path is measured — claim, send-time checks, template rendering, MIME, SMTP, recording — as
the app runs it (the sender's background thread). The server runs in this process, so its CPU time
is included in the figure: the rate is a floor, not a ceiling.

    python -c "from tests.perf.email_bench import run_email_bench; print(run_email_bench())"
"""

from __future__ import annotations

import datetime as dt
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import trustme

from core.channels import email as email_channel
from core.outbox import queue
from core.roster import channel_choice
from core.sending.sender import Sender, SenderConfig, SenderEvents
from core.store import setting_keys as keys
from core.store.bootstrap import open_database
from core.store.db import Database
from core.store.models import Channel, DeliveryKind, ShiftStatus
from core.store.paths import data_paths
from tests import factories as f
from tests.perf.workload import paths_of
from tests.smtpfixtures import SMTP_PASSWORD, SMTP_USER, start_server

FROM = "shifts@school.example.com"


def _reminders(db: Database, n: int, now: dt.datetime) -> None:
    with db.write() as s:
        keys.SMTP_FROM.write(s, FROM)
        room = f.classroom(s, "本校")
        start = (now + dt.timedelta(days=2)).astimezone(ZoneInfo("Asia/Tokyo")).date()
        for i in range(1, n + 1):
            teacher = f.teacher(s, f"講師{i:05d}", i, email=f"t{i}@example.com", email_opt_in=True,
                                channel=channel_choice.EMAIL)
            shift = f.shift(s, room, teacher, start + dt.timedelta(days=i // 50), "16:00", "21:00", now=now,
                            status=ShiftStatus.CONFIRMED)
            queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, channel=Channel.EMAIL,
                           dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{shift.id}", shift.version,
                                                  channel=Channel.EMAIL),
                           due_at=now, now=now, recipient=f.reach(teacher).email, teacher_id=teacher.id, classroom_id=room.id,
                           subject_type="shift", subject_id=shift.id, subject_version=shift.version)


def run_email_bench(n: int = 1000, *, timeout: float = 300.0) -> dict[str, Any]:
    """Send `n` e-mails and return messages/s, with the connection and login counts (1 and 1)."""
    ca = trustme.CA()
    with tempfile.TemporaryDirectory(prefix="shiftcast-email-bench-") as folder:
        ca_file = Path(folder) / "ca.pem"
        ca.cert_pem.write_to_path(str(ca_file))
        server, controller = start_server(ca, ca_file, security="starttls")
        db = open_database(data_paths(Path(folder) / "home"))
        try:
            _reminders(db, n, dt.datetime.now(dt.UTC))
            config = email_channel.SmtpConfig(server.host, server.port, "starttls", SMTP_USER, FROM,
                                              ca_file=str(ca_file))
            access = email_channel.SmtpAccess(email_channel.Mailer(config, SMTP_PASSWORD), "bench")
            done = threading.Event()
            sender: Sender

            def changed(_ids: list[int]) -> None:
                if sender.stats.sent >= n:
                    done.set()

            sender = Sender(db, paths=paths_of(db), connect={"line": None, "email": lambda: access}, config=SenderConfig(),
                            events=SenderEvents(deliveries_changed=[changed]))
            started = time.perf_counter()
            sender.start()
            finished = done.wait(timeout)
            seconds = time.perf_counter() - started
            sender.stop()
            if not finished or sender.stats.sent != n or len(server.recorder.received) != n:
                raise AssertionError(f"sent {sender.stats.sent} of {n}, server got {len(server.recorder.received)}")
            return {
                "messages": n,
                "seconds": round(seconds, 3),
                "messages_per_s": round(n / seconds, 1),
                "connections": server.recorder.connections,
                "logins": server.recorder.logins,
                "turns": sender.stats.turns,
            }
        finally:
            db.dispose()
            controller.stop()


if __name__ == "__main__":
    print(run_email_bench())
