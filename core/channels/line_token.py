"""Stateless channel access tokens: issued from the channel ID and secret, valid 15 minutes.

With the channel ID and secret configured and no long-lived token, the LINE client authenticates
through `StatelessAuth`: it reuses one token until a minute before it expires (`usable`, pure, the
clock passed in) and, when LINE answers 401 anyway, issues a new one and repeats the request once.
A 401 after that is LINE refusing the channel, and the sender holds LINE as for any refused token.

LINE cannot revoke these tokens and has no limit on how many are live, but asks that a token is
reused rather than issued per call; one source is shared by every pool thread of a sender.
"""

from __future__ import annotations

import datetime as dt
import logging
import ssl
import threading
from collections.abc import Callable, Generator
from dataclasses import dataclass

import httpx

from core.channels.net import short
from core.logs import secrets_registry  # an issued token is a secret: never in a log line

log = logging.getLogger(__name__)
TOKEN_PATH = "/oauth2/v3/token"
RENEW_BEFORE = dt.timedelta(minutes=1)
Clock = Callable[[], dt.datetime]


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True, slots=True)
class IssuedToken:
    value: str
    expires_at: dt.datetime


def usable(token: IssuedToken | None, now: dt.datetime, *, margin: dt.timedelta = RENEW_BEFORE) -> bool:
    """Whether to keep using `token` at `now`: until `margin` before it expires."""
    return token is not None and now < token.expires_at - margin


class TokenRefused(Exception):
    """LINE would not issue a token for this channel ID and secret (its OAuth error, e.g. invalid_client)."""


class StatelessTokenSource:
    """Issues and caches the token; safe to share between threads."""

    def __init__(self, channel_id: str, channel_secret: str, *, base_url: str,
                 timeout: httpx.Timeout | float = 10.0, clock: Clock = _utc_now,
                 verify: ssl.SSLContext | bool = True) -> None:
        self.channel_id = channel_id
        self._secret = channel_secret
        self._url = base_url.rstrip("/") + TOKEN_PATH
        self._timeout = timeout
        self._clock = clock
        self._verify = verify
        self._lock = threading.Lock()
        self._token: IssuedToken | None = None
        self.issued = 0

    def current(self) -> str:
        """A token valid for at least another minute, issued now if the cached one is not."""
        with self._lock:
            if not usable(self._token, self._clock()):
                self._token = self._issue()
            assert self._token is not None
            return self._token.value

    def renew(self, refused: str) -> str:
        """A new token after LINE refused `refused`, unless another thread renewed it meanwhile."""
        with self._lock:
            if self._token is None or self._token.value == refused or not usable(self._token, self._clock()):
                self._token = self._issue()
            return self._token.value

    def _issue(self) -> IssuedToken:
        asked_at = self._clock()
        form = {"grant_type": "client_credentials", "client_id": self.channel_id, "client_secret": self._secret}
        # Network failures propagate as httpx errors: the caller's request then fails like any other.
        with httpx.Client(timeout=self._timeout, follow_redirects=False, verify=self._verify) as client:
            response = client.post(self._url, data=form, headers={"User-Agent": "Shiftcast"})
        try:
            payload = response.json()
        except ValueError:
            payload = {}
        if response.status_code != 200 or not isinstance(payload, dict) or not payload.get("access_token"):
            reason = payload.get("error_description") or payload.get("error") if isinstance(payload, dict) else None
            raise TokenRefused(f"LINE issued no token (HTTP {response.status_code}: {reason or response.reason_phrase})")
        seconds = payload.get("expires_in")
        lifetime = dt.timedelta(seconds=seconds if isinstance(seconds, int | float) and seconds > 0 else 0)
        self.issued += 1
        secrets_registry.add(str(payload["access_token"]))
        return IssuedToken(str(payload["access_token"]), asked_at + lifetime)

    def auth(self) -> StatelessAuth:
        return StatelessAuth(self)


class StatelessAuth(httpx.Auth):
    """httpx authentication with the source's token, renewed and the request repeated once on a 401.

    Repeating is safe for a push: LINE accepted nothing it answered 401 to, so the same retry key
    cannot deliver twice."""

    def __init__(self, source: StatelessTokenSource) -> None:
        self.source = source

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        try:
            token = self.source.current()
        except TokenRefused as exc:
            # Sent without a token: LINE's 401 then holds LINE until the credentials change.
            log.warning("%s", short(exc))
            yield request
            return
        request.headers["Authorization"] = f"Bearer {token}"
        response = yield request
        if response.status_code != 401:
            return
        try:
            token = self.source.renew(token)
        except TokenRefused as exc:
            log.warning("%s", short(exc))
            return
        request.headers["Authorization"] = f"Bearer {token}"
        yield request
