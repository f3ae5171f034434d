from __future__ import annotations

import datetime as dt
import io

import pytest
from PIL import Image

from core.publication import fonts, month_image
from core.publication.month_image import (
    CHANGED_BG,
    SUN_BG,
    Layout,
    geometry,
    render_png,
)
from core.roster.month import MonthRoster, changed_cells

LAYOUT = Layout()


def _roster(names: list[str], *, year: int = 2026, month: int = 5, revision: int = 1,
            changed: frozenset[tuple[str, int]] = frozenset()) -> MonthRoster:
    cells = {n: {d: ["16:00-21:00"] for d in range(1, 29) if (d + i) % 3} for i, n in enumerate(names)}
    return MonthRoster("本校", "Asia/Tokyo", "ja", year, month, cells, revision=revision, changed=changed)


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_a_real_japanese_font_is_found() -> None:
    path = fonts.find_cjk_font()
    assert fonts.has_japanese(path)
    font = fonts.load(24)
    tofu = bytes(font.getmask("\U000F0001"))  # a private-use code point: the font's missing-glyph box
    assert all(bytes(font.getmask(ch)) != tofu for ch in "佐藤鈴木月土日")


def test_japanese_names_render_as_distinct_glyphs() -> None:
    a = _image(render_png(_roster(["佐藤"])))
    b = _image(render_png(_roster(["鈴木"])))
    geo = geometry(_roster(["佐藤"]))
    name_box = (LAYOUT.margin, geo.body_top, geo.left, geo.body_top + LAYOUT.row_h)
    assert a.crop(name_box).tobytes() != b.crop(name_box).tobytes()
    assert a.crop(name_box).getextrema() != ((255, 255), (255, 255), (255, 255))  # something was drawn


def test_a_configured_font_without_japanese_is_skipped() -> None:
    fonts.find_cjk_font.cache_clear()
    try:
        assert fonts.find_cjk_font("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf") == fonts.find_cjk_font()
    finally:
        fonts.find_cjk_font.cache_clear()


def test_missing_font_gives_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    fonts.find_cjk_font.cache_clear()
    monkeypatch.setattr(fonts, "candidates", lambda configured=None: ["/nonexistent/font.ttc"])
    try:
        with pytest.raises(fonts.FontNotFoundError, match="Japanese"):
            fonts.find_cjk_font()
    finally:
        fonts.find_cjk_font.cache_clear()


def test_holiday_and_sunday_columns_have_the_holiday_colour() -> None:
    month = _roster(["佐藤", "鈴木"])
    image = _image(render_png(month))
    geo = geometry(month)
    row = 1  # a row whose day-4 cell is empty, so the background shows
    for day, expected in ((3, SUN_BG), (4, SUN_BG), (6, SUN_BG), (7, None)):  # 4 May: みどりの日; 3rd a Sunday
        x0, y0, _, _ = geo.cell(LAYOUT, row, day)
        pixel = image.getpixel((x0 + 3, y0 + 3))
        if expected is None:
            assert pixel != SUN_BG
        else:
            assert pixel == expected, day


def test_only_changed_cells_are_highlighted_in_a_revision() -> None:
    before = _roster(["佐藤", "鈴木"]).cells
    after = {t: dict(days) for t, days in before.items()}
    after["佐藤"][2] = ["10:00-15:00"]
    after["鈴木"].pop(4, None)
    after["鈴木"][3] = ["09:00-12:00"]
    changed = changed_cells(before, after)
    assert changed == {("佐藤", 2), ("鈴木", 3), ("鈴木", 4)}
    month = MonthRoster("本校", "Asia/Tokyo", "ja", 2026, 5, after, revision=2, changed=changed)
    image = _image(render_png(month))
    geo = geometry(month)
    highlighted = set()
    for row, teacher in enumerate(month.teachers):
        for day in range(1, month.days + 1):
            x0, y0, _, _ = geo.cell(LAYOUT, row, day)
            if image.getpixel((x0 + 4, y0 + 4)) == CHANGED_BG:
                highlighted.add((teacher, day))
    assert highlighted == set(changed) and highlighted


def test_sixty_teachers_fit_lines_limits() -> None:
    names = [f"講師{i:02d} 山田花子" for i in range(60)]
    cells = {n: {d: ["16:00-21:00"] for d in range(1, 32)} for n in names}
    month = MonthRoster("本校", "Asia/Tokyo", "ja", 2026, 12, cells, revision=3,
                        changed=frozenset({(names[0], 1)}))
    original = render_png(month)
    preview = month_image.preview_jpeg(original)
    assert len(original) <= month_image.MAX_ORIGINAL_BYTES and len(preview) <= month_image.MAX_PREVIEW_BYTES
    image, small = Image.open(io.BytesIO(original)), Image.open(io.BytesIO(preview))
    assert image.format == "PNG" and small.format == "JPEG"
    assert max(small.size) <= month_image.PREVIEW_MAX_SIDE
    assert image.size[0] < 2200  # sized for phones: zoomable, not poster-sized
    pdf = month_image.pdf_of(original)
    assert pdf.startswith(b"%PDF")


def test_english_title_and_update_mark() -> None:
    month = MonthRoster("Main", "Asia/Tokyo", "en", 2026, 12, {"Ann": {1: ["09:00-12:00"]}}, revision=2,
                        changed=frozenset({("Ann", 1)}), generated_at=dt.datetime(2026, 12, 1, tzinfo=dt.UTC))
    assert render_png(month) != render_png(MonthRoster("Main", "Asia/Tokyo", "en", 2026, 12, {"Ann": {1: ["09:00-12:00"]}}))
