"""The month to a LINE group as one message, while the teachers' page is ready and the manager chose it
(PAGES_MONTH_AS_BUTTON): the announcement, in the same words as the pictures' (core/messages/texts.py),
with a button to the page's classroom view of that month. No picture of the month is put anywhere a link
could reach it: the page shows the month only to the classroom's paired teachers.

Built from the publication and the settings alone, so each attempt of a delivery sends the same request
(LINE's retry key).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from core.messages import ack, texts
from core.messages.message import DEFAULT_ACCENT, Action
from core.pages import buttons, status
from core.store import setting_keys as keys


def chosen(session: Session) -> bool:
    """The month goes to LINE groups as a button (the page ready and the manager's choice on)."""
    return keys.PAGES_MONTH_AS_BUTTON.read(session) and status.page_ready(session)


def link(session: Session, language: str, classroom_id: int, year: int, month: int) -> Action | None:
    """"See the month": the page's classroom view of that month; None without the page."""
    return buttons.link_of(session, language, "classroom", label=buttons.CLASSROOM, classroom=f"c{classroom_id}",
                           month=buttons.month_of(year, month))


def message(words: str, action: Action, accent: str = DEFAULT_ACCENT) -> dict[str, Any]:
    """The announcement as a bubble whose one button opens the page; the alt text is the announcement, so a
    notification reads as it did with the pictures."""
    return {"type": "flex", "altText": words[:texts.ALT_TEXT_LIMIT], "contents": {
        "type": "bubble", "size": "kilo",
        "body": {"type": "box", "layout": "vertical",
                 "contents": [{"type": "text", "text": words, "wrap": True, "size": "sm"}]},
        "footer": ack.footer_of([{"type": "uri", "label": action.label, "uri": action.data}], accent)}}


def for_group(session: Session, *, classroom: str, classroom_id: int, language: str, year: int, month: int,
              revision: int, changed: int) -> dict[str, Any] | None:
    """The month's one message to a LINE group when it goes as a button; None: it goes as today."""
    if not keys.PAGES_MONTH_AS_BUTTON.read(session):
        return None
    action = link(session, language, classroom_id, year, month)
    if action is None:
        return None
    return message(texts.publication_text(classroom, year, month, revision, changed, language), action)
