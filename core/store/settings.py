"""Non-secret application settings, kept in the `settings` table as text."""

from __future__ import annotations

from sqlalchemy.orm import Session

from core.store.models import Setting

LINE_API_BASE = "line.api_base"
LINE_HOLD = "line.hold"  # "<error code>|<token fingerprint>|<ISO time>" while LINE refuses our token


def get(session: Session, key: str, default: str | None = None) -> str | None:
    row = session.get(Setting, key)
    return row.value if row is not None else default


def put(session: Session, key: str, value: str | None) -> None:
    row = session.get(Setting, key)
    if value is None:
        if row is not None:
            session.delete(row)
    elif row is None:
        session.add(Setting(key=key, value=value))
    else:
        row.value = value
    session.flush()
