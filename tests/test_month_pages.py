"""The month for phones: page sizes within LINE's limits, letters large enough, weeks shared out."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from PIL import Image

from core.publication import fonts, month_image, month_pages
from core.publication.month_pages import PAGE_WIDTH, TEXT_PX, page_days, preview_of, render_pages
from core.roster.month import MonthRoster

NOW = dt.datetime(2026, 11, 20, 3, tzinfo=dt.UTC)


def _big() -> MonthRoster:
    """30 teachers on every day of a 31-day month, a quarter of them twice a day: more than any classroom."""
    names = [f"講師{i:02d}佐藤花子" for i in range(30)]
    cells = {n: {d: ["16:00-21:00"] if (d + i) % 4 else ["10:00-12:00", "17:00-21:00"] for d in range(1, 32)}
             for i, n in enumerate(names)}
    return MonthRoster("本校", "Asia/Tokyo", "ja", 2026, 12, cells, revision=2,
                       changed=frozenset({(names[0], 3), (names[7], 30)}), generated_at=NOW)


def _small() -> MonthRoster:
    return MonthRoster("本校", "Asia/Tokyo", "ja", 2026, 5, {"佐藤": {1: ["16:00-21:00"]}, "鈴木": {2: ["10:00-14:00"]}},
                       generated_at=NOW)


@pytest.mark.parametrize("roster", [_big, _small])
def test_pages_are_phone_wide_and_within_line_s_image_limits(roster) -> None:
    pages = render_pages(roster())
    assert 1 <= len(pages) <= month_pages.MAX_PAGES  # with the announcement: LINE's five messages per push
    for page in pages:
        image = Image.open(io.BytesIO(page.png))
        assert image.format == "PNG" and image.size == (page.width, page.height) and page.width == PAGE_WIDTH >= 1040
        assert len(page.png) <= month_image.MAX_ORIGINAL_BYTES
        preview = preview_of(page.png)
        assert len(preview) <= month_image.MAX_PREVIEW_BYTES
        assert Image.open(io.BytesIO(preview)).format == "JPEG"
    # Every day of the month is on exactly one page, in order.
    assert [d for p in pages for d in range(p.days[0], p.days[1] + 1)] == list(range(1, 32))


def test_weeks_are_shared_out_one_or_two_to_a_page() -> None:
    # December 2026 starts on a Tuesday: five calendar weeks, so the first page takes two.
    assert [(p[0], p[-1]) for p in page_days(2026, 12, 31)] == [(1, 13), (14, 20), (21, 27), (28, 31)]
    # August 2026 starts on a Saturday and spans six calendar weeks.
    assert [(p[0], p[-1]) for p in page_days(2026, 8, 31)] == [(1, 9), (10, 23), (24, 30), (31, 31)]
    # February 2027 starts on a Monday: four whole weeks, one a page.
    assert [(p[0], p[-1]) for p in page_days(2027, 2, 28)] == [(1, 7), (8, 14), (15, 21), (22, 28)]


def _ink_height(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Rows of the box with any dark pixel in them: the height of what is written there."""
    crop = image.crop(box).convert("L")
    rows = [y for y in range(crop.height) if _darkest(crop.crop((0, y, crop.width, y + 1))) < 128]
    return rows[-1] - rows[0] + 1 if rows else 0


def _darkest(line: Image.Image) -> float:
    low = line.getextrema()[0]  # a one-band image: (lowest, highest)
    assert isinstance(low, (int, float))
    return low


def test_letters_are_large_enough_to_read_on_a_phone() -> None:
    """The digits of a teacher's times, measured in the picture: a "1" is as tall as the font's digits.
    At TEXT_PX and up, a page shown 390 points wide has letters of 10 points and more."""
    roster = MonthRoster("Main", "Asia/Tokyo", "en", 2027, 2, {"A": {1: ["11:11-11:11"]}}, generated_at=NOW)
    image = Image.open(io.BytesIO(render_pages(roster)[0].png)).convert("RGB")
    top = month_pages.MARGIN + month_pages.TITLE_H + month_pages.SUBTITLE_H + month_pages.DAY_H
    times = (PAGE_WIDTH // 2 - month_pages.TIME_W - 40, top, PAGE_WIDTH // 2, top + month_pages.ENTRY_H)
    digit = _ink_height(image, times)
    font_digit = fonts.load(month_pages.ENTRY_PX).getbbox("1", anchor="ls")
    assert digit == pytest.approx(font_digit[3] - font_digit[1], abs=2)
    assert digit >= 0.7 * TEXT_PX  # a digit is about seven tenths of the font's size
    shown = digit * 390 / PAGE_WIDTH
    assert shown >= 8  # points of digit height on a 390-point-wide screen (iOS body text: about 12)


def test_the_wide_grid_is_unchanged_for_printing() -> None:
    roster = _small()
    grid = Image.open(io.BytesIO(month_image.render_png(roster)))
    assert grid.size == (month_image.geometry(roster).width, month_image.geometry(roster).height)
    assert grid.width > grid.height  # landscape, for the wall
