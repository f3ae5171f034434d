"""A message as data: a code and typed parameters, rendered in a language only when shown.

`str(text)` is English, which is what logs and exceptions carry; `logged(text)` adds the code so a
support request can quote it. Parameters are typed values, not preformatted strings: a date is a
`date`, a count an `int`, so each language writes them its own way (core/texts/formats.py).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Union

from core.texts import formats
from core.texts.catalog import MESSAGES
from core.texts.formats import Language
from core.texts.template import Plural

Param = Union[str, int, float, dt.date, dt.time, "Text", tuple["Param", ...]]


@dataclass(frozen=True)
class Text:
    """One message: a catalog code and its parameters."""

    code: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(self, "en")


def t(code: str, /, **params: Param) -> Text:
    """A message of the catalog: `t("csv.bad_date", text=cell)`. Unknown codes fail here, at once."""
    if code not in MESSAGES:
        raise KeyError(f"no message {code!r} in core/texts/catalog.py or a front end's registered catalog")
    return Text(code, dict(params))


def _value(value: Param, lang: Language, counted: bool = False) -> str:
    """One parameter as `lang` writes it. Numbers are grouped ("1,200") only where they count something
    (a parameter named `count` or `…_count`): an id, a line number or a port is written as it is."""
    if isinstance(value, Text):
        return render(value, lang)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float):
        return formats.number(value, lang) if counted else str(value)
    if isinstance(value, dt.datetime):
        return formats.wall_text(value, lang)
    if isinstance(value, dt.date):
        return formats.day_text(value, lang)
    if isinstance(value, dt.time):
        return formats.time_text(value)
    if isinstance(value, tuple | list):
        items = [_value(item, lang) for item in value]
        if value and all(isinstance(item, Text) and not item.code.startswith("word.") for item in value):
            # Whole sentences (CSV problems, say) are listed as sentences; words (`word.…`, a CSV
            # file's column names) as words.
            return ("; " if lang == "en" else " ").join(items)
        return formats.join(items, lang)
    return shortened(value, lang) if isinstance(value, str) else str(value)


# A value longer than any real name, date or address (a whole file pasted into a cell, a path of
# megabytes) is shown by its start and its length: the sentence stays one line and still says which.
ECHO_LIMIT = 200
ECHO_START = 60


def shortened(value: str, lang: Language) -> str:
    """`value` as a message shows it: whole, or its first characters, "…" and its length."""
    if len(value) <= ECHO_LIMIT:
        return value
    return render(Text("text.shortened", {"start": value[:ECHO_START], "count": len(value)}), lang)


def render(text: Text | str, lang: Language) -> str:
    """The sentence in `lang`. A plain string (an old or foreign message) is shown as it is."""
    if isinstance(text, str):
        return text
    english, japanese = MESSAGES[text.code]
    template = japanese if lang == "ja" else english
    chosen = template.pick(text.params) if isinstance(template, Plural) else template
    return chosen.format_map({name: _value(value, lang, name.endswith("count"))
                              for name, value in text.params.items()})


def logged(text: Text | str) -> str:
    """English with the code, for log files: "nothing to publish [publish.nothing_new]"."""
    return str(text) if isinstance(text, str) else f"{render(text, 'en')} [{text.code}]"


def describe(error: BaseException, lang: Language) -> str:
    """An exception as the person reads it: its Text in `lang` if it carries one, else its words."""
    text = getattr(error, "text", None)
    return render(text, lang) if isinstance(text, Text) else str(error)


# ----- kept in a text column (an alert's title and detail) -----

_MARK = "\x1etext:"


def dumps(text: Text | str) -> str:
    """A Text as one string for a database column; `loads` gives it back. Plain strings stay plain."""
    if isinstance(text, str):
        return text
    return _MARK + json.dumps({"code": text.code, "params": _plain(text.params)}, ensure_ascii=False)


def loads(stored: str) -> Text | str:
    """What `dumps` wrote; any other text (rows written before messages had codes) comes back as is."""
    if not stored.startswith(_MARK):
        return stored
    data = json.loads(stored[len(_MARK):])
    return Text(data["code"], {k: _typed(v) for k, v in data["params"].items()})


def _plain(params: Mapping[str, Param]) -> dict[str, object]:
    def one(value: Param) -> object:
        if isinstance(value, Text):
            return {"text": value.code, "params": _plain(value.params)}
        if isinstance(value, dt.datetime):
            return {"datetime": value.isoformat()}
        if isinstance(value, dt.date):
            return {"date": value.isoformat()}
        if isinstance(value, dt.time):
            return {"time": value.isoformat()}
        if isinstance(value, tuple | list):
            return [one(item) for item in value]
        return value

    return {name: one(value) for name, value in params.items()}


def _typed(value: object) -> Param:
    if isinstance(value, list):
        return tuple(_typed(item) for item in value)
    if isinstance(value, dict):
        if "text" in value:
            return Text(value["text"], {k: _typed(v) for k, v in value["params"].items()})
        if "datetime" in value:
            return dt.datetime.fromisoformat(value["datetime"])
        if "date" in value:
            return dt.date.fromisoformat(value["date"])
        if "time" in value:
            return dt.time.fromisoformat(value["time"])
    assert isinstance(value, str | int | float)
    return value
