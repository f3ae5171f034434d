"""A teacher's reading (ふりがな) and the order in which teachers are listed.

Japanese names cannot be sorted by their characters: in code-point order 中村 comes before 伊藤 and
佐藤, which is no order a person knows. The order people use is the reading's (あいうえお順), and only
the manager knows it, so a teacher may carry one. The rule everywhere teachers are listed (the roster
grid, the teachers' dialog, the command line, the month image, the CSV export):

1. teachers with a reading, by their reading, then by name;
2. after them, teachers without one, by name (code order: nothing better is known about them);
3. erased teachers (no name left) last, by id; and equal keys by id, so the order never wobbles.

Readings compare with widths folded and katakana as hiragana (NFKC, then カ → か), so サトウ, ｻﾄｳ and
さとう are one reading. A reading is free text: a romanised one ("Smith") sorts after the kana ones.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Protocol, TypeVar

from core.errors import ValidationError
from core.texts import t

MAX_LENGTH = 200  # the column's width, as a name's
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


T = TypeVar("T", bound=Named)


def check(reading: str | None) -> str | None:
    """A reading as stored: trimmed, None when empty; refused when longer than the column."""
    text = (reading or "").strip()
    if len(text) > MAX_LENGTH:
        raise ValidationError(t("roster.reading_too_long", limit_count=MAX_LENGTH))
    return text or None


def folded(reading: str) -> str:
    """The reading as it compares: widths folded, katakana as hiragana, case ignored."""
    text = unicodedata.normalize("NFKC", reading).casefold()
    return "".join(chr(ord(c) - _HIRAGANA_OFFSET) if ord(c) in _KATAKANA else c for c in text)


def order_key(name: str | None, reading: str | None, ident: int = 0) -> tuple[int, str, str, int]:
    """Where a teacher stands in every list: see the module's rule."""
    if name is None:
        return (2, "", "", ident)
    if reading and reading.strip():
        return (0, folded(reading), name, ident)
    return (1, "", name, ident)


def in_order(teachers: Iterable[T]) -> list[T]:
    """The teachers in the listing order."""
    return sorted(teachers, key=lambda teacher: order_key(teacher.name, teacher.reading, teacher.id))
