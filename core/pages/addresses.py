"""The page's addresses: LIFF URLs that LINE opens inside the app (the endpoint URL is `<relay>/liff/`,
and LINE hands the query over as `liff.state`, which the SDK restores)."""

from __future__ import annotations

from urllib.parse import urlencode

VIEWS = frozenset({"month", "classroom", "availability", "covers", "calendar", "manager"})


def page_url(liff_id: str, view: str, **params: str | int) -> str:
    if view not in VIEWS:
        raise ValueError(f"no such view of the page: {view}")
    return f"https://liff.line.me/{liff_id}?" + urlencode({"view": view, **{k: str(v) for k, v in params.items()}})
