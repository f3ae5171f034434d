"""Pairing the manager's own LINE: one code of the teachers' kind (core/receiving/pairing.py: the same
alphabet, length, life and guessing limits), kept in the settings rather than the teachers' codes table
because it names no teacher. The manager sends it to the official account; the pairing handler then
keeps the sender's LINE user ID as the manager's (where notes for the manager go on LINE, and whom the
teachers' page shows the manager's view), spends the code and replies "paired as manager".

There is one manager code at a time: showing it again keeps a live one (it may be on the screen of
another PC), and a new one is made once it is spent or expired.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.receiving import pairing
from core.store import setting_keys as keys
from core.store.models import PairingCode as PairingCodeRow

REPLIES = {"ja": "管理者として登録しました。管理者へのお知らせをこちらにお送りします。",
           "en": "Paired as manager. Notes for the manager will arrive here."}


@dataclass(frozen=True)
class ManagerCode:
    code: str  # as stored, without hyphens
    expires_at: dt.datetime

    @property
    def shown(self) -> str:
        return pairing.shown(self.code)


def _stored(session: Session) -> ManagerCode | None:
    text = keys.ALERTS_MANAGER_CODE.read(session)
    if not text:
        return None
    found = json.loads(text)
    return ManagerCode(found["code"], dt.datetime.fromisoformat(found["expires_at"]))


def live(session: Session, at: dt.datetime) -> ManagerCode | None:
    found = _stored(session)
    return found if found is not None and pairing.is_live(found.expires_at, None, at) else None


def issue(session: Session, now: dt.datetime) -> ManagerCode:
    """The live manager code, made now if there is none; never one a teacher was ever given."""
    found = live(session, now)
    if found is not None:
        return found
    used = set(session.scalars(select(PairingCodeRow.code)))
    code = pairing.new_code()
    while code in used:
        code = pairing.new_code()
    found = ManagerCode(code, now + pairing.CODE_LIFE)
    keys.ALERTS_MANAGER_CODE.write(session, json.dumps({"code": code, "expires_at": found.expires_at.isoformat()}))
    return found


def bind(session: Session, code: str, user_id: str, at: dt.datetime) -> bool:
    """If `code` (as `pairing.as_code` reads it) is the live manager code: keep `user_id` as the manager's
    LINE user ID and spend the code."""
    found = live(session, at)
    if found is None or found.code != code:
        return False
    keys.ALERTS_LINE_USER_ID.write(session, user_id)
    keys.ALERTS_MANAGER_CODE.write(session, None)
    return True


def reply(language: str) -> str:
    return REPLIES.get(language, REPLIES["ja"])
