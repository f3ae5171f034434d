"""Settings are declared once (core/store/setting_keys.py) and read and written only through their
declarations: every declaration keeps its own rules, and no key is written out anywhere else."""

from __future__ import annotations

import ast
import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from core.errors import ValidationError
from core.store import setting_keys as keys
from core.store import settings
from core.store.db import Database
from core.store.settings import (
    ChannelHold,
    ChoiceSetting,
    Declared,
    FlagSetting,
    FloatSetting,
    HoldSetting,
    IntSetting,
    QuotaSetting,
    ReceivingRecord,
    ReceivingSetting,
    StoredQuota,
    TextSetting,
)

ROOT = Path(__file__).resolve().parent.parent
DECLARATIONS = {ROOT / "core" / "store" / "setting_keys.py", ROOT / "core" / "store" / "settings.py"}
WHEN = dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.UTC)
# A member of every family stands in for the family.
EVERY = [*keys.DECLARED, *(family.of(7) for family in keys.FAMILIES)]


def _ids(declared: Declared[Any]) -> str:
    return declared.name


def good_values(declared: Declared[Any]) -> list[Any]:
    """Values each declaration must accept and read back as they were written."""
    if isinstance(declared, TextSetting):
        if str(declared.rule_says).startswith("an https"):
            return ["https://example.com/path", "http://127.0.0.1:8765"]
        if str(declared.rule_says) == "an e-mail address":
            return ["manager@example.com"]
        if str(declared.rule_says).startswith("a LINE user ID"):
            return ["U" + "0123456789abcdef" * 2]
        if str(declared.rule_says) == "digits only":
            return ["1234567890", "9" * declared.max_length]
        if str(declared.rule_says).startswith("a LIFF ID"):
            return ["1234567890-AbCdEfGh", "9" * 20 + "-" + "z" * 40]
        return ["本校 シフト", "x" * declared.max_length]
    if isinstance(declared, ChoiceSetting):
        return list(declared.choices)
    if isinstance(declared, IntSetting):
        return [v for v in (declared.minimum, declared.maximum, 5) if v is not None and
                (declared.minimum is None or v >= declared.minimum) and (declared.maximum is None or v <= declared.maximum)]
    if isinstance(declared, FloatSetting):
        low = (declared.above or 0.0) + 0.25
        return [low] + ([declared.maximum] if declared.maximum is not None else [low * 10])
    if isinstance(declared, FlagSetting):
        return [True, False]
    if isinstance(declared, HoldSetting):
        return [ChannelHold("AUTH_FAILED", "0123abcd", WHEN), ChannelHold("SMTP_AUTH_FAILED", "ff", None)]
    if isinstance(declared, QuotaSetting):
        return [StoredQuota(500, 12, WHEN.isoformat()), StoredQuota(None, 0, None)]
    if isinstance(declared, ReceivingSetting):
        return [ReceivingRecord("https://a.example.com/line/webhook", WHEN), ReceivingRecord(None, WHEN, '{"code": "x"}')]
    raise AssertionError(f"no sample values for {type(declared).__name__}")


def bad_values(declared: Declared[Any]) -> list[Any]:
    """Values each declaration must refuse."""
    if isinstance(declared, TextSetting):
        bad: list[Any] = ["x" * (declared.max_length + 1), 42, "a\0b"]
        if declared.rule is not None:
            bad.append("ftp://example.com" if str(declared.rule_says).startswith("an https") else "not an address")
        if str(declared.rule_says).startswith("an https"):
            bad.append("http://example.com")  # plain http leaves the machine
        return bad
    if isinstance(declared, ChoiceSetting):
        return ["bogus", 1]
    if isinstance(declared, IntSetting):
        bad = ["5", 2.5, True]
        if declared.minimum is not None:
            bad.append(declared.minimum - 1)
        if declared.maximum is not None:
            bad.append(declared.maximum + 1)
        return bad
    if isinstance(declared, FloatSetting):
        bad = ["0.5", float("nan"), float("inf"), True]
        if declared.above is not None:
            bad.append(declared.above)
        if declared.maximum is not None:
            bad.append(declared.maximum + 1)
        return bad
    if isinstance(declared, FlagSetting):
        return ["yes", 1, 0]
    if isinstance(declared, HoldSetting):
        return [ChannelHold("", "fp", WHEN), ChannelHold("A|B", "fp", WHEN), ChannelHold("X", "fp", WHEN.replace(tzinfo=None)),
                "AUTH_FAILED|fp|"]
    if isinstance(declared, QuotaSetting):
        return [StoredQuota(-1, 0, None), StoredQuota(5, True, None), StoredQuota(5, 0, "yesterday"), {"limit": 5}]
    if isinstance(declared, ReceivingSetting):
        return [ReceivingRecord(None, WHEN.replace(tzinfo=None)), ReceivingRecord(5, WHEN), "receiving"]  # type: ignore[arg-type]
    raise AssertionError(f"no bad values for {type(declared).__name__}")


# ----- the declarations keep their own rules -----


def test_every_setting_is_declared_once_under_a_unique_key() -> None:
    names = [d.name for d in keys.DECLARED]
    assert len(names) == len(set(names)) and len(names) >= 30
    prefixes = [f.prefix for f in keys.FAMILIES]
    assert len(prefixes) == len(set(prefixes))
    assert not [n for n in names if any(n.startswith(p) for p in prefixes)]
    assert all(str(d.label) and str(d.label) == str(d.label).strip() for d in keys.DECLARED)


@pytest.mark.parametrize("declared", EVERY, ids=_ids)
def test_a_default_passes_its_own_rule(declared: Declared[Any]) -> None:
    if declared.default is None:
        return
    assert declared.check(declared.default) == declared.default
    assert declared.parse(declared.format(declared.default)) == declared.default


@pytest.mark.parametrize("declared", EVERY, ids=_ids)
def test_unset_reads_as_the_default(db: Database, declared: Declared[Any]) -> None:
    with db.read() as s:
        assert declared.read(s) == declared.default
        assert not declared.is_set(s)


@pytest.mark.parametrize("declared", EVERY, ids=_ids)
def test_what_is_written_reads_back_the_same(db: Database, declared: Declared[Any]) -> None:
    for value in good_values(declared):
        with db.write() as s:
            declared.write(s, value)
        with db.read() as s:
            assert declared.read(s) == value
            assert isinstance(settings.get(s, declared.name), str)  # still text in the settings table
    with db.write() as s:
        declared.write(s, None)
    with db.read() as s:
        assert declared.read(s) == declared.default and not declared.is_set(s)


@pytest.mark.parametrize("declared", EVERY, ids=_ids)
def test_a_bad_value_is_refused_and_changes_nothing(db: Database, declared: Declared[Any]) -> None:
    good = good_values(declared)[0]
    with db.write() as s:
        declared.write(s, good)
    with db.read() as s:
        stored = settings.get(s, declared.name)
    for bad in bad_values(declared):
        with pytest.raises(ValidationError) as refused, db.write() as s:
            declared.write(s, bad)
        assert str(refused.value).startswith(str(declared.label)) and "must be" in str(refused.value), refused.value
        with db.read() as s:
            assert settings.get(s, declared.name) == stored
            assert declared.read(s) == good


def test_the_messages_say_what_is_wrong() -> None:
    with pytest.raises(ValidationError, match=r"^the mail server's port must be a whole number from 1 to 65535, not 70000$"):
        keys.SMTP_PORT.check(70000)
    with pytest.raises(ValidationError, match=r"^the mail server's security must be one of starttls, tls, none"):
        keys.SMTP_SECURITY.check("ssl")
    with pytest.raises(ValidationError, match=r"^the webhook address must be an https:// address"):
        keys.ALERTS_WEBHOOK_URL.check("http://example.com/hook")


def test_text_is_trimmed_and_empty_text_unsets(db: Database) -> None:
    with db.write() as s:
        keys.SMTP_HOST.write(s, "  smtp.example.com \n")
    with db.read() as s:
        assert settings.get(s, keys.SMTP_HOST.name) == "smtp.example.com"
    with db.write() as s:
        keys.SMTP_HOST.write(s, "   ")
    with db.read() as s:
        assert not keys.SMTP_HOST.is_set(s)


def test_a_hand_edited_value_that_breaks_the_rule_names_its_key(db: Database) -> None:
    with db.write() as s:
        settings.put(s, keys.SMTP_PORT.name, "five")
        settings.put(s, keys.LINE_QUOTA.name, "[1, 2]")
    with db.read() as s:
        with pytest.raises(ValidationError, match=r"saved setting smtp\.port \('five'\) cannot be used"):
            keys.SMTP_PORT.read(s)
        with pytest.raises(ValidationError, match=r"saved setting line\.quota"):
            keys.LINE_QUOTA.read(s)


# What earlier versions wrote (by hand-built text), and what it means now.
STORED_BEFORE: list[tuple[Declared[Any], str, Any]] = [
    (keys.SMTP_PORT, "587", 587),
    (keys.SMTP_SECURITY, "starttls", "starttls"),
    (keys.SMTP_TIMEOUT_SECONDS, "5.0", 5.0),
    (keys.SENDER_CONCURRENCY, "8", 8),
    (keys.SENDER_LEASE_SECONDS, "3", 3.0),
    (keys.SENDER_MAX_RETRIES, "60", 60),
    (keys.SENDER_HTTP_TIMEOUT_SECONDS, "0.5", 0.5),
    (keys.HOSTING_PRESIGN_DAYS, "7", 7),
    (keys.LINE_GROUP_MEMBERS.of(3), "5", 5),
    (keys.UI_FIRST_RUN_DONE, "yes", True),
    (keys.UI_TRAY_HINT_SHOWN, "yes", True),
    (keys.UI_LANGUAGE, "en", "en"),
    (keys.LINE_API_BASE, "http://127.0.0.1:8765", "http://127.0.0.1:8765"),
    (keys.LINE_HOLD, "AUTH_FAILED|0123abcd|2026-12-01T09:30:00+00:00", ChannelHold("AUTH_FAILED", "0123abcd", WHEN)),
    (keys.SMTP_HOLD, "SMTP_AUTH_FAILED|ff|not a time", ChannelHold("SMTP_AUTH_FAILED", "ff", None)),
    (keys.LINE_QUOTA, json.dumps({"limit": 500, "used": 3, "checked_at": WHEN.isoformat()}),
     StoredQuota(500, 3, WHEN.isoformat())),
    (keys.LINE_QUOTA, json.dumps({"limit": 200, "used": 197}), StoredQuota(200, 197, None)),
]


@pytest.mark.parametrize("declared,text,value", STORED_BEFORE, ids=[f"{d.name}={t}" for d, t, _ in STORED_BEFORE])
def test_values_stored_before_the_declarations_read_back_the_same(db: Database, declared: Declared[Any], text: str,
                                                                   value: Any) -> None:
    with db.write() as s:
        settings.put(s, declared.name, text)
    with db.read() as s:
        assert declared.read(s) == value


def test_writing_stores_the_same_text_as_before(db: Database) -> None:
    with db.write() as s:
        keys.SMTP_PORT.write(s, 587)
        keys.UI_FIRST_RUN_DONE.write(s, True)
        keys.LINE_HOLD.write(s, ChannelHold("AUTH_FAILED", "0123abcd", WHEN))
        keys.LINE_QUOTA.write(s, StoredQuota(500, 3, WHEN.isoformat()))
        keys.LINE_GROUP_MEMBERS.of(3).write(s, 5)
    with db.read() as s:
        assert settings.get(s, "smtp.port") == "587"
        assert settings.get(s, "ui.first_run_done") == "yes"
        assert settings.get(s, "line.hold") == f"AUTH_FAILED|0123abcd|{WHEN.isoformat()}"
        assert settings.get(s, "line.quota") == json.dumps({"limit": 500, "used": 3, "checked_at": WHEN.isoformat()})
        assert settings.get(s, "line.group_members.3") == "5"


# ----- no key is written out anywhere else -----

SETTING_FUNCTIONS = {"get", "put"}


def _settings_aliases(tree: ast.AST) -> set[str]:
    """The names under which a module imported core.store.settings."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "core.store":
            names.update(a.asname or a.name for a in node.names if a.name == "settings")
        elif isinstance(node, ast.Import):
            names.update(a.asname for a in node.names if a.name == "core.store.settings" and a.asname)
    return names


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def key_problems(path: Path, declared: set[str], prefixes: tuple[str, ...]) -> list[str]:
    """Setting keys written out in `path`: a string passed as the key to settings.get/put, or any
    string literal that is a declared key (or starts like a family of them)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    aliases = _settings_aliases(tree)
    problems = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SETTING_FUNCTIONS
                and isinstance(node.func.value, ast.Name) and node.func.value.id in aliases and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant | ast.JoinedStr)):
            problems.append(f"{_shown(path)}:{node.lineno}: a setting key written out for settings.{node.func.attr}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                node.value in declared or node.value.startswith(prefixes)):
            problems.append(f"{_shown(path)}:{node.lineno}: the setting key {node.value!r}")
    return problems


def _sources() -> list[Path]:
    return [p for top in ("core", "cli", "ui") for p in sorted((ROOT / top).rglob("*.py"))
            if p not in DECLARATIONS and "migrations" not in p.parts]


def test_no_setting_key_is_written_out_outside_the_declarations() -> None:
    declared = {d.name for d in keys.DECLARED}
    prefixes = tuple(f.prefix for f in keys.FAMILIES)
    problems = [problem for path in _sources() for problem in key_problems(path, declared, prefixes)]
    assert problems == []


def test_settings_are_read_and_written_through_their_declarations() -> None:
    raw = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = _settings_aliases(tree)
        raw += [f"{path.relative_to(ROOT)}:{node.lineno}" for node in ast.walk(tree)
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in SETTING_FUNCTIONS and isinstance(node.func.value, ast.Name)
                and node.func.value.id in aliases]
    assert raw == []


def test_the_key_scan_catches_a_key_written_out(tmp_path: Path) -> None:
    # The scan must be able to fail: keys passed as text, an f-string key, and a key kept in a constant.
    offender = tmp_path / "offender.py"
    offender.write_text(
        "from core.store import settings as s\n"
        "def f(session, n):\n"
        "    s.get(session, 'any.key')\n"
        "    s.put(session, f'line.group_members.{n}', '1')\n"
        "HOST = 'smtp.host'\n", encoding="utf-8")
    problems = key_problems(offender, {"smtp.host"}, ("line.group_members.",))
    assert sorted(problems) == sorted([
        "offender.py:3: a setting key written out for settings.get",
        "offender.py:4: a setting key written out for settings.put",
        "offender.py:4: the setting key 'line.group_members.'",
        "offender.py:5: the setting key 'smtp.host'",
    ])
