"""Message text for teachers, rendered from editable templates. Rendering is pure: facts in, text out."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Any

from core.resources import resource
from core.roster import clock
from core.texts import formats

TEMPLATES = ("shift_reminder", "shift_correction", "shift_cancellation", "shift_reassigned")
LANGUAGES = ("ja", "en")
JA_WEEKDAYS = "月火水木金土日"
EN_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
ALT_TEXT_LIMIT = 1500
TEXT_LIMIT = 5000


@dataclass(frozen=True)
class ShiftFacts:
    """What a teacher is told about one shift."""

    classroom: str
    local_date: dt.date
    start: dt.time
    end: dt.time
    ends_next_day: bool = False
    note: str = ""


def load_templates(language: str, override_dir: Path | None = None) -> dict[str, str]:
    """The templates of a language; a copy in `<override_dir>/<language>/` wins over the bundled one."""
    language = language if language in LANGUAGES else "ja"
    out = {}
    for name in TEMPLATES:
        candidates = [resource("templates", language, f"{name}.txt")]
        if override_dir is not None:
            candidates.insert(0, override_dir / language / f"{name}.txt")
        for path in candidates:
            if path.is_file():
                out[name] = path.read_text(encoding="utf-8")
                break
    return out


def render(template: str, values: Mapping[str, str]) -> str:
    """Fill `$placeholders`; drop lines left empty by an empty value; keep unknown ones as written."""
    filled = Template(template).safe_substitute(values)
    lines = [line.rstrip() for line in filled.splitlines()]
    text = "\n".join(line for line in lines if line.strip())
    return text[:TEXT_LIMIT]


def when(facts: ShiftFacts, language: str) -> str:
    day = facts.local_date
    start = clock.format_wall_time(facts.start)
    end = clock.format_wall_time(facts.end, next_day=facts.ends_next_day)
    if language == "en":
        return f"{formats.day_text(day, 'en')}, {start}–{end}"
    return f"{formats.day_short(day, 'ja')} {start}〜{end}"


def _describe(facts: ShiftFacts, language: str, *, with_classroom: bool) -> str:
    text = when(facts, language)
    if with_classroom:
        text += f" ({facts.classroom})" if language == "en" else f"（{facts.classroom}）"
    return text


def reminder_text(facts: ShiftFacts, language: str, templates: Mapping[str, str]) -> str:
    return render(templates["shift_reminder"], {"classroom": facts.classroom, "when": when(facts, language),
                                                "note": facts.note})


def correction_text(before: ShiftFacts, after: ShiftFacts | None, language: str, templates: Mapping[str, str],
                    *, reassigned: bool = False) -> str:
    """Old → new; a cancellation when `after` is None; `reassigned` for the teacher who lost the shift."""
    moved = after is not None and after.classroom != before.classroom
    values = {
        "classroom": (after or before).classroom if not moved else f"{before.classroom} → {after.classroom}",  # type: ignore[union-attr]
        "before": _describe(before, language, with_classroom=moved),
        "after": _describe(after, language, with_classroom=moved) if after else "",
        "note": after.note if after else "",
        "when": when(after or before, language),
    }
    name = "shift_reassigned" if reassigned else "shift_cancellation" if after is None else "shift_correction"
    return render(templates[name], values)


def text_message(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text[:TEXT_LIMIT]}


def flex_message(text: str, *, accent: str = "#1B7F5B") -> dict[str, Any]:
    """A small bubble: the first line as a coloured title bar, the other lines below it. The alt text
    is the whole text, so notifications and old LINE versions read well on their own."""
    lines = text.splitlines() or [" "]
    return {
        "type": "flex",
        "altText": _clip(text, ALT_TEXT_LIMIT),
        "contents": {
            "type": "bubble",
            "size": "kilo",
            "header": {"type": "box", "layout": "vertical", "backgroundColor": accent, "paddingAll": "12px",
                       "contents": [{"type": "text", "text": _clip(lines[0], 200), "color": "#FFFFFF",
                                     "weight": "bold", "wrap": True}]},
            "body": {"type": "box", "layout": "vertical", "spacing": "sm",
                     "contents": [{"type": "text", "text": _clip(line, 500), "wrap": True, "size": "sm"}
                                  for line in lines[1:21]] or [{"type": "text", "text": " "}]},
        },
    }


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _changes(count: int) -> str:
    return "1 change" if count == 1 else f"{count} changes"


def publication_text(classroom: str, year: int, month: int, revision: int, changed: int, language: str) -> str:
    """The alt text of a publication: complete on its own (shown in notifications and chat lists)."""
    if language == "en":
        if revision > 1:
            return (f"Updated shift roster: {classroom}, {dt.date(year, month, 1):%B %Y} "
                    f"(revision {revision}, {_changes(changed)}). Tap to see it.")
        return f"Shift roster published: {classroom}, {dt.date(year, month, 1):%B %Y}. Tap to see it."
    if revision > 1:
        return f"【シフト表・更新】{classroom} {year}年{month}月のシフト表が更新されました（第{revision}版・変更{changed}件）。"
    return f"【シフト表】{classroom} {year}年{month}月のシフト表を公開しました。"


def publication_flex(*, classroom: str, year: int, month: int, revision: int, changed: int, language: str,
                     preview_url: str, open_url: str, width: int, height: int) -> dict[str, Any]:
    """A bubble with the preview as hero image, the title, and a button that opens the full image."""
    en = language == "en"
    # Flex allows a hero at most three times as tall as it is wide.
    ratio_h = max(1, min(height * 100 // max(width, 1), 300))
    title = (f"{classroom} — {formats.month_text(year, month, 'en')}" if en else f"{classroom} {year}年{month}月 シフト表")
    if revision > 1:
        subtitle = (f"Revision {revision}: {_changes(changed)}, highlighted in yellow" if en
                    else f"第{revision}版・変更{changed}件（黄色の枠）")
    else:
        subtitle = "New roster" if en else "新しいシフト表です"
    return {
        "type": "flex",
        "altText": _clip(publication_text(classroom, year, month, revision, changed, language), ALT_TEXT_LIMIT),
        "contents": {
            "type": "bubble",
            "hero": {"type": "image", "url": preview_url, "size": "full", "aspectMode": "fit",
                     "aspectRatio": f"100:{ratio_h}", "action": {"type": "uri", "uri": open_url}},
            "body": {"type": "box", "layout": "vertical", "spacing": "sm", "contents": [
                {"type": "text", "text": _clip(title, 200), "weight": "bold", "size": "md", "wrap": True},
                {"type": "text", "text": subtitle, "size": "sm", "color": "#666666", "wrap": True},
            ]},
            "footer": {"type": "box", "layout": "vertical", "contents": [
                {"type": "button", "style": "primary", "color": "#1B7F5B",
                 "action": {"type": "uri", "label": "Open the roster" if en else "シフト表を開く", "uri": open_url}},
            ]},
        },
    }
