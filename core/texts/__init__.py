"""What core says to a person, in Japanese and English: the lowest layer of core.

A message is a `Text`: a stable code and typed parameters (names, counts, line numbers, dates, times).
`catalog` holds one English and one Japanese template per code, `render` turns a Text into a sentence
in a language, `formats` writes dates, times, weekdays and numbers the one way each language writes
them, and `language` picks the language from a setting or the OS locale. Errors, problems, alerts,
cancel reasons and setting checks carry a Text; the front ends render it, logs keep English and the
code. This package imports nothing of Shiftcast but itself; every other part of core may import it.
"""

from __future__ import annotations

from core.texts.message import Param, Text, describe, render, t
from core.texts.template import Plural

__all__ = ["Param", "Plural", "Text", "describe", "render", "t"]
