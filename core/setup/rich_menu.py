"""The LINE account's rich menu (the menu under the chat): four tiles that open the teachers' page — my
shifts, availability, cover calls, my calendar — for everyone who has added the account.

Setting it makes a new menu at LINE (a menu's image cannot be replaced there), uploads its picture, makes
it the default, and only then deletes the menu Shiftcast set before, whose ID is kept in a setting; a
refusal on the way deletes the half-made menu, so the one before stays. Removing deletes the one set.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.channels.line import LineApiError, LineClient, access_from_settings
from core.errors import ShiftcastError, ValidationError
from core.pages.addresses import page_url
from core.publication import fonts
from core.store import setting_keys as keys
from core.store.db import Database
from core.texts import Text, render, t
from core.texts.formats import Language

if TYPE_CHECKING:
    from PIL import ImageDraw, ImageFont

log = logging.getLogger(__name__)

WIDTH, HEIGHT = 2500, 843  # LINE's "compact" size: the chat stays in view above it
# The page's views the tiles open, left to right, with their words.
TILES: tuple[tuple[str, str], ...] = (
    ("month", "rich_menu.tile.month"),
    ("availability", "rich_menu.tile.availability"),
    ("covers", "rich_menu.tile.covers"),
    ("calendar", "rich_menu.tile.calendar"),
)
_BACKGROUND = (255, 255, 255)
_TILE_COLOURS = ((6, 199, 85), (0, 122, 204), (240, 140, 0), (122, 84, 196))  # one accent a tile
_INK = (33, 37, 41)
_RULE = (222, 226, 230)
_WHITE = (255, 255, 255)


@dataclass(frozen=True)
class RichMenuResult:
    rich_menu_id: str
    areas: tuple[str, ...]  # each tile's address, left to right
    replaced: str | None  # the menu Shiftcast had set before, now deleted (None: there was none)


class RichMenuRefused(ShiftcastError):
    """LINE did not take the menu; what was made on the way is deleted again."""


def set_rich_menu(db: Database, *, language: Language, font_file: str | None = None) -> RichMenuResult:
    with db.read() as session:
        liff_id = keys.LIFF_ID.read(session)
        before = keys.LINE_RICH_MENU_ID.read(session)
    if not liff_id:
        raise ValidationError(t("rich_menu.no_liff_id"))
    access = _access(db)
    addresses = tuple(page_url(liff_id, view) for view, _ in TILES)
    labels = tuple(render(t(code), language) for _, code in TILES)
    image = menu_image(labels, font_file=font_file)
    with access.client as client:
        menu_id = _step(t("rich_menu.step.create"), lambda: client.create_rich_menu(definition(addresses, labels,
                                                                                                language=language)))
        try:
            _step(t("rich_menu.step.image"), lambda: client.upload_rich_menu_image(menu_id, image))
            _step(t("rich_menu.step.default"), lambda: client.set_default_rich_menu(menu_id))
        except RichMenuRefused:
            _delete_quietly(client, menu_id)
            raise
        with db.write() as session:
            keys.LINE_RICH_MENU_ID.write(session, menu_id)
        replaced = before if before and before != menu_id and _delete_quietly(client, before) else None
    return RichMenuResult(menu_id, addresses, replaced)


def remove_rich_menu(db: Database) -> str | None:
    """Delete the menu Shiftcast set (LINE then shows none); the removed menu's ID, or None if none was set."""
    with db.read() as session:
        menu_id = keys.LINE_RICH_MENU_ID.read(session)
    if not menu_id:
        return None
    with _access(db).client as client:
        try:
            client.delete_rich_menu(menu_id)
        except LineApiError as exc:
            if exc.status != 404:  # gone already (deleted in LINE's console): forgetting it is all that is left
                raise RichMenuRefused(t("rich_menu.refused", step=t("rich_menu.step.delete"), why=exc.text)) from None
    with db.write() as session:
        keys.LINE_RICH_MENU_ID.write(session, None)
    return menu_id


def definition(addresses: tuple[str, ...], labels: tuple[str, ...], *, language: Language) -> dict[str, Any]:
    """The rich menu object: one tile a view, side by side, each opening its page address."""
    width = WIDTH // len(addresses)
    areas = [{"bounds": {"x": i * width, "y": 0, "width": WIDTH - i * width if i == len(addresses) - 1 else width,
                         "height": HEIGHT},
              "action": {"type": "uri", "label": label, "uri": address}}
             for i, (address, label) in enumerate(zip(addresses, labels, strict=True))]
    return {"size": {"width": WIDTH, "height": HEIGHT}, "selected": True, "name": "Shiftcast teachers' page",
            "chatBarText": render(t("rich_menu.chat_bar"), language), "areas": areas}


def menu_image(labels: tuple[str, ...], *, font_file: str | None = None) -> bytes:
    """The menu's picture (PNG, WIDTH × HEIGHT): each tile a coloured band and its words, centred."""
    from PIL import Image, ImageDraw

    picture = Image.new("RGB", (WIDTH, HEIGHT), _BACKGROUND)
    draw = ImageDraw.Draw(picture)
    width = WIDTH // len(labels)
    for i, label in enumerate(labels):
        left = i * width
        right = WIDTH if i == len(labels) - 1 else left + width
        draw.rectangle((left, 0, right - 1, 60), fill=_TILE_COLOURS[i % len(_TILE_COLOURS)])
        centre = (left + right) // 2
        draw.ellipse((centre - 130, 140, centre + 130, 400), fill=_TILE_COLOURS[i % len(_TILE_COLOURS)])
        _ICONS[TILES[i % len(TILES)][0]](draw, centre, 270)
        if i:
            draw.line((left, 120, left, HEIGHT - 120), fill=_RULE, width=6)
        font = _fitting_font(draw, label, right - left - 80, font_file)
        draw.text(((left + right) / 2, 600), label, font=font, fill=_INK, anchor="mm")
    out = io.BytesIO()
    picture.save(out, "PNG", optimize=True)
    return out.getvalue()


def _calendar(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    draw.rounded_rectangle((x - 70, y - 60, x + 70, y + 65), radius=12, outline=_WHITE, width=12)
    draw.line((x - 70, y - 25, x + 70, y - 25), fill=_WHITE, width=12)
    for dx in (-35, 0, 35):
        for dy in (10, 40):
            draw.rectangle((x + dx - 9, y + dy - 9, x + dx + 9, y + dy + 9), fill=_WHITE)


def _check(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    draw.line(((x - 65, y), (x - 20, y + 50), (x + 70, y - 55)), fill=_WHITE, width=26, joint="curve")


def _swap(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    for sign in (-1, 1):  # an arrow each way: a shift handed over
        row = y + sign * 35
        tip, tail = x + sign * 75, x - sign * 75
        draw.line((tail, row, tip, row), fill=_WHITE, width=20)
        draw.polygon(((tip + sign * 10, row), (tip - sign * 30, row - 32), (tip - sign * 30, row + 32)), fill=_WHITE)


def _feed(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    _calendar(draw, x - 10, y - 5)
    draw.ellipse((x + 25, y + 20, x + 95, y + 90), fill=_WHITE)  # a dot: the calendar kept up to date


_ICONS = {"month": _calendar, "availability": _check, "covers": _swap, "calendar": _feed}


def _fitting_font(draw: ImageDraw.ImageDraw, label: str, room: int, font_file: str | None) -> ImageFont.FreeTypeFont:
    size = 120
    font = fonts.load(size, font_file)
    while size > 40 and draw.textlength(label, font=font) > room:
        size -= 8
        font = fonts.load(size, font_file)
    return font


def _access(db: Database) -> Any:
    access = access_from_settings(db)
    if access is None:
        raise ValidationError(t("rich_menu.no_line"))
    return access


def _step(step: Text, call: Any) -> Any:
    try:
        return call()
    except LineApiError as exc:
        raise RichMenuRefused(t("rich_menu.refused", step=step, why=exc.text)) from None


def _delete_quietly(client: LineClient, menu_id: str) -> bool:
    """Delete a menu Shiftcast no longer uses; True when it is gone. A failure is logged, not raised: the
    menu that matters is in place, and one left behind only takes room among LINE's 1,000."""
    try:
        client.delete_rich_menu(menu_id)
    except LineApiError as exc:
        if exc.status == 404:
            return True
        log.warning("could not delete the rich menu %s: %s", menu_id, exc)
        return False
    return True
