"""GET /liff/sdk.js: the LIFF SDK stand-in (liff_sdk.js beside this module), for pages under test.

Any origin may load it (the relay's page is served from another port or host), and it is never cached
long, so a changed stand-in reaches the next page load.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from core.emulator import responses as r
from core.emulator.exchange import Request, Response

SDK_PATH = "/liff/sdk.js"
SDK_FILE = Path(__file__).resolve().parent / "liff_sdk.js"  # packaged beside the module (packaging/shiftcast.spec)


@lru_cache(maxsize=1)
def _script() -> bytes:
    return SDK_FILE.read_bytes()


def sdk_response(request: Request) -> Response:
    rid = r.new_request_id()
    if request.method != "GET":
        response = r.error(405, r.METHOD_NOT_ALLOWED, rid)
        response.headers.append(("Allow", "GET"))
        return response
    return Response(200, _script(), [("Content-Type", "application/javascript"), ("Access-Control-Allow-Origin", "*"),
                                ("Cache-Control", "no-cache"), ("X-Line-Request-Id", rid)])
