"""What LINE messages are made of, shared by the kinds that send on LINE (core/sending/kinds/): a
shift's facts, the reminder's push (also built by the lean reminder path, core/sending/reminder_batch.py),
the 了解 button, a publication's month as the Flex messages make it (core/messages/month_flex.py), and
the teachers' text templates read from the data folder.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from sqlalchemy.orm import Session

from core.channels.base import Outgoing
from core.messages import ack, cover, month_flex, texts
from core.roster import month as month_roster
from core.store.models import Classroom, Delivery, Publication, Shift, ShiftRevision
from core.store.paths import DataPaths
from core.texts.formats import Language


def facts_of(shift: Shift | ShiftRevision, classroom: Classroom, note: str = "") -> texts.ShiftFacts:
    return texts.ShiftFacts(classroom.name, shift.local_date, shift.start_time, shift.end_time,
                               shift.ends_next_day, note)


def month_facts(publication: Publication, classroom: Classroom) -> month_flex.MonthFacts:
    """What the publication showed, from its own snapshot: a shift changed since does not change it."""
    language: Language = "en" if classroom.language == "en" else "ja"
    changed = frozenset((str(name), int(day)) for name, day in json.loads(publication.changes_json or "[]"))
    return month_flex.MonthFacts(classroom.name, publication.year, publication.month, publication.revision,
                                 month_roster.cells_of(publication.snapshot_json), changed, language)


def ack_data(session: Session, delivery: Delivery) -> str | None:
    """The 了解 button's data for this delivery, or None while the buttons are off (the setting is read
    at every build: a retry after the manager switched it carries what the setting says now)."""
    sign = ack.signer(session)
    return None if sign is None else sign(delivery.id)


def with_ack(outgoing: Outgoing, data: str | None, language: str) -> Outgoing:
    """The push with the 了解 button in its message (as it is, without data)."""
    return with_buttons(outgoing, [] if data is None else [ack.Button(ack.label(language), data)])


def with_buttons(outgoing: Outgoing, buttons: list[ack.Button]) -> Outgoing:
    """The push with these buttons in its message's footer (as it is, without any)."""
    if not buttons:
        return outgoing
    return dataclasses.replace(outgoing, messages=tuple(ack.with_buttons(m, buttons) for m in outgoing.messages))


def reminder_buttons(ack_sign: Callable[[int], str] | None, ask_sign: cover.Signer | None, delivery_id: int,
                     language: str) -> list[ack.Button]:
    """A reminder's buttons: 了解 and "Ask for cover", each while the manager has it on."""
    buttons = [] if ack_sign is None else [ack.Button(ack.label(language), ack_sign(delivery_id))]
    return buttons + ([] if ask_sign is None else [cover.ask_button(ask_sign, delivery_id, language)])


def reminder_push(facts: texts.ShiftFacts, language: str, line_user_id: str, paths: DataPaths) -> Outgoing:
    """The LINE push of a reminder (also built by core/sending/reminder_batch.py, from the same facts)."""
    text = texts.reminder_text(facts, language, templates(language, paths))
    return Outgoing("push", line_user_id, (texts.flex_message(text),))


def templates(language: str, paths: DataPaths) -> dict[str, str]:
    return _templates(language, paths.templates)


@lru_cache(maxsize=8)
def _templates(language: str, folder: Path) -> dict[str, str]:
    # Loaded once per process and folder: a template edited in the data folder applies from the next start.
    return texts.load_templates(language, folder)
