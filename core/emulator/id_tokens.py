"""LIFF ID tokens: issued by the control API, checked by LINE Login's `POST /oauth2/v2.1/verify`.

Each emulator makes its own ES256 key pair when it starts, so a token signed by another emulator (or
forged) is as invalid here as a stranger's token is at LINE. Verification follows LINE Login's
reference: the form fields `id_token`, `client_id` and the optional `nonce` and `user_id`; 200 with the
token's claims, or 400 `{"error": "invalid_request", "error_description": …}` in LINE's words, checked
in the reference's order (signature, issuer, expiry, audience, nonce, subject). Time is the emulator's
clock, so a test makes an expired token by issuing it with a negative lifetime rather than waiting.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import ec

from core.emulator import responses as r
from core.emulator.exchange import Request, Response
from core.emulator.tokens import oauth_error, oauth_form
from core.emulator.validation import USER_ID

PATH = "/oauth2/v2.1/verify"
ISSUER = "https://access.line.me"
ALGORITHM = "ES256"

# LINE Login's error_description values for the verify call.
INVALID = "Invalid IdToken."
INVALID_ISSUER = "Invalid IdToken Issuer."
EXPIRED = "IdToken expired."
INVALID_AUDIENCE = "Invalid IdToken Audience."
INVALID_NONCE = "Invalid IdToken Nonce."
INVALID_SUBJECT = "Invalid IdToken Subject Identifier."


class IdTokens:
    """The emulator's signing key; safe to call from any thread (it keeps no other state)."""

    def __init__(self) -> None:
        self._key = ec.generate_private_key(ec.SECP256R1())
        self._public = self._key.public_key()
        self._kid = secrets.token_hex(16)

    def issue(self, user_id: str, channel_id: str, *, now: dt.datetime, expires_in: int = 3600,
              name: str | None = None, nonce: str | None = None) -> str:
        if not isinstance(user_id, str) or USER_ID.fullmatch(user_id) is None:
            raise ValueError(f"malformed user ID {user_id!r}: U followed by 32 lowercase hex digits")
        if not isinstance(channel_id, str) or not channel_id:
            raise ValueError("channel_id is required (the LINE Login channel ID, the token's audience)")
        if isinstance(expires_in, bool) or not isinstance(expires_in, int):
            raise ValueError("expires_in must be a whole number of seconds (zero or less: already expired)")
        if name is not None and not isinstance(name, str):
            raise ValueError("name must be a string")
        issued_at = int(now.timestamp())
        claims: dict[str, Any] = {"iss": ISSUER, "sub": user_id, "aud": channel_id,
                                  "exp": issued_at + expires_in, "iat": issued_at, "amr": ["linesso"]}
        if nonce is not None:
            claims["nonce"] = nonce
        if name is not None:
            claims["name"] = name
        return jwt.encode(claims, self._key, algorithm=ALGORITHM, headers={"kid": self._kid})

    def answer(self, request: Request, now: dt.datetime) -> Response:
        rid = r.new_request_id()
        form = oauth_form(request, rid)
        if isinstance(form, Response):
            return form
        token, client_id = form.get("id_token", ""), form.get("client_id", "")
        if not token:
            return _refused("id_token is required", rid)
        if not client_id:
            return _refused("client_id is required", rid)
        claims, problem = self._check(token, form, client_id, now)
        if problem is not None:
            return _refused(problem, rid)
        return r.json_response(200, claims, rid)

    def _check(self, token: str, form: dict[str, str], client_id: str,
               now: dt.datetime) -> tuple[dict[str, Any], str | None]:
        try:
            # Expiry and audience are checked below, in LINE's order and on the emulator's clock.
            claims: dict[str, Any] = jwt.decode(token, self._public, algorithms=[ALGORITHM],
                                                options={"verify_exp": False, "verify_aud": False,
                                                         "verify_iat": False, "verify_nbf": False,
                                                         "require": ["iss", "sub", "aud", "exp", "iat"]})
        except jwt.InvalidTokenError:
            return {}, INVALID
        if claims.get("iss") != ISSUER:
            return claims, INVALID_ISSUER
        exp = claims.get("exp")
        if not isinstance(exp, int) or exp <= now.timestamp():
            return claims, EXPIRED
        if claims.get("aud") != client_id:
            return claims, INVALID_AUDIENCE
        if "nonce" in form and claims.get("nonce") != form["nonce"]:
            return claims, INVALID_NONCE
        if "user_id" in form and claims.get("sub") != form["user_id"]:
            return claims, INVALID_SUBJECT
        return claims, None


def _refused(description: str, rid: str) -> Response:
    return oauth_error(400, "invalid_request", description, rid)
