"""The shapes LINE WORKS takes in a bot's message (its public reference, "Send messages"): what the
stand-in refuses with 400, each refusal naming the property at fault; and the content upload's request."""

from __future__ import annotations

from collections.abc import Container
from typing import Any

TEXT_MAX = 2000  # a text message
CONTENT_TEXT_MAX = 1000  # a button template's body
ACTIONS_MAX = 10  # buttons in a button template
LABEL_MAX = 20
POSTBACK_MAX = 300  # what a button hands back to the bot's callback
URI_MAX = 1000
# Button templates take message, URI and copy actions; postback actions belong to carousels and menus.
BUTTON_ACTIONS = frozenset({"message", "uri", "copy"})


class Invalid(Exception):
    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where}: {what}")
        self.where = where


def _string(value: Any, where: str, limit: int) -> str:
    if not isinstance(value, str) or not value:
        raise Invalid(where, "required, a non-empty string")
    if len(value) > limit:
        raise Invalid(where, f"longer than {limit} characters")
    return value


def check_message(body: Any, files: Container[str] = frozenset()) -> dict[str, Any]:
    """The message's content, or Invalid. `files`: the file IDs an image message may name (uploaded,
    not lapsed)."""
    if not isinstance(body, dict) or not isinstance(body.get("content"), dict):
        raise Invalid("content", "required, an object")
    content: dict[str, Any] = body["content"]
    kind = content.get("type")
    if kind == "text":
        _string(content.get("text"), "content.text", TEXT_MAX)
    elif kind == "button_template":
        _string(content.get("contentText"), "content.contentText", CONTENT_TEXT_MAX)
        actions = content.get("actions")
        if not isinstance(actions, list) or not actions:
            raise Invalid("content.actions", "required, at least one action")
        if len(actions) > ACTIONS_MAX:
            raise Invalid("content.actions", f"more than {ACTIONS_MAX} actions")
        for n, action in enumerate(actions):
            _check_action(action, f"content.actions[{n}]")
    elif kind == "image":
        _check_image(content, files)
    else:
        raise Invalid("content.type", f"not a message type this stand-in knows: {kind!r}")
    return content


def _check_image(content: dict[str, Any], files: Container[str]) -> None:
    """A file ID from the content upload, or the preview's and the original's HTTPS addresses; not both."""
    by_url = [key for key in ("previewImageUrl", "originalContentUrl") if key in content]
    if "fileId" in content:
        if by_url:
            raise Invalid("content", "fileId or previewImageUrl and originalContentUrl, not both")
        file_id = _string(content["fileId"], "content.fileId", URI_MAX)
        if file_id not in files:
            raise Invalid("content.fileId", "not a file this bot uploaded, or it has lapsed")
        return
    if not by_url:
        raise Invalid("content", "fileId, or previewImageUrl and originalContentUrl, required")
    for key in ("previewImageUrl", "originalContentUrl"):
        uri = _string(content.get(key), f"content.{key}", URI_MAX)
        if not uri.startswith("https://"):
            raise Invalid(f"content.{key}", "an https address")


def _check_action(action: Any, where: str) -> None:
    if not isinstance(action, dict):
        raise Invalid(where, "an object")
    kind = action.get("type")
    if kind not in BUTTON_ACTIONS:
        raise Invalid(f"{where}.type", f"a button template takes {sorted(BUTTON_ACTIONS)}, not {kind!r}")
    _string(action.get("label"), f"{where}.label", LABEL_MAX)
    if kind == "message":
        if "postback" in action:
            _string(action["postback"], f"{where}.postback", POSTBACK_MAX)
        if "text" in action:
            _string(action["text"], f"{where}.text", POSTBACK_MAX)
    elif kind == "uri":
        uri = _string(action.get("uri"), f"{where}.uri", URI_MAX)
        if not uri.startswith(("https://", "http://")):
            raise Invalid(f"{where}.uri", "an http or https address")
    else:
        _string(action.get("copyText"), f"{where}.copyText", TEXT_MAX)


FILE_NAME_MAX = 200  # the stand-in's own bound; LINE WORKS publishes none


def check_attachment(body: Any) -> str:
    """The file name of a content upload request ({"fileName": …}), or Invalid."""
    if not isinstance(body, dict):
        raise Invalid("body", "required, an object")
    name = _string(body.get("fileName"), "fileName", FILE_NAME_MAX)
    if "/" in name or "\\" in name:
        raise Invalid("fileName", "a file's name, not a path")
    return name
