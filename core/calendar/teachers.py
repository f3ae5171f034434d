"""The teacher a command line names: the whole name, or a part that only one teacher's name holds."""

from __future__ import annotations

import unicodedata

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.errors import NotFoundError, ValidationError
from core.store.models import Teacher
from core.texts import t


def _plain(name: str) -> str:
    # 佐藤　花子 (a full-width space), 佐藤花子 and ｻﾄｳ are typed for the same person as often as the name itself.
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())


def teacher_named(session: Session, name: str) -> Teacher:
    """The teacher of this name; else the one teacher whose name holds it (spaces and width aside).
    Several such teachers: ValidationError naming them; none: NotFoundError."""
    wanted = name.strip()
    exact = session.scalar(select(Teacher).where(Teacher.name == wanted, Teacher.erased_at.is_(None)))
    if exact is not None:
        return exact
    part = _plain(wanted)
    found = [teacher for teacher in session.scalars(select(Teacher).where(Teacher.erased_at.is_(None)))
             if part and teacher.name is not None and part in _plain(teacher.name)]
    if len(found) == 1:
        return found[0]
    if found:
        raise ValidationError(t("calendar.ambiguous_teacher", name=wanted,
                                names=tuple(sorted(teacher.display_name for teacher in found))))
    raise NotFoundError(t("roster.unknown_teacher", name=wanted))
