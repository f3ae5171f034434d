"""What Settings shows about the rich menu (core/setup/rich_menu.py): whether Shiftcast has set one, whether
it can be set now (the teachers' page ready, LINE connected), and the language its words take — the first
classroom's, as the replies to a manager's pairing code (core/receiving/pairing.py)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from core.channels.line import access_from_settings
from core.pages.status import page_ready
from core.setup import teachers_page
from core.setup.teachers_page import PageSettings
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Classroom
from core.texts.formats import Language


@dataclass(frozen=True)
class MenuState:
    menu_id: str | None  # the menu Shiftcast set; None: none
    page: PageSettings
    page_ready: bool  # as core/pages/status.py decides it
    line_connected: bool
    language: Language  # the menu's words

    @property
    def can_set(self) -> bool:
        return self.page_ready and self.line_connected


def read(db: Database) -> MenuState:
    with db.read() as session:
        menu_id = keys.LINE_RICH_MENU_ID.read(session)
        ready = page_ready(session)
        room = session.scalar(select(Classroom).order_by(Classroom.id).limit(1))
        language: Language = "en" if room is not None and room.language == "en" else "ja"
    access = access_from_settings(db)
    if access is not None:
        access.client.close()  # only asked whether LINE is connected
    return MenuState(menu_id, teachers_page.read(db), ready, access is not None, language)
