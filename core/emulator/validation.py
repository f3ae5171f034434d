"""LINE's request-body checks for push, multicast, reply and validate/push.

Each check appends (property, message) pairs with LINE's property paths (`to`, `messages[0].text`,
`messages[1].contents.body.contents[2].action.uri`), so the client's error display can be tested
against the same shape LINE answers with. Only text, image and flex are checked in depth, because those
are what Shiftcast sends; the other LINE message types are checked for their required fields only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, TypeGuard
from urllib.parse import urlsplit

Problem = tuple[str, str]  # (property, message)

PUSH_TARGET = re.compile(r"[UCR][0-9a-f]{32}")
USER_ID = re.compile(r"U[0-9a-f]{32}")
GROUP_ID = re.compile(r"C[0-9a-f]{32}")

MAX_MESSAGES = 5
MAX_MULTICAST = 500
TEXT_MAX = 5000
ALT_TEXT_MAX = 1500
URL_MAX = 2000
URI_ACTION_MAX = 1000
URI_SCHEMES = frozenset({"http", "https", "line", "tel"})
POSTBACK_DATA_MAX = 300  # PostbackAction.data in the spec; LINE's reference also caps displayText at 300
POSTBACK_DISPLAY_MAX = 300
# LINE states "30 KB" and "50 KB"; read as KiB so a client that checks 30,000 bytes is never refused.
BUBBLE_MAX_BYTES = 30 * 1024
CAROUSEL_MAX_BYTES = 50 * 1024
CAROUSEL_MAX_BUBBLES = 12
# LINE states no length for a Flex text of its own: the container's size bounds it.
FLEX_TEXT_MAX = CAROUSEL_MAX_BYTES

# Every type in the spec's Message discriminator; unchecked ones need only their required fields.
_REQUIRED_ONLY: dict[str, tuple[str, ...]] = {
    "textV2": ("text",),
    "sticker": ("packageId", "stickerId"),
    "video": ("originalContentUrl", "previewImageUrl"),
    "audio": ("originalContentUrl", "duration"),
    "location": ("title", "address", "latitude", "longitude"),
    "imagemap": ("baseUrl", "altText", "baseSize", "actions"),
    "template": ("altText", "template"),
    "coupon": ("couponId",),
}
MESSAGE_TYPES = ("text", "image", "flex", *_REQUIRED_ONLY)
_TYPE_LIST = f"Must be one of the following values: [{', '.join(MESSAGE_TYPES)}]"

MISSING = "must be specified"


def check_push(body: dict[str, Any], *, loopback_media: bool = False) -> list[Problem]:
    problems: list[Problem] = []
    to = body.get("to")
    if to is None:
        problems.append(("to", MISSING))
    elif not isinstance(to, str) or PUSH_TARGET.fullmatch(to) is None:
        problems.append(("to", "must be a user ID (U…), group ID (C…) or room ID (R…)"))
    _check_messages(body, problems, loopback_media)
    _check_notification_flag(body, problems)
    return problems


def check_multicast(body: dict[str, Any], *, loopback_media: bool = False) -> list[Problem]:
    problems: list[Problem] = []
    to = body.get("to")
    if to is None:
        problems.append(("to", MISSING))
    elif not isinstance(to, list):
        problems.append(("to", "must be an array"))
    elif not 1 <= len(to) <= MAX_MULTICAST:
        problems.append(("to", f"Size must be between 1 and {MAX_MULTICAST}"))
    else:
        for i, user in enumerate(to):
            if not isinstance(user, str) or USER_ID.fullmatch(user) is None:
                problems.append((f"to[{i}]", "must be a user ID (U…); groups and rooms cannot be multicast to"))
    _check_messages(body, problems, loopback_media)
    _check_notification_flag(body, problems)
    return problems


def check_reply(body: dict[str, Any], *, loopback_media: bool = False) -> list[Problem]:
    problems: list[Problem] = []
    token = body.get("replyToken")
    if token is None:
        problems.append(("replyToken", MISSING))
    elif not isinstance(token, str) or not token:
        problems.append(("replyToken", "must be a non-empty string"))
    _check_messages(body, problems, loopback_media)
    _check_notification_flag(body, problems)
    return problems


def check_validate(body: dict[str, Any], *, loopback_media: bool = False) -> list[Problem]:
    problems: list[Problem] = []
    _check_messages(body, problems, loopback_media)
    return problems


def _check_notification_flag(body: dict[str, Any], problems: list[Problem]) -> None:
    flag = body.get("notificationDisabled")
    if flag is not None and not isinstance(flag, bool):
        problems.append(("notificationDisabled", "must be a boolean"))


def _check_messages(body: dict[str, Any], problems: list[Problem], loopback_media: bool = False) -> None:
    messages = body.get("messages")
    if messages is None:
        problems.append(("messages", MISSING))
        return
    if not isinstance(messages, list):
        problems.append(("messages", "must be an array"))
        return
    if not 1 <= len(messages) <= MAX_MESSAGES:
        problems.append(("messages", f"Size must be between 1 and {MAX_MESSAGES}"))
        return
    for i, message in enumerate(messages):
        where = f"messages[{i}]"
        if not isinstance(message, dict):
            problems.append((where, "must be an object"))
            continue
        kind = message.get("type")
        if kind is None:
            problems.append((f"{where}.type", MISSING))
        elif kind == "text":
            _check_text(message, where, problems)
        elif kind == "image":
            _check_image(message, where, problems, loopback_media)
        elif kind == "flex":
            _check_flex(message, where, problems, loopback_media)
        elif isinstance(kind, str) and kind in _REQUIRED_ONLY:
            for name in _REQUIRED_ONLY[kind]:
                if message.get(name) is None:
                    problems.append((f"{where}.{name}", MISSING))
        else:
            problems.append((f"{where}.type", _TYPE_LIST))
        _check_postback_actions(message, where, problems)


def _check_text(message: dict[str, Any], where: str, problems: list[Problem]) -> None:
    # Counted in code points (Python's len). If LINE counts UTF-16 units, a text full of emoji near the
    # limit passes here and fails there; erring this way never fails a test for a message LINE takes.
    _check_string(message.get("text"), f"{where}.text", 1, TEXT_MAX, problems)
    quote = message.get("quoteToken")
    if quote is not None and not isinstance(quote, str):
        problems.append((f"{where}.quoteToken", "must be a string"))


def _check_image(message: dict[str, Any], where: str, problems: list[Problem], loopback_media: bool = False) -> None:
    for name in ("originalContentUrl", "previewImageUrl"):
        prop = f"{where}.{name}"
        url = message.get(name)
        if _check_string(url, prop, 1, URL_MAX, problems) and not _is_https_url(url, loopback_media):
            problems.append((prop, "must be a valid HTTPS URL"))


def _check_flex(message: dict[str, Any], where: str, problems: list[Problem], loopback_media: bool = False) -> None:
    _check_string(message.get("altText"), f"{where}.altText", 1, ALT_TEXT_MAX, problems)
    prop = f"{where}.contents"
    contents = message.get("contents")
    if contents is None:
        problems.append((prop, MISSING))
        return
    kind = contents.get("type") if isinstance(contents, dict) else None
    if kind == "bubble":
        _check_size(contents, BUBBLE_MAX_BYTES, prop, problems)
    elif kind == "carousel":
        _check_carousel(contents, prop, problems)
    else:
        problems.append((prop, "must be a flex container of type bubble or carousel"))
        return
    _check_uri_actions(contents, prop, problems)
    _check_flex_images(contents, prop, problems, loopback_media)
    _check_flex_texts(contents, prop, problems)


def _check_flex_images(root: dict[str, Any], prop: str, problems: list[Problem], loopback_media: bool) -> None:
    """Image components (hero images among them) load from a public HTTPS URL, like image messages."""
    for node, path in _flex_nodes(root, prop):
        if node.get("type") == "image" and "url" in node:
            url = node.get("url")
            if _check_string(url, f"{path}.url", 1, URL_MAX, problems) and not _is_https_url(url, loopback_media):
                problems.append((f"{path}.url", "must be a valid HTTPS URL"))


def _check_flex_texts(root: dict[str, Any], prop: str, problems: list[Problem]) -> None:
    """A text component says something: its `text`, or (which LINE then shows instead) its spans,
    each with a text of its own."""
    for node, path in _flex_nodes(root, prop):
        if node.get("type") != "text":
            continue
        spans = node.get("contents")
        if spans is None:
            _check_string(node.get("text"), f"{path}.text", 1, FLEX_TEXT_MAX, problems)
        elif not isinstance(spans, list) or not spans:
            problems.append((f"{path}.contents", "must be a non-empty array of spans"))
        else:
            for i, span in enumerate(spans):
                if not isinstance(span, dict) or span.get("type") != "span":
                    problems.append((f"{path}.contents[{i}]", "must be a span"))
                else:
                    _check_string(span.get("text"), f"{path}.contents[{i}].text", 1, FLEX_TEXT_MAX, problems)


def _flex_nodes(root: dict[str, Any], prop: str) -> Iterator[tuple[dict[str, Any], str]]:
    """Every object in a Flex container with its property path; iterative, so deep JSON cannot
    exhaust the stack."""
    stack: list[tuple[Any, str]] = [(root, prop)]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            yield node, path
            stack.extend((child, f"{path}.{key}") for key, child in node.items() if isinstance(child, dict | list))
        elif isinstance(node, list):
            stack.extend((child, f"{path}[{i}]") for i, child in enumerate(node) if isinstance(child, dict | list))


def _check_carousel(carousel: dict[str, Any], prop: str, problems: list[Problem]) -> None:
    bubbles = carousel.get("contents")
    if not isinstance(bubbles, list):
        problems.append((f"{prop}.contents", MISSING if bubbles is None else "must be an array"))
        return
    if not 1 <= len(bubbles) <= CAROUSEL_MAX_BUBBLES:
        problems.append((f"{prop}.contents", f"Size must be between 1 and {CAROUSEL_MAX_BUBBLES}"))
    for i, bubble in enumerate(bubbles):
        if not isinstance(bubble, dict) or bubble.get("type") != "bubble":
            problems.append((f"{prop}.contents[{i}]", "must be a flex bubble"))
        else:
            _check_size(bubble, BUBBLE_MAX_BYTES, f"{prop}.contents[{i}]", problems)
    _check_size(carousel, CAROUSEL_MAX_BYTES, prop, problems)


def _check_size(container: dict[str, Any], limit: int, prop: str, problems: list[Problem]) -> None:
    size = compact_json_size(container)
    if size > limit:
        problems.append((prop, f"Size of the JSON must be at most {limit} bytes (is {size})"))


def compact_json_size(value: Any) -> int:
    """Bytes of the UTF-8 JSON without spaces: the size LINE's flex limits are measured on."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _check_uri_actions(root: dict[str, Any], prop: str, problems: list[Problem]) -> None:
    # Flex components carry their own "type" (box, text, button …) but none is "uri", so any object
    # typed "uri" is a URI action wherever it sits. Iterative, so deep JSON cannot exhaust the stack.
    stack: list[tuple[Any, str]] = [(root, prop)]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            if node.get("type") == "uri":
                _check_uri(node.get("uri"), f"{path}.uri", problems)
            for key, child in node.items():
                if isinstance(child, dict | list):
                    stack.append((child, f"{path}.{key}"))
        elif isinstance(node, list):
            for i, child in enumerate(node):
                if isinstance(child, dict | list):
                    stack.append((child, f"{path}[{i}]"))


def _check_postback_actions(root: dict[str, Any], prop: str, problems: list[Problem]) -> None:
    """Postback actions wherever they sit (flex buttons, quick replies, templates): `data` is required
    (LINE's reference) and at most 300 characters, `displayText` and `label` are strings. Datetime
    picker actions likewise carry data, and a mode whose form their initial, max and min follow."""
    stack: list[tuple[Any, str]] = [(root, prop)]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            if node.get("type") == "datetimepicker":
                _check_datetimepicker(node, path, problems)
            if node.get("type") == "postback":
                _check_string(node.get("data"), f"{path}.data", 1, POSTBACK_DATA_MAX, problems)
                for name, high in (("displayText", POSTBACK_DISPLAY_MAX), ("label", 40)):
                    if name in node:
                        _check_string(node.get(name), f"{path}.{name}", 1, high, problems)
            stack.extend((child, f"{path}.{key}") for key, child in node.items() if isinstance(child, dict | list))
        elif isinstance(node, list):
            stack.extend((child, f"{path}[{i}]") for i, child in enumerate(node) if isinstance(child, dict | list))


# LINE's reference: date "2017-12-25", time "13:00", datetime "2017-12-25T01:00" (or "t"), 24-hour.
_PICKER_FORMS = {
    "date": re.compile(r"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$"),
    "time": re.compile(r"^([01]\d|2[0-3]):[0-5]\d$"),
    "datetime": re.compile(r"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d$"),
}


def _check_datetimepicker(node: dict[str, Any], path: str, problems: list[Problem]) -> None:
    _check_string(node.get("data"), f"{path}.data", 1, POSTBACK_DATA_MAX, problems)
    if "label" in node:
        _check_string(node.get("label"), f"{path}.label", 1, 40, problems)
    mode = node.get("mode")
    form = _PICKER_FORMS.get(mode) if isinstance(mode, str) else None
    if form is None:
        problems.append((f"{path}.mode", MISSING if mode is None else "must be one of date, time, datetime"))
        return
    given = {name: node[name] for name in ("initial", "max", "min") if name in node}
    for name, value in given.items():
        if not isinstance(value, str) or not form.match(value):
            problems.append((f"{path}.{name}", f"must be a {mode} in LINE's format"))
            return
    low, high, initial = (str(given[n]).lower() if n in given else None for n in ("min", "max", "initial"))
    if low is not None and high is not None and low > high:
        problems.append((f"{path}.min", "must not be after max"))
    elif initial is not None and ((low is not None and initial < low) or (high is not None and initial > high)):
        problems.append((f"{path}.initial", "must be between min and max"))


def _check_uri(uri: Any, prop: str, problems: list[Problem]) -> None:
    if not _check_string(uri, prop, 1, URI_ACTION_MAX, problems):
        return
    scheme, sep, rest = uri.partition(":")
    if not sep or not rest or scheme.lower() not in URI_SCHEMES:
        problems.append((prop, "must be a URI with scheme http, https, line or tel"))


def _check_string(value: Any, prop: str, low: int, high: int, problems: list[Problem]) -> TypeGuard[str]:
    """True when value is a string of acceptable length (so deeper checks make sense)."""
    if value is None:
        problems.append((prop, MISSING))
    elif not isinstance(value, str):
        problems.append((prop, "must be a string"))
    elif not value:
        problems.append((prop, "may not be empty"))
    elif not low <= len(value) <= high:
        problems.append((prop, f"Length must be between {low} and {high}"))
    else:
        return True
    return False


def _is_https_url(url: str, loopback_media: bool = False) -> bool:
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    if loopback_media and parts.scheme.lower() == "http" and parts.hostname in ("127.0.0.1", "localhost", "::1"):
        return True  # a deliberate deviation, off by default: local image hosting for tests and the demo
    return parts.scheme.lower() == "https" and bool(parts.hostname)
