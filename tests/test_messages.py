"""Teacher-facing text is a pure function of the facts and the templates."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from core.messages import texts
from core.messages.texts import ShiftFacts

FACTS = ShiftFacts("本校", dt.date(2026, 12, 10), dt.time(16), dt.time(21), False, "教材を持参")
NIGHT = ShiftFacts("本校", dt.date(2026, 12, 31), dt.time(22), dt.time(2), True, "")


def test_reminder_in_japanese_and_english() -> None:
    ja = texts.reminder_text(FACTS, "ja", texts.load_templates("ja"))
    assert ja == "【シフトのお知らせ】本校\n12月10日(木) 16:00〜21:00\n教材を持参"
    en = texts.reminder_text(NIGHT, "en", texts.load_templates("en"))
    assert en == "Shift reminder: 本校\nThu 31 Dec 2026, 22:00–26:00"  # no empty note line


def test_corrections_show_before_and_after() -> None:
    templates = texts.load_templates("ja")
    moved = ShiftFacts("分校", dt.date(2026, 12, 11), dt.time(15), dt.time(20))
    text = texts.correction_text(FACTS, moved, "ja", templates)
    assert text.splitlines() == ["【シフト変更】本校 → 分校", "変更前: 12月10日(木) 16:00〜21:00（本校）",
                                 "変更後: 12月11日(金) 15:00〜20:00（分校）"]
    assert "取り消されました" in texts.correction_text(FACTS, None, "ja", templates)
    assert "担当が変更" in texts.correction_text(FACTS, None, "ja", templates, reassigned=True)


def test_templates_can_be_overridden_in_the_data_folder(tmp_path: Path) -> None:
    (tmp_path / "ja").mkdir()
    (tmp_path / "ja" / "shift_reminder.txt").write_text("$classroom: $when ($unknown)\n", encoding="utf-8")
    text = texts.reminder_text(FACTS, "ja", texts.load_templates("ja", tmp_path))
    assert text == "本校: 12月10日(木) 16:00〜21:00 ($unknown)"  # unknown placeholders stay as written


def test_flex_bubble_alt_text_reads_alone_and_fits_lines_limits() -> None:
    text = texts.reminder_text(FACTS, "ja", texts.load_templates("ja"))
    flex = texts.flex_message(text)
    assert flex["altText"] == text
    assert flex["contents"]["header"]["contents"][0]["text"] == "【シフトのお知らせ】本校"
    assert len(json.dumps(flex["contents"], ensure_ascii=False, separators=(",", ":")).encode()) < 30 * 1024
    long = texts.flex_message("x" * 3000)
    assert len(long["altText"]) == texts.ALT_TEXT_LIMIT


def test_publication_flex_has_hero_title_and_button() -> None:
    flex = texts.publication_flex(classroom="本校", year=2026, month=12, revision=2, changed=3, language="ja",
                                     preview_url="https://img.example/p.jpg", open_url="https://img.example/o.png",
                                     width=2000, height=1000)
    assert flex["altText"] == "【シフト表・更新】本校 2026年12月のシフト表が更新されました（第2版・変更3件）。"
    assert flex["contents"]["hero"]["url"] == "https://img.example/p.jpg"
    assert flex["contents"]["hero"]["aspectRatio"] == "100:50"
    assert flex["contents"]["footer"]["contents"][0]["action"]["uri"] == "https://img.example/o.png"
