"""The sender's LINE requests: encoded once and sent from its pool threads under LINE's rate limits."""

from __future__ import annotations

import logging

from core.channels.line import LineClient, encode_multicast, encode_push
from core.channels.ratelimit import TokenBucket
from core.outbox import policy
from core.outbox.policy import Outcome, SendResult, Transport
from core.sending.outgoing import Outgoing

log = logging.getLogger(__name__)


def encode(outgoing: Outgoing) -> bytes:
    """The body of a LINE push or multicast, as LineClient.send_encoded takes it."""
    messages = list(outgoing.messages)
    if outgoing.endpoint == "multicast":
        return encode_multicast(list(outgoing.to), messages)
    return encode_push(str(outgoing.to), messages)


def send_limited(client: LineClient, bucket: TokenBucket, endpoint: str, body: bytes, retry_key: str) -> SendResult:
    """One LINE request under its endpoint's rate limit. Never raises: a failure is a result to classify."""
    bucket.acquire()
    try:
        result = client.send_encoded(endpoint, body, retry_key=retry_key)
    except Exception as exc:
        log.exception("a LINE request raised")
        result = SendResult(transport_error=Transport.CONNECTION, message=str(exc)[:300])
    if result.http_status == 429 and policy.classify(result).outcome is Outcome.THROTTLED:
        bucket.slow_down()  # LINE's rate limit: slow down for everyone sending on this endpoint
    return result
