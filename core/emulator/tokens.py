"""POST /oauth2/v3/token: stateless channel access tokens for the configured channel ID and secret.

A token is valid 15 minutes of emulator time (LINE answers expires_in 899) and
is accepted as a bearer token by the Messaging API endpoints until then, beside the long-lived token the
emulator was started with. LINE cannot revoke a stateless token; `revoke_all` exists so a test can
make a token the client still believes in be refused (a 401 it must renew after).
"""

from __future__ import annotations

import datetime as dt
import hmac
import json
import secrets
from urllib.parse import parse_qs

from core.emulator import responses as r
from core.emulator.exchange import Request, Response

PATH = "/oauth2/v3/token"
LIFETIME = dt.timedelta(seconds=900)
EXPIRES_IN = 899  # LINE's example: the token is made a moment before the answer leaves


class StatelessTokens:
    """Called under the emulator's state lock."""

    def __init__(self) -> None:
        self.channel_id: str | None = None
        self.channel_secret: str | None = None
        self._expiry: dict[str, dt.datetime] = {}
        self.issued = 0

    def issue(self, now: dt.datetime) -> str:
        token = "stateless." + secrets.token_urlsafe(32)
        self._expiry = {t: e for t, e in self._expiry.items() if e > now}
        self._expiry[token] = now + LIFETIME
        self.issued += 1
        return token

    def valid(self, token: str, now: dt.datetime) -> bool:
        expiry = self._expiry.get(token)
        return expiry is not None and now < expiry

    def revoke_all(self) -> None:
        self._expiry.clear()

    def answer(self, request: Request, now: dt.datetime) -> Response:
        rid = r.new_request_id()
        form = oauth_form(request, rid)
        if isinstance(form, Response):
            return form
        if form.get("grant_type") != "client_credentials":
            return oauth_error(400, "unsupported_grant_type", "grant_type must be client_credentials", rid)
        client_id, client_secret = form.get("client_id", ""), form.get("client_secret", "")
        if not client_id or not client_secret:
            return oauth_error(400, "invalid_request", "client_id and client_secret are required", rid)
        if self.channel_id is None or self.channel_secret is None or client_id != self.channel_id:
            return oauth_error(400, "invalid_client", "invalid client_id", rid)
        if not hmac.compare_digest(client_secret.encode(), self.channel_secret.encode()):
            return oauth_error(400, "invalid_client", "invalid client_secret", rid)
        token = self.issue(now)
        return r.json_response(200, {"token_type": "Bearer", "access_token": token, "expires_in": EXPIRES_IN}, rid)


def oauth_form(request: Request, rid: str) -> dict[str, str] | Response:
    """The form fields of a POST to one of LINE's OAuth endpoints, or the answer refusing the request."""
    if request.method != "POST":
        response = r.error(405, r.METHOD_NOT_ALLOWED, rid)
        response.headers.append(("Allow", "POST"))
        return response
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media_type != "application/x-www-form-urlencoded":
        return oauth_error(400, "invalid_request", "Content-Type must be application/x-www-form-urlencoded", rid)
    try:
        return {k: v[-1] for k, v in parse_qs(request.body.decode("utf-8"), keep_blank_values=True).items()}
    except UnicodeDecodeError:
        return oauth_error(400, "invalid_request", "the body is not UTF-8", rid)


def oauth_error(status: int, error: str, description: str, rid: str) -> Response:
    # OAuth's error shape (channel-access-token.yml's ErrorResponse), not the Messaging API's.
    return Response(status, json.dumps({"error": error, "error_description": description}).encode(),
                    [("X-Line-Request-Id", rid)])
