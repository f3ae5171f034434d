"""Flex messages drawn as a phone shows them (core/publication/flex_picture.py): the layout puts every
line a bubble says where it belongs, in the style it gives, and the picture is the cards side by side.
Also the Publish preview's choice (core/publication/group_preview.py): the pages with image hosting,
the Flex month without it, the wide grid without a group."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from PIL import Image

from core.messages import ack, flex_text, month_flex, texts
from core.publication import flex_picture, fonts, group_preview
from core.store import setting_keys as keys
from core.store.db import Database
from core.texts import Text
from tests import factories as f

GROUP = "C" + "3" * 32


def font(size: int):
    return fonts.load(size)


def _week_month() -> month_flex.MonthFacts:
    cells = {"佐藤 花子": {1: ["16:00-21:00"], 3: ["10:00-15:00"]},
             "鈴木 一郎": {1: ["13:00-18:00"], 2: ["11:30-12:30", "17:00-22:00"]},
             "Tanaka Kenta": {8: ["17:00-22:00"]}}
    return month_flex.MonthFacts("さくら教室", 2026, 12, 2, cells, frozenset({("鈴木 一郎", 2)}), "ja")


def test_a_week_bubble_draws_each_line_it_says_once_in_order() -> None:
    messages = month_flex.group_messages(_week_month())
    first = flex_picture.bubbles(messages[0])[0]
    card = flex_picture.layout(first, font, scale=1)
    said = [line for line in flex_text.lines(first) if line.strip()]
    assert card.texts == said  # N lines said, N lines drawn, in the bubble's order
    assert "12月1日(火)" in card.texts and "佐藤 花子  16:00-21:00" in card.texts
    ys = [line.y for line in card.lines]
    assert ys == sorted(ys) and len(set(ys)) == len(ys)  # one under the other, none on top of another
    assert card.width == flex_picture.BUBBLE_WIDTHS["mega"]  # about a phone's bubble
    assert all(run.x >= 0 and line.y + line.height <= card.height for line in card.lines for run in line.runs)


def test_styles_follow_the_bubble_header_colour_bold_changed_rows_and_sizes() -> None:
    card = flex_picture.layout(flex_picture.bubbles(month_flex.group_messages(_week_month())[0])[0], font, scale=1)
    by_text = {line.text: line for line in card.lines}
    title = card.lines[0]  # the month's title, however it wraps
    assert title.runs[0].colour == "#FFFFFF" and title.runs[0].bold and title.runs[0].size == 16
    changed = by_text["● 鈴木 一郎  11:30-12:30, 17:00-22:00"].runs[0]
    assert changed.colour == month_flex.CHANGED and changed.bold and changed.size == 14
    plain = by_text["佐藤 花子  16:00-21:00"].runs[0]
    assert plain.colour == flex_picture.TEXT_COLOUR and not plain.bold
    header = card.fills[0]
    assert header.colour == month_flex.ACCENT and header.y == 0 and header.width == card.width
    # The header's box holds its lines: they are drawn on the green, the body's below it.
    assert all(line.y + line.height <= header.height for line in card.lines[:3])
    assert by_text["佐藤 花子  16:00-21:00"].y >= header.height


def test_a_long_text_wraps_within_the_card_and_a_button_is_drawn() -> None:
    message = ack.with_button(texts.flex_message("明日のシフト\n" + "とても長いお知らせの文章です。" * 6), "data", "ja")
    card = flex_picture.layout(flex_picture.bubbles(message)[0], font, scale=2)
    assert card.width == flex_picture.BUBBLE_WIDTHS["kilo"] * 2
    body = [line for line in card.lines if "お知らせ" in line.text]
    assert len(body) > 1  # wrapped
    assert "".join(line.text for line in body) == "とても長いお知らせの文章です。" * 6  # nothing lost
    assert all(run.x + font(run.size).getlength(run.text) <= card.width for line in body for run in line.runs)
    assert card.texts[-1] == "了解"  # the button's label, on its coloured button at the bottom
    button = card.fills[-1]
    assert button.round and button.y + button.height <= card.height


def test_the_picture_is_the_carousels_cards_side_by_side_at_twice_the_size() -> None:
    messages = month_flex.group_messages(_week_month())
    cards = len(flex_picture.bubbles(messages[0]))
    assert cards == 5  # December 2026 has five calendar weeks
    image = Image.open(io.BytesIO(flex_picture.picture(messages)))
    margin, gap, width = (flex_picture.CHAT_MARGIN * 2, flex_picture.CARD_GAP * 2,
                          flex_picture.BUBBLE_WIDTHS["mega"] * 2)
    assert image.width == 2 * margin + cards * width + (cards - 1) * gap
    # Each card starts where it should: the header's green at the top of every card.
    top = margin + 2 * flex_picture.CORNER  # below the rounded corner
    for n in range(cards):
        x = margin + n * (width + gap) + width // 2
        assert image.getpixel((x, top)) == (0x1B, 0x7F, 0x5B)
    assert image.getpixel((margin // 2, margin // 2)) == (0x8C, 0xAB, 0xD9)  # the chat behind the cards


def _preview_month(db: Database, now: dt.datetime, *, group: str | None) -> int:
    with db.write() as s:
        room = f.classroom(s, line_group_id=group)
        teacher = f.teacher(s, "佐藤", 1)
        f.shift(s, room, teacher, dt.date(2026, 12, 3), now=now)
        return room.id


@pytest.mark.parametrize(("hosting", "group", "form"), [
    (False, GROUP, "publish.preview.flex"), (True, GROUP, "publish.preview.pages"),
    (True, None, "publish.preview.later")])
def test_the_preview_is_the_form_the_sender_will_choose(db: Database, now: dt.datetime, hosting: bool,
                                                        group: str | None, form: str) -> None:
    room_id = _preview_month(db, now, group=group)
    if hosting:  # set up as the sender reads it; its secret is looked up only when it sends
        with db.write() as s:
            keys.HOSTING_ENDPOINT.write(s, "https://r2.example.com")
            keys.HOSTING_BUCKET.write(s, "rosters")
            keys.HOSTING_ACCESS_KEY_ID.write(s, "AKIA")
    with db.read() as s:
        shown = group_preview.preview(s, room_id, 2026, 12, now=now)
    assert shown.form.code == form
    image = Image.open(io.BytesIO(shown.png))
    if form == "publish.preview.later":  # no group yet: what it will get once chosen, the pages here
        inner = shown.form.params["form"]
        assert isinstance(inner, Text) and inner.code == "publish.preview.pages"
        form = "publish.preview.pages"
    if form == "publish.preview.flex":
        assert image.width == 2 * flex_picture.CHAT_MARGIN * 2 + 5 * 600 + 4 * flex_picture.CARD_GAP * 2
    elif form == "publish.preview.pages":
        assert image.height > image.width / 4 and image.getpixel((1, 1)) != (0x8C, 0xAB, 0xD9)


def test_with_a_relay_attached_and_no_bucket_the_preview_is_the_pages_said_to_go_through_it(
        db: Database, now: dt.datetime) -> None:
    room_id = _preview_month(db, now, group=GROUP)
    with db.write() as s:
        keys.RELAY_URL.write(s, "https://relay.example.com")
    with db.read() as s:
        shown = group_preview.preview(s, room_id, 2026, 12, now=now)
    assert shown.form is not None and shown.form.code == "publish.preview.pages_relay"
    image = Image.open(io.BytesIO(shown.png))
    assert image.height > image.width / 4  # the pages, not the Flex cards
