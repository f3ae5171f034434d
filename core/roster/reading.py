"""A teacher's reading (ふりがな) and the order in which teachers are listed.

Japanese names cannot be sorted by their characters: in code-point order 中村 comes before 伊藤 and
佐藤, which is no order a person knows. The order people use is the reading's (あいうえお順), and only
the manager knows it, so a teacher may carry one. A manager may also want an order of their own
(senior teachers first, or by subject), so a teacher may carry a place in it, a position
(core/roster/order.py moves them). The rule everywhere teachers are listed (the roster grid, the
teachers' dialog, the command line, the month image, the CSV export):

1. teachers with a position, by it (then as below, should two share one);
2. then teachers with a reading, by their reading, then by name;
3. after them, teachers without one, by name (code order: nothing better is known about them);
4. erased teachers (no name left) last, by id; and equal keys by id, so the order never wobbles.

Readings compare with widths folded and katakana as hiragana (NFKC, then カ → か), so サトウ, ｻﾄｳ and
さとう are one reading. A reading is free text: a romanised one ("Smith") sorts after the kana ones.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, TypeVar

from core.errors import ValidationError
from core.texts import t

MAX_LENGTH = 200  # the column's width, as a name's
MAX_POSITION = 100_000  # far beyond any classroom's teachers; keeps a typed number inside the column
_KATAKANA = range(ord("ァ"), ord("ヶ") + 1)  # to ぁ–ゖ, the same letters 0x60 lower
_HIRAGANA_OFFSET = ord("ァ") - ord("ぁ")


class Named(Protocol):
    """What sorting needs of a teacher (a Teacher row, a record read from one)."""

    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str | None: ...

    @property
    def reading(self) -> str | None: ...

    @property
    def position(self) -> int | None: ...


T = TypeVar("T", bound=Named)
OrderKey = tuple[int, int, int, str, str, int]  # placed or not, the place, reading or not, reading, name, id


def check(reading: str | None) -> str | None:
    """A reading as stored: trimmed, None when empty; refused when longer than the column."""
    text = (reading or "").strip()
    if len(text) > MAX_LENGTH:
        raise ValidationError(t("roster.reading_too_long", limit_count=MAX_LENGTH))
    return text or None


def check_position(position: int | None) -> int | None:
    """A place in the manager's order as stored (1 first), None for "by reading"; refused when out of range."""
    if position is not None and not 1 <= position <= MAX_POSITION:
        raise ValidationError(t("roster.bad_position", value=str(position), limit_count=MAX_POSITION))
    return position


def position_of(text: str) -> int | None:
    """A place as typed (a CSV cell, full-width digits too), checked; an empty text is "by reading"."""
    cleaned = unicodedata.normalize("NFKC", text).strip()
    if not cleaned:
        return None
    if not cleaned.isdecimal() or len(cleaned) > len(str(MAX_POSITION)):
        raise ValidationError(t("roster.bad_position", value=text, limit_count=MAX_POSITION))
    return check_position(int(cleaned))


def folded(reading: str) -> str:
    """The reading as it compares: widths folded, katakana as hiragana, case ignored."""
    text = unicodedata.normalize("NFKC", reading).casefold()
    return "".join(chr(ord(c) - _HIRAGANA_OFFSET) if ord(c) in _KATAKANA else c for c in text)


def order_key(name: str | None, reading: str | None, ident: int = 0,
              position: int | None = None) -> OrderKey:
    """Where a teacher stands in every list: see the module's rule."""
    if name is None:
        return (1, 0, 2, "", "", ident)
    placed = (0, position) if position is not None else (1, 0)
    if reading and reading.strip():
        return (*placed, 0, folded(reading), name, ident)
    return (*placed, 1, "", name, ident)


def as_listed(listed: Sequence[str]) -> Callable[[str], tuple[int, str]]:
    """A sort key for teachers' names as a month already lists them (its rows, a publication's
    snapshot): those in `listed` in its order, any other (a teacher whose shifts all went) after, by name."""
    places = {name: place for place, name in enumerate(listed)}
    return lambda name: (places.get(name, len(places)), name)


def in_order(teachers: Iterable[T]) -> list[T]:
    """The teachers in the listing order."""
    return sorted(teachers, key=lambda teacher: order_key(teacher.name, teacher.reading, teacher.id, teacher.position))
