"""What the kinds' messages (core/sending/kinds/) are made of, on every channel: a shift's facts, a
publication's month as it was published (core/messages/month_flex.py), and the teachers' text
templates read from the data folder (core/messages/texts.py).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from core.messages import month_flex, texts
from core.roster import month as month_roster
from core.store.models import Classroom, Publication, Shift, ShiftRevision
from core.store.paths import DataPaths
from core.texts.formats import Language


def facts_of(shift: Shift | ShiftRevision, classroom: Classroom, note: str = "") -> texts.ShiftFacts:
    return texts.ShiftFacts(classroom.name, shift.local_date, shift.start_time, shift.end_time,
                               shift.ends_next_day, note)


def month_facts(publication: Publication, classroom: Classroom) -> month_flex.MonthFacts:
    """What the publication showed, from its own snapshot: a shift changed since does not change it."""
    language = language_of(classroom.language)
    changed = frozenset((str(name), int(day)) for name, day in json.loads(publication.changes_json or "[]"))
    return month_flex.MonthFacts(classroom.name, publication.year, publication.month, publication.revision,
                                 month_roster.cells_of(publication.snapshot_json), changed, language)


def templates(language: str, paths: DataPaths) -> dict[str, str]:
    return _templates(language, paths.templates)


@lru_cache(maxsize=8)
def _templates(language: str, folder: Path) -> dict[str, str]:
    # Loaded once per process and folder: a template edited in the data folder applies from the next start.
    return texts.load_templates(language, folder)


def language_of(language: str) -> Language:
    """A classroom's language as the messages are written in: English, else Japanese."""
    return "en" if language == "en" else "ja"
