"""Reading a time of day the way a manager types it. Pure: text in, wall time out.

Accepted, each also in full-width characters (what a Japanese input method types by default):
`17:00`, `9:05`, `1700`, `930`, `17時`, `17時30分`, `17時半`, `午後5時`, `5pm`, `5:30 pm`.
With `allow_next_day`, 24:00–47:59 (`26:00`, `2600`, `26時`) means that time on the next day, the
way Japanese rosters write a shift that ends after midnight.

A bare `17` is refused: one or two digits alone are as likely a slip as an hour (`17` typed
for `1700` loses the minutes without a trace), so the hour needs its `:MM`, `時` or `pm`.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata

from core.errors import ValidationError
from core.texts import t

EXAMPLES = "17:00, 1700 or 17時30分"

_CLOCK = re.compile(r"(?P<hours>\d{1,2}):(?P<minutes>\d{2})", re.ASCII)
_DIGITS = re.compile(r"(?P<hours>\d{1,2})(?P<minutes>\d{2})", re.ASCII)
_KANJI = re.compile(r"(?P<hours>\d{1,2})時(?:(?P<minutes>\d{1,2})分?|(?P<half>半))?", re.ASCII)
_TWELVE_HOUR = re.compile(r"(?P<hours>\d{1,2})(?::(?P<minutes>\d{2}))?(?P<half>[ap])\.?m\.?", re.ASCII)
_JAPANESE_HALF_DAY = re.compile(r"(?P<half>午前|午後)(?P<rest>.+)", re.ASCII)


def parse(text: str, *, allow_next_day: bool = False) -> tuple[dt.time, bool]:
    """(wall time, on the next day). Raises ValidationError naming the text and the accepted forms."""
    # NFKC folds full-width digits and colons (１７：００) to ASCII; spaces carry no meaning here.
    raw = re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).lower()
    if not raw:
        raise ValidationError(t("time.missing", examples=EXAMPLES))
    japanese = _JAPANESE_HALF_DAY.fullmatch(raw)
    if japanese:
        hours, minutes = _twenty_four_hour(japanese["rest"], text)
        if hours > 11:
            raise ValidationError(t("time.half_day_hour", text=text))
        return dt.time(hours + (12 if japanese["half"] == "午後" else 0), minutes), False
    twelve = _TWELVE_HOUR.fullmatch(raw)
    if twelve:
        hours, minutes = int(twelve["hours"]), int(twelve["minutes"] or 0)
        if not (1 <= hours <= 12 and minutes < 60):
            raise ValidationError(t("time.twelve_hour", text=text))
        return dt.time(hours % 12 + (12 if twelve["half"] == "p" else 0), minutes), False
    hours, minutes = _twenty_four_hour(raw, text)
    limit = 48 if allow_next_day else 24
    if hours >= limit:
        raise ValidationError(t("time.hour_range", text=text, last=limit - 1))
    return dt.time(hours % 24, minutes), hours >= 24


def _twenty_four_hour(raw: str, text: str) -> tuple[int, int]:
    for pattern in (_CLOCK, _DIGITS, _KANJI):
        found = pattern.fullmatch(raw)
        if found:
            break
    else:
        raise ValidationError(t("time.unreadable", text=text, examples=EXAMPLES))
    groups = found.groupdict()
    minutes = 30 if groups.get("half") else int(groups["minutes"] or 0)
    if minutes >= 60:
        raise ValidationError(t("time.minute_range", text=text))
    return int(found["hours"]), minutes

