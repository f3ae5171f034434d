"""The month drawn for a phone: portrait pages, one day under the other, each listing who works when.

The wide grid (month_image.py) is for printing and exporting; in LINE a phone shows an image at the
width of its screen, about 390 points, and a 1966 px wide grid then has 5 px letters. These pages are
PAGE_WIDTH wide with no text under TEXT_PX, so shown full width on such a phone every letter is about
11 points high. A month goes out as at most MAX_PAGES images (one LINE push carries five messages:
the announcement and the pages), each page holding one or two whole calendar weeks (Monday to Sunday).
A re-publication marks the changed entries as the grid marks its cells; a shift that went away is
listed as "off", marked, so the teacher sees it is gone.
"""

from __future__ import annotations

import datetime as dt
import io
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.publication import fonts
from core.publication.image_store import ImageStore
from core.publication.month_image import (
    CHANGED_BG,
    CHANGED_EDGE,
    GRID,
    HEADER_BG,
    INK,
    JA_WEEKDAYS,
    MAX_ORIGINAL_BYTES,
    MAX_PREVIEW_BYTES,
    MUTED,
    SAT_BG,
    SAT_INK,
    SUN_BG,
    SUN_INK,
    day_kind,
    fit,
    fonts_zone,
    title_of,
)
from core.roster.month import MonthRoster
from core.texts import render, t
from core.texts.formats import Language

if TYPE_CHECKING:
    from PIL import ImageDraw

PAGE_WIDTH = 1080
TEXT_PX = 30  # the smallest letters on a page: the footer, the page count
ENTRY_PX = 34  # a teacher's name and times
DAY_PX = 38  # a day's heading
TITLE_PX = 44
MAX_PAGES = 4  # with the announcement, LINE's five messages per push
PREVIEW_WIDTH = 540  # what the chat shows before the image is opened

MARGIN = 36
COLUMNS = 2
ENTRY_H = 54
DAY_H = 64
DAY_GAP = 14
TITLE_H = 72
SUBTITLE_H = 52
FOOTER_H = 72
TIME_W = 210  # "16:00–21:00" at ENTRY_PX, with room to spare

EN_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


@dataclass(frozen=True)
class Entry:
    teacher: str
    time: str  # "16:00–21:00", or the word for a shift that went away
    changed: bool


@dataclass(frozen=True)
class Page:
    png: bytes
    width: int
    height: int
    days: tuple[int, int]  # the first and last day of the month on it


def weeks_of(year: int, month: int, days: int) -> list[list[int]]:
    """The month's days in calendar weeks, Monday first; the first and last weeks may be short."""
    weeks: list[list[int]] = []
    for d in range(1, days + 1):
        if not weeks or dt.date(year, month, d).weekday() == 0:
            weeks.append([])
        weeks[-1].append(d)
    return weeks


def page_days(year: int, month: int, days: int, *, max_pages: int = MAX_PAGES) -> list[list[int]]:
    """Weeks shared out over at most `max_pages` pages, earlier pages taking a second week first."""
    weeks = weeks_of(year, month, days)
    count = min(len(weeks), max_pages)
    base, extra = divmod(len(weeks), count)
    pages: list[list[int]] = []
    at = 0
    for i in range(count):
        take = base + (1 if i < extra else 0)
        pages.append([d for week in weeks[at:at + take] for d in week])
        at += take
    return pages


def entries_of(month: MonthRoster, day: int) -> list[Entry]:
    off = render(t("portrait.day_off"), "en" if month.language == "en" else "ja")
    out: list[Entry] = []
    for teacher in month.teachers:
        lines = month.cells[teacher].get(day) or []
        changed = (teacher, day) in month.changed
        out.extend(Entry(teacher, line.replace("-", "–"), changed) for line in lines)
        if not lines and changed:
            out.append(Entry(teacher, off, True))
    return out


def _rows(entries: int) -> int:
    return max(1, -(-entries // COLUMNS))


def render_pages(month: MonthRoster, *, font_file: str | None = None) -> list[Page]:
    """The month as portrait PNG pages, in order."""
    import holidays

    jp_holidays = holidays.country_holidays("JP", years=month.year)
    groups = page_days(month.year, month.month, month.days)
    return [_page(month, days, n, len(groups), jp_holidays, font_file) for n, days in enumerate(groups, start=1)]


def _page(month: MonthRoster, days: list[int], number: int, pages: int, jp_holidays, font_file: str | None) -> Page:  # type: ignore[no-untyped-def]
    from PIL import Image, ImageDraw

    en = month.language == "en"
    lang: Language = "en" if en else "ja"
    title_font = fonts.load(TITLE_PX, font_file)
    day_font = fonts.load(DAY_PX, font_file)
    entry_font = fonts.load(ENTRY_PX, font_file)
    small_font = fonts.load(TEXT_PX, font_file)
    listed = {d: entries_of(month, d) for d in days}
    body = sum(DAY_H + _rows(len(listed[d])) * ENTRY_H + DAY_GAP for d in days)
    height = MARGIN * 2 + TITLE_H + SUBTITLE_H + body + FOOTER_H
    image = Image.new("RGB", (PAGE_WIDTH, height), "white")
    draw = ImageDraw.Draw(image)
    right = PAGE_WIDTH - MARGIN

    y = MARGIN
    draw.text((MARGIN, y + TITLE_H // 2), title_of(month), font=title_font, fill=INK, anchor="lm")
    if month.is_update:
        draw.rectangle([MARGIN, y + TITLE_H - 6, MARGIN + 160, y + TITLE_H - 2], fill=CHANGED_EDGE)
    y += TITLE_H
    first, last = dt.date(month.year, month.month, days[0]), dt.date(month.year, month.month, days[-1])
    span = (f"{first:%b} {first.day} – {last.day}" if en else f"{first.month}月{first.day}日〜{last.day}日")
    draw.text((MARGIN, y + SUBTITLE_H // 2), span, font=small_font, fill=INK, anchor="lm")
    draw.text((right, y + SUBTITLE_H // 2), render(t("portrait.page", page=str(number), pages=str(pages)), lang),
              font=small_font, fill=INK, anchor="rm")
    y += SUBTITLE_H

    column_w = (right - MARGIN) // COLUMNS
    for d in days:
        date = dt.date(month.year, month.month, d)
        kind = day_kind(date, jp_holidays)
        bg, ink = {"sat": (SAT_BG, SAT_INK), "sun": (SUN_BG, SUN_INK)}.get(kind, (HEADER_BG, INK))
        draw.rectangle([MARGIN, y, right, y + DAY_H], fill=bg)
        heading = (f"{EN_WEEKDAYS[date.weekday()]} {date:%b} {d}" if en
                   else f"{month.month}月{d}日（{JA_WEEKDAYS[date.weekday()]}）")
        draw.text((MARGIN + 16, y + DAY_H // 2), heading, font=day_font, fill=ink, anchor="lm")
        y += DAY_H
        entries = listed[d]
        if not entries:
            draw.text((MARGIN + 16, y + ENTRY_H // 2), render(t("portrait.no_shifts"), lang), font=entry_font,
                      fill=MUTED, anchor="lm")
        for i, entry in enumerate(entries):
            # Down the first column, then the second: a teacher reads a day like a list.
            row, column = i % _rows(len(entries)), i // _rows(len(entries))
            _entry(draw, entry, MARGIN + column * column_w, y + row * ENTRY_H, column_w, entry_font)
        y += _rows(len(entries)) * ENTRY_H
        draw.line([MARGIN, y, right, y], fill=GRID, width=2)
        y += DAY_GAP

    y += FOOTER_H // 2
    if month.is_update:
        draw.rectangle([MARGIN, y - 14, MARGIN + 28, y + 14], fill=CHANGED_BG, outline=CHANGED_EDGE, width=2)
        draw.text((MARGIN + 40, y), render(t("portrait.changed"), lang), font=small_font, fill=INK, anchor="lm")
    generated = month.generated_at or dt.datetime.now(dt.UTC)
    local = generated.astimezone(fonts_zone(month.timezone))
    draw.text((right, y), f"{local:%Y-%m-%d %H:%M} · Shiftcast", font=small_font, fill=MUTED, anchor="rm")
    return Page(_encoded(image), PAGE_WIDTH, height, (days[0], days[-1]))


def _entry(draw: ImageDraw.ImageDraw, entry: Entry, x: int, y: int, width: int, font) -> None:  # type: ignore[no-untyped-def]
    if entry.changed:
        draw.rectangle([x + 2, y + 3, x + width - 6, y + ENTRY_H - 3], fill=CHANGED_BG, outline=CHANGED_EDGE, width=3)
    name = fit(entry.teacher, font, width - TIME_W - 40)
    draw.text((x + 14, y + ENTRY_H // 2), name, font=font, fill=INK, anchor="lm")
    draw.text((x + width - 20, y + ENTRY_H // 2), entry.time, font=font, fill=INK, anchor="rm")


def _encoded(image) -> bytes:  # type: ignore[no-untyped-def]
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=6)
    if out.tell() > MAX_ORIGINAL_BYTES:  # far beyond any classroom; JPEG of text this size is a few MB
        out = io.BytesIO()
        image.save(out, "JPEG", quality=90)
    return out.getvalue()


def stored_pages(month: MonthRoster, store: ImageStore, *, font_file: str | None = None) -> list[dict[str, Any]]:
    """Render the pages, put each and its preview in the image store: what `publications.pages_json` keeps."""
    out: list[dict[str, Any]] = []
    for page in render_pages(month, font_file=font_file):
        image, _ = store.put(page.png, ".png")
        preview, _ = store.put(preview_of(page.png), ".jpg")
        out.append({"image": image, "preview": preview, "width": page.width, "height": page.height,
                    "days": list(page.days)})
    return out


def side_by_side(pages: list[Page], *, gap: int = 48) -> bytes:
    """The pages next to each other in one PNG, in the order LINE shows them: the Publish preview."""
    from PIL import Image

    opened = [Image.open(io.BytesIO(p.png)).convert("RGB") for p in pages]
    sheet = Image.new("RGB", (sum(i.width for i in opened) + gap * (len(opened) - 1),
                              max(i.height for i in opened)), MUTED)
    x = 0
    for image in opened:
        sheet.paste(image, (x, 0))
        x += image.width + gap
    out = io.BytesIO()
    sheet.save(out, "PNG", compress_level=1)
    return out.getvalue()


def preview_of(original: bytes) -> bytes:
    """The chat's preview of a page: PREVIEW_WIDTH wide, however tall, a JPEG within LINE's 1 MB."""
    from PIL import Image

    image = Image.open(io.BytesIO(original)).convert("RGB")
    scale = PREVIEW_WIDTH / image.width
    image = image.resize((PREVIEW_WIDTH, max(1, round(image.height * scale))), Image.Resampling.LANCZOS)
    while True:
        for quality in (85, 75, 65, 55, 45):
            out = io.BytesIO()
            image.save(out, "JPEG", quality=quality, optimize=True)
            if out.tell() <= MAX_PREVIEW_BYTES:
                return out.getvalue()
        image = image.resize((image.width // 2, max(1, image.height // 2)), Image.Resampling.LANCZOS)
