"""A request's body read whole under a size limit and a deadline, before anything looks at it: what the
receiver's routes share (LINE's webhook, LINE WORKS' callback)."""

from __future__ import annotations

import asyncio
from typing import Any


async def read_limited(request: Any, *, max_bytes: int, deadline: float) -> bytes | Any:
    """The raw body, or the answer that refuses it: 400 for a malformed Content-Length, 413 past
    `max_bytes` (from the Content-Length, or as soon as a chunked body passes it, unread beyond), 408 when
    it has not arrived within `deadline` seconds (its connection closed). Starlette's types are Any:
    Starlette is imported when a receiver is made."""
    from starlette.responses import JSONResponse

    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            return JSONResponse({"message": "bad Content-Length"}, status_code=400)
        if int(declared) > max_bytes:
            return JSONResponse({"message": "Request Entity Too Large"}, status_code=413)
    body = bytearray()
    try:
        async with asyncio.timeout(deadline):
            async for chunk in request.stream():
                body += chunk
                if len(body) > max_bytes:
                    return JSONResponse({"message": "Request Entity Too Large"}, status_code=413)
    except TimeoutError:
        return JSONResponse({"message": "Request Timeout"}, status_code=408, headers={"Connection": "close"})
    return bytes(body)
