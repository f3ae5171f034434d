"""The sender's e-mail and webhook sends, run on its pool threads.

All e-mail jobs claimed in one turn go out as one batch over the mailer's one connection, each
result reported as soon as the server answered it, so the loop records results while the batch is
still going. A webhook post is one request, like a LINE push.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from core.channels import email_draft
from core.channels.email import Envelope, Mailer
from core.channels.webhook import WebhookClient
from core.outbox.policy import SendResult, Transport
from core.sending.outgoing import Outgoing
from core.store.models import Channel

log = logging.getLogger(__name__)


class SendJob(Protocol):
    @property
    def delivery_id(self) -> int: ...

    @property
    def outgoing(self) -> Outgoing: ...

    @property
    def started_at(self) -> dt.datetime: ...


J = TypeVar("J", bound=SendJob)


def send_email_batch(jobs: Sequence[J], mailer: Mailer, report: Callable[[J, SendResult], None], *,
                     time_budget: float | None = None) -> None:
    reported: set[int] = set()

    def tell(job: J, result: SendResult) -> None:
        reported.add(job.delivery_id)
        report(job, result)

    ready: list[tuple[J, Envelope]] = []
    for job in jobs:
        try:
            if job.outgoing.mail is None:
                raise ValueError("an e-mail job without its e-mail")
            ready.append((job, email_draft.envelope(job.outgoing.mail, date=job.started_at)))
        except Exception as exc:  # noqa: BLE001 - e.g. the image file vanished: retried; the server was not contacted
            log.warning("preparing the e-mail of delivery %s failed: %s", job.delivery_id, exc)
            tell(job, SendResult(channel=Channel.EMAIL, transport_error=Transport.UPLOAD, message=str(exc)[:300]))
    try:
        mailer.send_batch(ready, tell, time_budget=time_budget)
    except Exception as exc:
        log.exception("the e-mail batch raised")
        for job, _ in ready:
            if job.delivery_id not in reported:
                tell(job, SendResult(channel=Channel.EMAIL, transport_error=Transport.CONNECTION, message=str(exc)[:300]))


def send_webhook(job: SendJob, client: WebhookClient) -> SendResult:
    text = str(job.outgoing.messages[0].get("text", "")) if job.outgoing.messages else ""
    return client.post(str(job.outgoing.to), text)
