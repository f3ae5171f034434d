"""LINE Flex messages drawn as a phone shows them: each bubble a card about 300 px wide, a carousel's
bubbles side by side. The Publish preview shows the month this way when it goes as Flex (no image
hosting), and the demo's inbox shows every Flex message so.

Two steps. `layout` is the part with the rules: a bubble's header, hero, body and footer boxes, box
layouts vertical, horizontal and baseline, text (size, weight, colour, wrap, spans), separators,
buttons, spacing, margins, padding and background colours, measured with the font it will be drawn
with, into a `Card` of positioned rectangles and text lines. `picture` paints cards with Pillow, at
twice the size (a phone's pixel density), for the screens to scale down sharply. Only what Shiftcast's
own Flex builders use is drawn; anything else takes no room, and an image is a grey box of its
aspect ratio (the demo never fetches it).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.publication import fonts

if TYPE_CHECKING:
    from PIL import ImageFont

SCALE = 2  # drawn at a phone's density, so text stays sharp when the screen scales it down
BUBBLE_WIDTHS = {"nano": 120, "micro": 160, "kilo": 260, "mega": 300, "giga": 500}
TEXT_PX = {"xxs": 11, "xs": 13, "sm": 14, "md": 16, "lg": 19, "xl": 22, "xxl": 29, "3xl": 35, "4xl": 48, "5xl": 74}
GAP_PX = {"none": 0, "xs": 2, "sm": 4, "md": 8, "lg": 12, "xl": 16, "xxl": 20}
BUTTON_PX = {"sm": 40, "md": 52}
BLOCK_PADDING = {"header": 20, "hero": 0, "body": 20, "footer": 10}
LINE_SPACING = 1.4  # a text line's height over its font size, as LINE's renderer leaves it
TEXT_COLOUR = "#111111"
SEPARATOR_COLOUR = "#E5E5E5"
CARD_COLOUR = "#FFFFFF"
CHAT_COLOUR = "#8CABD9"  # LINE's default chat background, so a white card reads as it does on a phone
IMAGE_COLOUR = "#D0D0D0"
CARD_GAP = 10  # between a carousel's cards
CHAT_MARGIN = 12
CORNER = 17

Font = Callable[[int], "ImageFont.FreeTypeFont"]  # pixel size → the font drawn at it


@dataclass(frozen=True)
class Run:
    """A piece of one line in one style (a text's span, or the whole text)."""

    text: str
    x: int
    size: int
    bold: bool
    colour: str


@dataclass(frozen=True)
class TextLine:
    """One line of text as drawn: where it starts, how tall it is, and its runs left to right."""

    x: int
    y: int
    height: int
    runs: tuple[Run, ...]

    @property
    def text(self) -> str:
        return "".join(run.text for run in self.runs)


@dataclass(frozen=True)
class Fill:
    """A filled rectangle: a box's background, a separator, a button, an image's place."""

    x: int
    y: int
    width: int
    height: int
    colour: str
    round: bool = False


@dataclass(frozen=True)
class Card:
    """One bubble laid out: its size and what is drawn on it, in drawing order."""

    width: int
    height: int
    fills: tuple[Fill, ...]
    lines: tuple[TextLine, ...]

    @property
    def texts(self) -> list[str]:
        return [line.text for line in self.lines]


@dataclass
class _Drawn:
    """What a component takes: its height and its marks, relative to its own top left."""

    height: int
    fills: list[Fill] = field(default_factory=list)
    lines: list[TextLine] = field(default_factory=list)

    def moved(self, dx: int, dy: int) -> _Drawn:
        return _Drawn(self.height,
                      [Fill(f.x + dx, f.y + dy, f.width, f.height, f.colour, f.round) for f in self.fills],
                      [TextLine(t.x + dx, t.y + dy, t.height,
                                tuple(Run(r.text, r.x + dx, r.size, r.bold, r.colour) for r in t.runs))
                       for t in self.lines])


def bubbles(message: dict[str, Any]) -> list[dict[str, Any]]:
    """A Flex message's bubbles in the order a phone shows them (a carousel's left to right)."""
    contents = message.get("contents") if message.get("type") == "flex" else message
    if not isinstance(contents, dict):
        return []
    if contents.get("type") == "carousel":
        return [b for b in contents.get("contents") or [] if isinstance(b, dict)]
    return [contents] if contents.get("type") == "bubble" else []


def layout(bubble: dict[str, Any], font: Font, *, scale: int = SCALE) -> Card:
    """One bubble as a card `scale` times the size a phone gives it in points."""
    width = BUBBLE_WIDTHS.get(str(bubble.get("size") or "mega"), BUBBLE_WIDTHS["mega"]) * scale
    drawn = _Drawn(0)
    for block in ("header", "hero", "body", "footer"):
        part = bubble.get(block)
        if not isinstance(part, dict):
            continue
        padding = BLOCK_PADDING[block] if part.get("type") == "box" else 0
        piece = _component(part, width, font, scale, default_padding=padding)
        drawn.fills += piece.moved(0, drawn.height).fills
        drawn.lines += piece.moved(0, drawn.height).lines
        drawn.height += piece.height
    return Card(width, max(drawn.height, 1), tuple(drawn.fills), tuple(drawn.lines))


def picture(messages: Sequence[dict[str, Any]], *, font_file: str | None = None, scale: int = SCALE) -> bytes:
    """Flex messages as one PNG on a chat's background: a message's bubbles in a row, messages one
    under the other, as a chat shows a carousel after a carousel."""
    rows = [[layout(b, _font_of(font_file), scale=scale) for b in bubbles(m)] for m in messages]
    return paint([row for row in rows if row], scale=scale, font_file=font_file)


def paint(rows: Sequence[Sequence[Card]], *, scale: int = SCALE, font_file: str | None = None) -> bytes:
    from PIL import Image, ImageDraw

    gap, margin = CARD_GAP * scale, CHAT_MARGIN * scale
    width = max((sum(c.width for c in row) + gap * (len(row) - 1) for row in rows), default=BUBBLE_WIDTHS["mega"])
    height = sum(max(c.height for c in row) for row in rows) + gap * max(len(rows) - 1, 0)
    sheet = Image.new("RGB", (width + 2 * margin, max(height, 1) + 2 * margin), CHAT_COLOUR)
    font = _font_of(font_file)
    y = margin
    for row in rows:
        x = margin
        for card in row:
            sheet.paste(_paint_card(card, font, scale, Image, ImageDraw), (x, y), _corner_mask(card, scale, Image,
                                                                                                  ImageDraw))
            x += card.width + gap
        y += max(c.height for c in row) + gap
    out = io.BytesIO()
    sheet.save(out, "PNG", compress_level=1)
    return out.getvalue()


# ----- layout -----


def _font_of(font_file: str | None) -> Font:
    return lambda size: fonts.load(size, font_file)


def _px(value: Any, table: dict[str, int], scale: int, default: int = 0) -> int:
    """A Flex length: a keyword of `table`, or "12px"; anything else is the default."""
    if isinstance(value, str):
        if value in table:
            return table[value] * scale
        if value.endswith("px"):
            try:
                return round(float(value[:-2]) * scale)
            except ValueError:
                return default * scale
    return default * scale


def _component(node: dict[str, Any], width: int, font: Font, scale: int, *, default_padding: int = 0) -> _Drawn:
    kind = node.get("type")
    if kind == "box":
        return _box(node, width, font, scale, default_padding)
    if kind == "text":
        return _text(node, width, font, scale)
    if kind == "separator":
        return _Drawn(scale, [Fill(0, 0, width, scale, str(node.get("color") or SEPARATOR_COLOUR))])
    if kind == "button":
        return _button(node, width, font, scale)
    if kind == "image":
        return _image(node, width, scale)
    if kind == "spacer":
        return _Drawn(_px(node.get("size"), GAP_PX, scale, GAP_PX["md"]))
    return _Drawn(0)  # filler, icon, video: nothing Shiftcast sends


def _box(node: dict[str, Any], width: int, font: Font, scale: int, default_padding: int) -> _Drawn:
    pad = _px(node.get("paddingAll"), GAP_PX, scale, default_padding)
    top, bottom = (_px(node.get(k), GAP_PX, scale, pad // scale) if k in node else pad
                   for k in ("paddingTop", "paddingBottom"))
    start, end = (_px(node.get(k), GAP_PX, scale, pad // scale) if k in node else pad
                  for k in ("paddingStart", "paddingEnd"))
    inner = max(width - start - end, scale)
    children = [c for c in node.get("contents") or [] if isinstance(c, dict)]
    spacing = _px(node.get("spacing"), GAP_PX, scale)
    if node.get("layout") in ("horizontal", "baseline"):
        content = _row(children, inner, font, scale, spacing)
    else:
        content = _column(children, inner, font, scale, spacing)
    content = content.moved(start, top)
    fills = []
    if node.get("backgroundColor"):
        fills.append(Fill(0, 0, width, top + content.height + bottom, str(node["backgroundColor"])))
    return _Drawn(top + content.height + bottom, fills + content.fills, content.lines)


def _column(children: list[dict[str, Any]], width: int, font: Font, scale: int, spacing: int) -> _Drawn:
    drawn = _Drawn(0)
    for index, child in enumerate(children):
        if index:  # a first child's margin takes no room, as on LINE
            drawn.height += _px(child["margin"], GAP_PX, scale) if "margin" in child else spacing
        piece = _component(child, width, font, scale).moved(0, drawn.height)
        drawn.fills += piece.fills
        drawn.lines += piece.lines
        drawn.height += piece.height
    return drawn


def _row(children: list[dict[str, Any]], width: int, font: Font, scale: int, spacing: int) -> _Drawn:
    """Side by side, the width shared by each child's flex (1 unless it says), as LINE shares it."""
    gaps = [(_px(c["margin"], GAP_PX, scale) if "margin" in c else spacing) if i else 0 for i, c in enumerate(children)]
    weights = [max(int(c.get("flex", 1)), 0) for c in children]
    free = max(width - sum(gaps), 0)
    total = sum(weights) or 1
    drawn = _Drawn(0)
    x = 0
    for child, gap, weight in zip(children, gaps, weights, strict=True):
        x += gap
        share = free * weight // total
        piece = _component(child, max(share, scale), font, scale).moved(x, 0)
        drawn.fills += piece.fills
        drawn.lines += piece.lines
        drawn.height = max(drawn.height, piece.height)
        x += share
    return drawn


def _styled(node: dict[str, Any], parent: dict[str, Any], scale: int) -> tuple[int, bool, str]:
    size = _px(node.get("size", parent.get("size")), TEXT_PX, scale, TEXT_PX["md"])
    bold = (node.get("weight") or parent.get("weight")) == "bold"
    colour = str(node.get("color") or parent.get("color") or TEXT_COLOUR)
    return size, bold, colour


def _text(node: dict[str, Any], width: int, font: Font, scale: int) -> _Drawn:
    spans = [s for s in node.get("contents") or [] if isinstance(s, dict) and s.get("type") == "span"]
    pieces = [(str(s.get("text", "")), *_styled(s, node, scale)) for s in spans] if spans else \
        [(str(node.get("text", "")), *_styled(node, node, scale))]
    wrap = bool(node.get("wrap"))
    lines: list[list[tuple[str, int, bool, str]]] = [[]]
    for text, size, bold, colour in pieces:
        for number, part in enumerate(text.split("\n") if wrap else [text.replace("\n", " ")]):
            if number:
                lines.append([])
            if part:
                lines[-1].append((part, size, bold, colour))
    if not wrap:  # LINE keeps an unwrapped text on one line and cuts it with an ellipsis
        laid = [_cut(lines[0], width, font)]
    else:
        laid = [wrapped for line in lines for wrapped in _wrap(line, width, font)]
    base = _styled(node, node, scale)[0]
    drawn = _Drawn(0)
    align = node.get("align")
    for line in laid:
        height = round(max((size for _, size, _, _ in line), default=base) * LINE_SPACING)
        used = sum(_width(font, text, size, bold) for text, size, bold, _ in line)
        x = width - used if align == "end" else (width - used) // 2 if align == "center" else 0
        runs = []
        for text, size, bold, colour in line:
            runs.append(Run(text, x, size, bold, colour))
            x += _width(font, text, size, bold)
        drawn.lines.append(TextLine(0, drawn.height, height, tuple(runs)))
        drawn.height += height
    return drawn


def _width(font: Font, text: str, size: int, bold: bool) -> int:
    return round(font(size).getlength(text)) + (2 if bold else 0)


def _wrap(line: list[tuple[str, int, bool, str]], width: int, font: Font) -> Iterable[list[tuple[str, int, bool, str]]]:
    """A line's runs broken to the width: at a space where one is near, else between any two characters
    (Japanese breaks anywhere)."""
    out: list[tuple[str, int, bool, str]] = []
    used = 0
    for text, size, bold, colour in line:
        rest = text
        while rest:
            fits = _fitting(rest, width - used, font, size, bold)
            if fits < len(rest):
                space = rest.rfind(" ", 0, fits + 1)
                if space > 0 and space > fits // 2:
                    fits = space + 1
            if fits == 0 and not out:
                fits = 1  # one character wider than the card still goes somewhere
            if fits:
                out.append((rest[:fits].rstrip(" ") if fits < len(rest) else rest[:fits], size, bold, colour))
                used += _width(font, rest[:fits], size, bold)
                rest = rest[fits:]
            if rest:
                yield out
                out, used = [], 0
    yield out


def _fitting(text: str, room: int, font: Font, size: int, bold: bool) -> int:
    """How many of the text's first characters fit in `room` pixels (a binary search on the width)."""
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if _width(font, text[:middle], size, bold) <= room:
            low = middle
        else:
            high = middle - 1
    return low


def _cut(line: list[tuple[str, int, bool, str]], width: int, font: Font) -> list[tuple[str, int, bool, str]]:
    out: list[tuple[str, int, bool, str]] = []
    used = 0
    for text, size, bold, colour in line:
        room = width - used
        if _width(font, text, size, bold) <= room:
            out.append((text, size, bold, colour))
            used += _width(font, text, size, bold)
            continue
        keep = _fitting(text, room - _width(font, "…", size, bold), font, size, bold)
        out.append((text[:keep] + "…", size, bold, colour))
        break
    return out


def _button(node: dict[str, Any], width: int, font: Font, scale: int) -> _Drawn:
    height = BUTTON_PX.get(str(node.get("height") or "md"), BUTTON_PX["md"]) * scale
    action = node.get("action") if isinstance(node.get("action"), dict) else {}
    label = str((action or {}).get("label") or "")
    style = node.get("style") or "link"
    accent = str(node.get("color") or "#42659A")
    if style == "primary":
        fill: list[Fill] = [Fill(0, 0, width, height, accent, round=True)]
        colour = "#FFFFFF"
    elif style == "secondary":
        fill, colour = [Fill(0, 0, width, height, node.get("color") or "#DCDFE5", round=True)], TEXT_COLOUR
    else:
        fill, colour = [], accent
    size = TEXT_PX["md"] * scale
    label = _cut([(label, size, False, colour)], width - 8 * scale, font)[0][0] if label else ""
    used = _width(font, label, size, False)
    line_height = round(size * LINE_SPACING)
    line = TextLine(0, (height - line_height) // 2, line_height, (Run(label, (width - used) // 2, size, False, colour),))
    return _Drawn(height, fill, [line] if label else [])


def _image(node: dict[str, Any], width: int, scale: int) -> _Drawn:
    ratio = str(node.get("aspectRatio") or "1:1")
    try:
        across, down = (float(part) for part in ratio.split(":"))
        height = round(width * down / across)
    except ValueError:
        height = width
    return _Drawn(height, [Fill(0, 0, width, height, IMAGE_COLOUR)])


# ----- painting -----


def _paint_card(card: Card, font: Font, scale: int, image_module: Any, draw_module: Any) -> Any:
    image = image_module.new("RGB", (card.width, card.height), CARD_COLOUR)
    draw = draw_module.Draw(image)
    for fill in card.fills:
        box = (fill.x, fill.y, fill.x + fill.width - 1, fill.y + fill.height - 1)
        if fill.round:
            draw.rounded_rectangle(box, radius=6 * scale, fill=fill.colour)
        else:
            draw.rectangle(box, fill=fill.colour)
    for line in card.lines:
        for run in line.runs:
            # The CJK font has one weight: bold is drawn with a hairline stroke in the same colour.
            draw.text((run.x, line.y + line.height // 2), run.text, font=font(run.size), fill=run.colour, anchor="lm",
                      stroke_width=1 if run.bold else 0, stroke_fill=run.colour)
    return image


def _corner_mask(card: Card, scale: int, image_module: Any, draw_module: Any) -> Any:
    mask = image_module.new("L", (card.width, card.height), 0)
    draw_module.Draw(mask).rounded_rectangle((0, 0, card.width - 1, card.height - 1), radius=CORNER * scale, fill=255)
    return mask
