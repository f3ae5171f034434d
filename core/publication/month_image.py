"""Drawing a month roster as a PNG with Pillow: teachers as rows, days as columns.

Why a grid and not a calendar: teachers look for their own row and read across the month, which is
how Japanese classrooms already print shift tables; a calendar needs every teacher's name in every
day cell and stops being legible past a handful of teachers. The grid stays legible at 60 × 31 and
LINE lets the phone zoom into the full-size image.
"""

from __future__ import annotations

import datetime as dt
import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.publication import fonts
from core.roster.month import MonthRoster

# Pillow and holidays are imported where a month is drawn: the sender and the window import this
# module on every start and rarely draw anything.
if TYPE_CHECKING:
    import holidays
    from PIL import Image, ImageDraw

MAX_ORIGINAL_BYTES = 10 * 1024 * 1024
MAX_PREVIEW_BYTES = 1024 * 1024
PREVIEW_MAX_SIDE = 1024

INK = (33, 37, 41)
GRID = (206, 212, 218)
HEADER_BG = (241, 243, 245)
ZEBRA = (250, 251, 252)
SAT_BG, SAT_INK = (226, 238, 252), (25, 90, 170)
SUN_BG, SUN_INK = (253, 231, 231), (190, 30, 45)
CHANGED_BG, CHANGED_EDGE = (255, 236, 153), (230, 150, 0)
ACCENT = (27, 127, 91)
MUTED = (108, 117, 125)

JA_WEEKDAYS = "月火水木金土日"
EN_WEEKDAYS = ("Mo", "Tu", "We", "Th", "Fr", "Sa", "Su")


@dataclass(frozen=True)
class Layout:
    margin: int = 24
    title_h: int = 64
    header_h: int = 52
    row_h: int = 40
    day_w: int = 58
    name_min_w: int = 120
    name_max_w: int = 240
    legend_h: int = 56


def day_kind(day: dt.date, jp_holidays: holidays.HolidayBase) -> str:
    if day in jp_holidays or day.weekday() == 6:
        return "sun"
    if day.weekday() == 5:
        return "sat"
    return "weekday"


@dataclass(frozen=True)
class Geometry:
    width: int
    height: int
    name_w: int
    left: int  # x of day 1's column
    top: int  # y of the header row
    body_top: int  # y of the first teacher's row

    def cell(self, layout: Layout, row: int, day: int) -> tuple[int, int, int, int]:
        x0 = self.left + (day - 1) * layout.day_w
        y0 = self.body_top + row * layout.row_h
        return x0, y0, x0 + layout.day_w, y0 + layout.row_h


def geometry(month: MonthRoster, layout: Layout = Layout(), font_file: str | None = None) -> Geometry:
    name_font = fonts.load(16, font_file)
    name_w = max([layout.name_min_w] + [int(name_font.getlength(t)) + 20 for t in month.teachers])
    name_w = min(name_w, layout.name_max_w)
    width = layout.margin * 2 + name_w + month.days * layout.day_w
    rows_h = max(len(month.teachers), 1) * layout.row_h
    height = layout.margin * 2 + layout.title_h + layout.header_h + rows_h + layout.legend_h
    top = layout.margin + layout.title_h
    return Geometry(width, height, name_w, layout.margin + name_w, top, top + layout.header_h)


def render_png(month: MonthRoster, *, font_file: str | None = None, layout: Layout = Layout()) -> bytes:
    title_font = fonts.load(28, font_file)
    head_font = fonts.load(17, font_file)
    small_font = fonts.load(13, font_file)
    cell_font = fonts.load(14, font_file)
    name_font = fonts.load(16, font_file)
    en = month.language == "en"

    teachers = month.teachers
    days = month.days
    geo = geometry(month, layout, font_file)
    name_w, width, height = geo.name_w, geo.width, geo.height
    rows_h = max(len(teachers), 1) * layout.row_h
    import holidays
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    jp_holidays = holidays.country_holidays("JP", years=month.year)

    title = title_of(month)
    draw.text((layout.margin, layout.margin + layout.title_h // 2), title, font=title_font, fill=INK, anchor="lm")
    if month.is_update:
        draw.rectangle([layout.margin, layout.margin + layout.title_h - 8, layout.margin + 120,
                        layout.margin + layout.title_h - 5], fill=CHANGED_EDGE)

    top, left = geo.top, geo.left
    # Header row: day number and weekday, coloured for Saturdays, Sundays and holidays.
    draw.rectangle([layout.margin, top, width - layout.margin, top + layout.header_h], fill=HEADER_BG)
    draw.text((layout.margin + 10, top + layout.header_h // 2), "Teacher" if en else "講師", font=head_font,
              fill=INK, anchor="lm")
    kinds = {}
    for d in range(1, days + 1):
        date = dt.date(month.year, month.month, d)
        kind = kinds[d] = day_kind(date, jp_holidays)
        x0 = left + (d - 1) * layout.day_w
        bg, ink = {"sat": (SAT_BG, SAT_INK), "sun": (SUN_BG, SUN_INK)}.get(kind, (HEADER_BG, INK))
        draw.rectangle([x0, top, x0 + layout.day_w, top + layout.header_h], fill=bg)
        cx = x0 + layout.day_w // 2
        draw.text((cx, top + 17), str(d), font=head_font, fill=ink, anchor="mm")
        weekday = (EN_WEEKDAYS if en else JA_WEEKDAYS)[date.weekday()]
        draw.text((cx, top + 38), weekday, font=small_font, fill=ink, anchor="mm")

    # Body. Most cells repeat the same few texts ("16:00 / 21:00"), so each distinct text is drawn
    # once into a mask and stamped; that keeps 60 teachers × 31 days well under the time budget.
    cell_masks: dict[tuple[str, ...], Image.Image] = {}
    body_top = geo.body_top
    for row, teacher in enumerate(teachers):
        y0 = body_top + row * layout.row_h
        if row % 2:
            draw.rectangle([layout.margin, y0, width - layout.margin, y0 + layout.row_h], fill=ZEBRA)
        for d in range(1, days + 1):
            x0 = left + (d - 1) * layout.day_w
            if kinds[d] != "weekday":
                draw.rectangle([x0, y0, x0 + layout.day_w, y0 + layout.row_h],
                               fill=SAT_BG if kinds[d] == "sat" else SUN_BG)
            if (teacher, d) in month.changed:
                draw.rectangle([x0 + 1, y0 + 1, x0 + layout.day_w - 1, y0 + layout.row_h - 1],
                               fill=CHANGED_BG, outline=CHANGED_EDGE, width=2)
            lines = month.cells[teacher].get(d)
            if lines:
                key = tuple(lines)
                if key not in cell_masks:
                    cell_masks[key] = _cell_mask(lines, layout, cell_font, small_font)
                image.paste(INK, (x0, y0, x0 + layout.day_w, y0 + layout.row_h), cell_masks[key])
        draw.text((layout.margin + 10, y0 + layout.row_h // 2), fit(teacher, name_font, name_w - 16),
                  font=name_font, fill=INK, anchor="lm")
    if not teachers:
        draw.text((width // 2, body_top + layout.row_h // 2), "No shifts" if en else "シフトはありません",
                  font=name_font, fill=INK, anchor="mm")

    # Grid lines
    grid_bottom = body_top + rows_h
    for r in range(max(len(teachers), 1) + 1):
        y = body_top + r * layout.row_h
        draw.line([layout.margin, y, width - layout.margin, y], fill=GRID)
    for d in range(days + 1):
        x = left + d * layout.day_w
        draw.line([x, top, x, grid_bottom], fill=GRID)
    draw.rectangle([layout.margin, top, width - layout.margin, grid_bottom], outline=INK, width=2)
    draw.line([left, top, left, grid_bottom], fill=INK, width=2)

    # Legend and footer
    y = grid_bottom + layout.legend_h // 2
    x = layout.margin
    legend = [(SAT_BG, "Saturday" if en else "土曜"), (SUN_BG, "Sunday / holiday" if en else "日曜・祝日")]
    if month.is_update:
        legend.append((CHANGED_BG, "Changed since last time" if en else "前回から変更"))
    for colour, label in legend:
        draw.rectangle([x, y - 9, x + 18, y + 9], fill=colour, outline=GRID)
        draw.text((x + 26, y), label, font=small_font, fill=INK, anchor="lm")
        x += 26 + int(small_font.getlength(label)) + 28
    generated = month.generated_at or dt.datetime.now(dt.UTC)
    local = generated.astimezone(fonts_zone(month.timezone))
    footer = (f"Generated {local:%Y-%m-%d %H:%M} ({month.timezone}) · Shiftcast" if en
              else f"作成 {local:%Y-%m-%d %H:%M}（{month.timezone}）· Shiftcast")
    draw.text((width - layout.margin, y), footer, font=small_font, fill=MUTED, anchor="rm")

    out = io.BytesIO()
    image.save(out, "PNG", optimize=False, compress_level=6)
    data = out.getvalue()
    if len(data) > MAX_ORIGINAL_BYTES:  # only a pathological roster gets here; JPEG is always far smaller
        out = io.BytesIO()
        image.save(out, "JPEG", quality=90)
        data = out.getvalue()
    return data


def title_of(month: MonthRoster) -> str:
    """The heading of the month, as the grid and the phone pages both show it."""
    if month.language == "en":
        title = f"{month.classroom} — {dt.date(month.year, month.month, 1):%B %Y} shifts"
        return title + (f"  (revision {month.revision}, updated)" if month.is_update else "")
    title = f"{month.classroom}　{month.year}年{month.month}月 シフト表"
    return title + (f"　第{month.revision}版【更新】" if month.is_update else "")


def fonts_zone(name: str):  # type: ignore[no-untyped-def]
    from core.roster.clock import zone

    return zone(name)


def _cell_mask(lines: list[str], layout: Layout, font, small) -> Image.Image:  # type: ignore[no-untyped-def]
    from PIL import Image, ImageDraw

    mask = Image.new("L", (layout.day_w, layout.row_h), 0)
    _draw_cell(ImageDraw.Draw(mask), lines, layout.day_w // 2, layout.row_h // 2, font, small, ink=255)
    return mask


def _draw_cell(draw: ImageDraw.ImageDraw, lines: list[str], cx: int, cy: int, font, small, ink=INK) -> None:  # type: ignore[no-untyped-def]
    if len(lines) == 1:
        start, _, end = lines[0].partition("-")
        draw.text((cx, cy - 9), start, font=font, fill=ink, anchor="mm")
        draw.text((cx, cy + 9), end, font=font, fill=ink, anchor="mm")
    else:  # two shifts in one day: both, smaller
        for i, text in enumerate(lines[:2]):
            draw.text((cx, cy - 9 + 18 * i), text.replace("-", "–").replace(":00", ""), font=small, fill=ink, anchor="mm")


def fit(text: str, font, width: int) -> str:  # type: ignore[no-untyped-def]
    """The text, cut short with an ellipsis where it would be wider than `width`."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def preview_jpeg(original: bytes, *, max_side: int = PREVIEW_MAX_SIDE) -> bytes:
    """The smaller image LINE shows in the chat (≤ 1 MB, JPEG)."""
    from PIL import Image

    image = Image.open(io.BytesIO(original)).convert("RGB")
    image.thumbnail((max_side, max_side), Image.Resampling.LANCZOS)
    for quality in (88, 80, 70, 60, 50):
        out = io.BytesIO()
        image.save(out, "JPEG", quality=quality, optimize=True)
        if out.tell() <= MAX_PREVIEW_BYTES:
            return out.getvalue()
    image.thumbnail((max_side // 2, max_side // 2))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=60)
    return out.getvalue()


def pdf_of(original: bytes) -> bytes:
    """The month as a one-page PDF, for printing on the classroom wall."""
    from PIL import Image

    image = Image.open(io.BytesIO(original)).convert("RGB")
    out = io.BytesIO()
    image.save(out, "PDF", resolution=150.0)
    return out.getvalue()
