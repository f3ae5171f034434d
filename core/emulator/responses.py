"""JSON answers in LINE's shapes, each with its own X-Line-Request-Id."""

from __future__ import annotations

import json
import uuid
from typing import Any

from core.emulator.exchange import Response

# LINE's wording where LINE documents or is known to use it.
NOT_FOUND = "Not found"
AUTH_REQUIRED = "Authorization header required. Must follow the scheme, 'Authorization: Bearer <ACCESS TOKEN>'"
AUTH_INVALID = (
    "Authentication failed due to the following reason: invalid token. "
    "Confirm that the access token in the authorization header is valid."
)
TOO_LARGE = "Request Entity Too Large"
RATE_LIMITED = "The API rate limit has been exceeded. Try again later."
MONTHLY_LIMIT = "You have reached your monthly limit."
RETRY_KEY_ACCEPTED = "The retry key is already accepted"
INTERNAL = "Internal server error"
FAILED_TO_SEND = "Failed to send messages"
# Wording of our own where LINE's is not documented.
METHOD_NOT_ALLOWED = "Method not allowed"
UNSUPPORTED_MEDIA = "The request body must be JSON with Content-Type: application/json"
RETRY_KEY_NOT_SUPPORTED = "X-Line-Retry-Key header is not supported"
RETRY_KEY_INVALID = "The retry key is not a valid UUID"
INVALID_REPLY_TOKEN = "Invalid reply token"  # unknown, used already, or older than a minute


def new_request_id() -> str:
    return str(uuid.uuid4())


def dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def json_response(status: int, value: Any, request_id: str, headers: list[tuple[str, str]] | None = None) -> Response:
    all_headers = [("X-Line-Request-Id", request_id)]
    if headers:
        all_headers.extend(headers)
    return Response(status, dumps(value), all_headers)


def error(status: int, message: str, request_id: str, **extra: Any) -> Response:
    return json_response(status, {"message": message, **extra}, request_id)


def body_errors(problems: list[tuple[str, str]], request_id: str) -> Response:
    details = [{"message": message, "property": prop} for prop, message in problems]
    return error(400, f"The request body has {len(details)} error(s)", request_id, details=details)
