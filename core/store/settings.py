"""Non-secret application settings, kept in the `settings` table as text, read and written through
typed declarations.

Every key is declared once, in core/store/setting_keys.py, with its type, default and rule, e.g.
`SMTP_PORT = IntSetting("smtp.port", t("setting.label.smtp.port"), minimum=1, maximum=65535)`. Code reads
`SMTP_PORT.read(session)` (an int, or the default while unset) and writes `SMTP_PORT.write(session,
587)`: a value that breaks the rule raises ValidationError before anything is stored, and a stored
value is parsed the same way wherever it is read. The stored form stays the text it always was, so a
database from before the declarations reads back the same values.

`get` and `put` below are the raw text underneath, for the declarations; tests/test_settings.py
fails on code elsewhere that calls them or writes a key out.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlalchemy.orm import Session

from core.addresses import secure_or_local
from core.errors import ValidationError
from core.store.models import Setting
from core.texts import Text, t

T = TypeVar("T")
MAX_KEY_LENGTH = 100  # the settings table's key column


# ----- the raw text -----


def get(session: Session, key: str, default: str | None = None) -> str | None:
    """The stored text under `key` (no parsing, no rule): use a declaration instead."""
    row = session.get(Setting, key)
    return row.value if row is not None else default


def put(session: Session, key: str, value: str | None) -> None:
    """Store text under `key`; None deletes the row (no rule): use a declaration instead."""
    row = session.get(Setting, key)
    if value is None:
        if row is not None:
            session.delete(row)
    elif row is None:
        session.add(Setting(key=key, value=value))
    else:
        row.value = value
    session.flush()


# ----- declarations -----


class Declared(Generic[T]):
    """One setting: its key, what it means (`label`, a catalog Text used in messages), its default and
    its rule (also a Text: a refused value is told in the manager's language).

    `T` is what `read` returns; it includes None for settings whose default is "not set".
    Subclasses say how text becomes a value (`parse`), which values are allowed (`check`, which
    also normalises, e.g. trims text) and how a value is stored (`format`).
    """

    def __init__(self, name: str, label: Text, default: T) -> None:
        if not name or len(name) > MAX_KEY_LENGTH or name != name.strip():
            raise ValueError(f"bad setting key {name!r}")
        self.name = name
        self.label = label
        self.default = default

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def read(self, session: Session) -> T:
        """The stored value, or the default while unset. A stored text this declaration cannot read
        (edited by hand) raises ValidationError naming the key, rather than passing on as garbage."""
        text = get(session, self.name)
        if text is None:
            return self.default
        try:
            return self.parse(text)
        except ValidationError as exc:
            raise ValidationError(t("setting.saved_unusable", key=self.name, value=text, problem=exc.text)) from None

    def write(self, session: Session, value: T | None) -> None:
        """Check `value` and store it; None (or what `check` normalises to None) removes the setting.
        A refused value raises ValidationError and leaves the stored one as it was."""
        checked = self.check(value) if value is not None else None
        put(session, self.name, None if checked is None else self.format(checked))

    def clear(self, session: Session) -> None:
        put(session, self.name, None)

    def is_set(self, session: Session) -> bool:
        return get(session, self.name) is not None

    def check(self, value: T) -> T | None:
        """`value` normalised, or ValidationError with a message fit for the user."""
        raise NotImplementedError

    def parse(self, text: str) -> T:
        raise NotImplementedError

    def format(self, value: T) -> str:
        raise NotImplementedError

    def _refuse(self, value: object, rule: Text) -> ValidationError:
        return ValidationError(t("setting.refused", label=self.label, rule=rule, value=repr(value)))


class TextSetting(Declared[str | None]):
    """Free text, trimmed; empty means unset. `rule` checks the trimmed text and may rewrite it."""

    def __init__(self, name: str, label: Text, default: str | None = None, *, max_length: int = 1000,
                 rule: Callable[[str], str] | None = None, rule_says: Text | None = None) -> None:
        super().__init__(name, label, default)
        self.max_length = max_length
        self.rule = rule
        self.rule_says = rule_says

    def check(self, value: str | None) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str):
            raise self._refuse(value, t("setting.rule.text"))
        text = value.strip()
        if not text:
            return None
        if len(text) > self.max_length or "\0" in text:
            raise self._refuse(value, t("setting.rule.text_length", length=self.max_length))
        if self.rule is not None:
            try:
                text = self.rule(text)
            except ValueError:
                raise self._refuse(value, self.rule_says or t("setting.rule.text")) from None
        return text

    def parse(self, text: str) -> str | None:
        return self.check(text) if text.strip() else self.default

    def format(self, value: str | None) -> str:
        assert value is not None
        return value


class ChoiceSetting(Declared[str]):
    """One of a fixed set of words, compared in lower case."""

    def __init__(self, name: str, label: Text, choices: Sequence[str], default: str) -> None:
        super().__init__(name, label, default)
        self.choices = tuple(choices)

    def check(self, value: str | None) -> str | None:
        if value is None:
            return None
        word = value.strip().lower() if isinstance(value, str) else value
        if word not in self.choices:
            raise self._refuse(value, t("setting.rule.choice", choices=self.choices))
        return word

    def parse(self, text: str) -> str:
        return self.check(text) or self.default

    def format(self, value: str) -> str:
        return value


class IntSetting(Declared[int | None]):
    """A whole number within [minimum, maximum]; unset reads as `default` (None unless given)."""

    def __init__(self, name: str, label: Text, default: int | None = None, *, minimum: int | None = None,
                 maximum: int | None = None) -> None:
        super().__init__(name, label, default)
        self.minimum = minimum
        self.maximum = maximum

    def _rule(self) -> Text:
        if self.minimum is not None and self.maximum is not None:
            return t("setting.rule.whole_range", minimum=self.minimum, maximum=self.maximum)
        if self.minimum is not None:
            return t("setting.rule.whole_at_least", minimum=self.minimum)
        if self.maximum is not None:
            return t("setting.rule.whole_at_most", maximum=self.maximum)
        return t("setting.rule.whole")

    def check(self, value: int | None) -> int | None:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._refuse(value, self._rule())
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise self._refuse(value, self._rule())
        return value

    def parse(self, text: str) -> int | None:
        stripped = text.strip()
        if not re.fullmatch(r"[+-]?[0-9]+", stripped):
            raise self._refuse(text, self._rule())
        return self.check(int(stripped))

    def format(self, value: int | None) -> str:
        return str(value)


class FloatSetting(Declared[float | None]):
    """A number of seconds …: above `above` (exclusive) and at most `maximum`; unset reads as `default`."""

    def __init__(self, name: str, label: Text, default: float | None = None, *, above: float | None = None,
                 maximum: float | None = None) -> None:
        super().__init__(name, label, default)
        self.above = above
        self.maximum = maximum

    def _rule(self) -> Text:
        # Written with :g, so a bound of 0 reads "0", not "0.0".
        if self.above is not None and self.maximum is not None:
            return t("setting.rule.number_between", above=f"{self.above:g}", maximum=f"{self.maximum:g}")
        if self.above is not None:
            return t("setting.rule.number_above", above=f"{self.above:g}")
        if self.maximum is not None:
            return t("setting.rule.number_at_most", maximum=f"{self.maximum:g}")
        return t("setting.rule.number")

    def check(self, value: float | None) -> float | None:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self._refuse(value, self._rule())
        number = float(value)
        if number != number or number in (float("inf"), float("-inf")):  # NaN and infinities
            raise self._refuse(value, self._rule())
        if (self.above is not None and number <= self.above) or (self.maximum is not None and number > self.maximum):
            raise self._refuse(value, self._rule())
        return number

    def parse(self, text: str) -> float | None:
        try:
            number = float(text.strip())
        except ValueError:
            raise self._refuse(text, self._rule()) from None
        return self.check(number)

    def format(self, value: float | None) -> str:
        return repr(value)


class FlagSetting(Declared[bool]):
    """Yes or no, stored as "yes" / "no" (the app has always written "yes" for a done step)."""

    def __init__(self, name: str, label: Text, default: bool = False) -> None:
        super().__init__(name, label, default)

    def check(self, value: bool) -> bool | None:
        if not isinstance(value, bool):
            raise self._refuse(value, t("setting.rule.yes_no"))
        return value

    def parse(self, text: str) -> bool:
        word = text.strip().lower()
        if word not in ("yes", "no"):
            raise self._refuse(text, t("setting.rule.yes_no_words"))
        return word == "yes"

    def format(self, value: bool) -> str:
        return "yes" if value else "no"


@dataclass(frozen=True)
class ChannelHold:
    """A channel stopped because its credentials were refused: the error code, a fingerprint of the
    credentials refused (so the hold lifts itself when they change) and since when."""

    code: str
    fingerprint: str
    since: dt.datetime | None = None


class HoldSetting(Declared[ChannelHold | None]):
    """A ChannelHold, stored as "<code>|<fingerprint>|<ISO time>" as it always was."""

    def __init__(self, name: str, label: Text) -> None:
        super().__init__(name, label, None)

    def check(self, value: ChannelHold | None) -> ChannelHold | None:
        if value is None:
            return None
        if not isinstance(value, ChannelHold) or not value.code or any("|" in part for part in (value.code, value.fingerprint)):
            raise self._refuse(value, t("setting.rule.hold"))
        if value.since is not None and value.since.tzinfo is None:
            raise self._refuse(value, t("setting.rule.hold_since"))
        return value

    def parse(self, text: str) -> ChannelHold | None:
        # Lenient on purpose: a hold must keep holding even if its time was written oddly.
        if not text.strip():
            return None
        code, fingerprint, when = (text.split("|") + ["", ""])[:3]
        try:
            since = dt.datetime.fromisoformat(when) if when else None
        except ValueError:
            since = None
        return ChannelHold(code or "AUTH_FAILED", fingerprint, since)

    def format(self, value: ChannelHold | None) -> str:
        assert value is not None
        return f"{value.code}|{value.fingerprint}|{value.since.isoformat() if value.since else ''}"


@dataclass(frozen=True)
class StoredQuota:
    """LINE's monthly message quota as last asked: the limit (None: unlimited or unknown), how much was
    used, and when it was asked (ISO text)."""

    limit: int | None = None
    used: int | None = None
    checked_at: str | None = None


class QuotaSetting(Declared[StoredQuota]):
    """A StoredQuota, stored as the JSON object {"limit", "used", "checked_at"} it always was."""

    def __init__(self, name: str, label: Text) -> None:
        super().__init__(name, label, StoredQuota())

    def check(self, value: StoredQuota) -> StoredQuota | None:
        if not isinstance(value, StoredQuota):
            raise self._refuse(value, t("setting.rule.quota"))
        for number in (value.limit, value.used):
            if number is not None and (isinstance(number, bool) or not isinstance(number, int) or number < 0):
                raise self._refuse(value, t("setting.rule.quota_counts"))
        if value.checked_at is not None:
            try:
                dt.datetime.fromisoformat(value.checked_at)
            except (TypeError, ValueError):
                raise self._refuse(value, t("setting.rule.quota_time")) from None
        return value

    def parse(self, text: str) -> StoredQuota:
        try:
            data = json.loads(text)
        except ValueError:
            raise self._refuse(text, t("setting.rule.json")) from None
        if not isinstance(data, dict):
            raise self._refuse(text, t("setting.rule.json"))
        value = StoredQuota(data.get("limit"), data.get("used"), data.get("checked_at"))
        checked = self.check(value)
        assert checked is not None
        return checked

    def format(self, value: StoredQuota) -> str:
        return json.dumps({"limit": value.limit, "used": value.used, "checked_at": value.checked_at})


@dataclass(frozen=True)
class ReceivingRecord:
    """What the app's receiving of LINE's webhooks last said, for a process that does not receive
    (`shiftcast doctor`): the address LINE reached it at (None: it did not receive), why not (an
    encoded Text, core/texts/message.dumps), and since when."""

    endpoint: str | None
    since: dt.datetime
    why: str | None = None


class ReceivingSetting(Declared[ReceivingRecord | None]):
    """A ReceivingRecord, stored as the JSON object {"endpoint", "since", "why"}."""

    def __init__(self, name: str, label: Text) -> None:
        super().__init__(name, label, None)

    def check(self, value: ReceivingRecord | None) -> ReceivingRecord | None:
        if value is None:
            return None
        if (not isinstance(value, ReceivingRecord) or not isinstance(value.since, dt.datetime)
                or value.since.tzinfo is None or not all(part is None or isinstance(part, str)
                                                         for part in (value.endpoint, value.why))):
            raise self._refuse(value, t("setting.rule.receiving"))
        return value

    def parse(self, text: str) -> ReceivingRecord | None:
        try:
            data = json.loads(text)
            value = ReceivingRecord(data.get("endpoint"), dt.datetime.fromisoformat(data["since"]), data.get("why"))
        except (ValueError, TypeError, KeyError, AttributeError):
            raise self._refuse(text, t("setting.rule.receiving")) from None
        return self.check(value)

    def format(self, value: ReceivingRecord | None) -> str:
        assert value is not None
        return json.dumps({"endpoint": value.endpoint, "since": value.since.isoformat(), "why": value.why},
                          ensure_ascii=False)


class SettingFamily(Generic[T]):
    """Settings of one shape, one per thing (`line.group_members.<classroom id>`): declared once,
    `of(id)` gives the declaration for one of them."""

    def __init__(self, prefix: str, make: Callable[[str], Declared[T]]) -> None:
        if not prefix.endswith("."):
            raise ValueError(f"a family prefix ends with a dot: {prefix!r}")
        self.prefix = prefix
        self._make = make

    def __repr__(self) -> str:
        return f"SettingFamily({self.prefix!r})"

    def of(self, member: int | str) -> Declared[T]:
        part = str(member)
        if not part or "." in part or part != part.strip():
            raise ValueError(f"bad member {member!r} of {self.prefix}")
        return self._make(self.prefix + part)


# ----- rules shared by several declarations -----


def web_address(text: str) -> str:
    """https://…, or plain http:// to this computer only (the emulator, a local receiver)."""
    if secure_or_local(text):
        return text
    raise ValueError(text)


# The same loose rule as core.roster.ids.email (the store cannot import the roster): the mail
# server is the judge; this only catches typing mistakes.
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


def email_address(text: str) -> str:
    if len(text) > 320 or not _EMAIL.fullmatch(text):
        raise ValueError(text)
    return text


# As core.roster.ids.LINE_USER_ID, which the store cannot import.
_LINE_USER_ID = re.compile(r"U[0-9a-f]{32}")


def line_user_id(text: str) -> str:
    if not _LINE_USER_ID.fullmatch(text):
        raise ValueError(text)
    return text

