"""The message catalogs (core's, and the command line's registered beside it): every code in both
languages with the same parameters, and what a Text is."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from cli import texts as cli_texts
from core.errors import ValidationError
from core.texts import Plural, Text, describe, render, t
from core.texts.catalog import CATALOG, MESSAGES, register_catalog
from core.texts.message import dumps, loads, logged
from core.texts.template import Template, fields

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
CODE = re.compile(r"[a-z][a-z0-9_]*(\.[A-Za-z0-9_]+)+")


def _brand_headings() -> set[str]:
    """A channel's column heading that is a product's own name ("LINE WORKS ID", as its console says
    it in Japanese too): Japanese as it is written, though no letter of it is."""
    from core.channels import registry

    return {c.headings[0] for d in registry.DRIVERS.values() for c in d.contact_columns
            if c.headings and c.headings[0].startswith("LINE ")}


def catalog_problems(catalog: dict[str, tuple[Template, Template]]) -> list[str]:
    """What is wrong with a catalog: a missing text, a parameter named in one language only, Japanese
    that is not Japanese, a Plural where Japanese needs none."""
    found = []
    for code, (english, japanese) in catalog.items():
        if not CODE.fullmatch(code):
            found.append(f"{code}: a code is dotted lowercase words")
        for lang, text in (("en", english), ("ja", japanese)):
            words = [text] if isinstance(text, str) else [text.one, text.other]
            if not all(w.strip() for w in words):
                found.append(f"{code}: no {lang} text")
        if isinstance(japanese, Plural):
            found.append(f"{code}: Japanese has one form for every count")
        if fields(english) != fields(japanese):
            found.append(f"{code}: en names {sorted(fields(english))}, ja names {sorted(fields(japanese))}")
        english_words = re.sub(r"\{[^}]*\}", "", english if isinstance(english, str) else english.other)
        if (re.search(r"[A-Za-z]{3,}", english_words) and not JAPANESE.search(str(japanese))
                and str(japanese) not in _brand_headings()):
            found.append(f"{code}: the Japanese text is not in Japanese")
    return found


def test_every_code_has_english_and_japanese_with_the_same_parameters() -> None:
    assert len(CATALOG) > 200
    assert catalog_problems(CATALOG) == []
    assert len(cli_texts.CATALOG) > 60
    assert catalog_problems(cli_texts.CATALOG) == []


def test_the_check_catches_a_missing_language_and_a_parameter_named_once() -> None:
    broken: dict[str, tuple[Template, Template]] = {
        "x.no_japanese": ("the file is empty", ""),
        "x.renamed": ("no teacher named {name}", "{teacher}という講師はいません"),
        "x.untranslated": ("the file is empty", "the file is empty"),
        "x.plural_only_english": (Plural("count", "{count} row", "{count} rows"), "{count}行"),
    }
    problems = catalog_problems(broken)
    assert sorted({p.split(":")[0] for p in problems}) == ["x.no_japanese", "x.renamed", "x.untranslated"]
    assert catalog_problems({"x.plural_only_english": broken["x.plural_only_english"]}) == []


def _sample(name: str) -> object:
    if name in ("day", "first", "last") or name.endswith("_day"):
        return dt.date(2026, 12, 1)
    if name in ("since", "last_sent"):
        return dt.datetime(2026, 12, 1, 17, 0, tzinfo=dt.UTC)
    if name == "count" or name.endswith("count") or name in ("id", "line", "fields", "columns", "revision", "days"):
        return 3
    return "x"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_message_renders_in_both_languages(lang: str) -> None:
    assert set(cli_texts.CATALOG) <= set(MESSAGES)  # the command line's are rendered too
    for code, (english, _) in MESSAGES.items():
        text = Text(code, {name: _sample(name) for name in fields(english)})  # type: ignore[misc]
        rendered = render(text, lang)  # type: ignore[arg-type]
        assert rendered and "{" not in rendered.replace("{}", ""), code


def test_a_text_is_english_for_logs_and_japanese_on_request() -> None:
    text = t("roster.overlaps", teacher="佐藤", day=dt.date(2026, 12, 1), start="17:00", end="19:00", classroom="本校")
    assert str(text) == "overlaps 佐藤's shift on Tue 1 Dec 2026 17:00–19:00 at 本校"
    assert render(text, "ja") == "佐藤さんの2026年12月1日(火) 17:00–19:00（本校）のシフトと重なっています。"
    assert logged(text).endswith("[roster.overlaps]")


def test_a_front_ends_catalog_joins_cores_and_cannot_change_a_code(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MESSAGES, "maps", list(MESSAGES.maps))  # what this test registers goes with it
    with pytest.raises(KeyError):
        t("front.greeting", name="佐藤")
    entries: dict[str, tuple[Template, Template]] = {"front.greeting": ("hello {name}", "{name}さん、こんにちは")}
    register_catalog(entries)
    register_catalog(dict(entries))  # the same words again: nothing changes
    assert render(t("front.greeting", name="佐藤"), "ja") == "佐藤さん、こんにちは"
    assert str(t("front.greeting", name="佐藤")) == "hello 佐藤"
    with pytest.raises(ValueError, match="front.greeting"):
        register_catalog({"front.greeting": ("hi {name}", "{name}さん")})
    with pytest.raises(ValueError, match="roster.no_shift_id"):
        register_catalog({"roster.no_shift_id": ("shift {id}?", "シフト {id}？")})
    assert str(t("roster.no_shift_id", id=3)) == "no shift with id 3"


def test_the_command_lines_words_are_its_own_and_core_knows_them_only_once_registered() -> None:
    assert set(cli_texts.CATALOG).isdisjoint(CATALOG)
    assert MESSAGES.maps[0] is CATALOG and cli_texts.CATALOG.items() <= MESSAGES.items()
    assert render(t("cli.wrote", path="a.csv"), "ja") == "a.csv に保存しました。"


def test_an_unknown_code_fails_where_it_is_written() -> None:
    with pytest.raises(KeyError, match="core/texts/catalog.py"):
        t("no.such_message")


def test_errors_carry_the_text_and_stay_english() -> None:
    error = ValidationError(t("csv.bad_date", text="12/32"))
    assert str(error) == "bad date '12/32': write it as YYYY-MM-DD, e.g. 2026-12-01"
    assert error.code == "csv.bad_date"
    assert error.render("ja") == describe(error, "ja") == (
        "「12/32」は日付として読めません。2026-12-01 のように YYYY-MM-DD で入力してください。")
    plain = ValidationError("words from elsewhere")
    assert plain.code is None and describe(plain, "ja") == "words from elsewhere"


def test_plural_forms_follow_the_count() -> None:
    assert str(t("alert.dead_letters", count=1)).startswith("1 delivery failed")
    assert str(t("alert.dead_letters", count=1200)).startswith("1,200 deliveries failed")
    assert render(t("alert.dead_letters", count=1200), "ja").startswith("1,200件の配信")
    assert str(t("csv.duplicate_shift", id=1200)) == "duplicate of existing shift #1200"  # an id is not a count


def test_lists_are_written_as_each_language_lists() -> None:
    text = t("csv.missing_columns", missing=("date", "start"), found=("教室", "講師"))
    assert str(text) == "the header lacks these columns: date, start (found: 教室, 講師)"
    assert render(text, "ja") == "見出しに必要な列がありません: date、start（見つかった列: 教室、講師）"


def test_a_stored_text_comes_back_as_it_was_and_old_plain_rows_stay_words() -> None:
    text = t("alert.other_computer", host="office-pc", more=t("alert.other_computer.more", count=2))
    stamped = t("alert.stalled.detail", since=dt.datetime(2026, 12, 1, 8, 5, tzinfo=dt.UTC))
    for original in (text, stamped, t("roster.day_range", day="2026-12-01", first="2000-01-01", last="2099-12-31")):
        assert loads(dumps(original)) == original
    assert loads("LINE's monthly message quota is used up") == "LINE's monthly message quota is used up"
