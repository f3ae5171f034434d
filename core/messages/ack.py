"""The 了解 (acknowledge) button of LINE reminders and corrections, and its signed postback data.

A button's `data` is `ack:<delivery id>:<MAC>` (core/messages/signed.py), the MAC being HMAC-SHA256 over
`ack:<delivery id>` with a key made once per database and kept with the other secrets, never in the database
(core/store/ack_key.py), so a copy of the database cannot make buttons. LINE hands the data back unchanged in
the postback event, so only a button this database built can acknowledge a delivery, and nobody
can make one for another delivery by changing the number. Whether the buttons are sent at all is
the manager's choice (LINE_ACK_BUTTON, off by default): taps are seen only while the receiver runs.

Signing and reading are pure; `signer` reads the setting and the key (making the key on first use,
so it is called in a write transaction: the sender's claim, or a webhook handler). Without a keyring
to hold the key the buttons are off: messages go without one, and nothing stops sending.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from core.messages import signed
from core.store import ack_key
from core.store import setting_keys as keys
from core.store.secrets import SecretStoreError
from core.texts import t
from core.texts.message import logged

PREFIX = "ack"
LABELS = {"ja": "了解", "en": "OK"}
DEFAULT_ACCENT = "#1B7F5B"
log = logging.getLogger(__name__)
_said_off = threading.Event()  # the buttons being off for want of a keyring is logged once, not per batch


def postback_data(key: str, delivery_id: int) -> str:
    return signed.sign(key, f"{PREFIX}:{delivery_id}")


def is_ours(data: str) -> bool:
    """Data in the form of a 了解 button's (signed or not): what the handler speaks up about when forged."""
    return signed.has_prefix(data, PREFIX)


def read_postback(key: str, data: str) -> int | None:
    """The delivery id a button of ours carries, or None for data we did not sign (compared in constant time)."""
    payload = signed.verify(key, data, PREFIX)
    number = payload.partition(":")[2] if payload is not None else ""
    if not number.isascii() or not number.isdigit() or len(number) > 18:
        return None
    return int(number)


def label(language: str) -> str:
    return LABELS.get(language, LABELS["ja"])


def button(data: str, language: str, accent: str) -> dict[str, Any]:
    """A flex bubble footer with the button; tapping it shows 了解 (or OK) in the chat as the teacher's words."""
    word = label(language)
    return {"type": "box", "layout": "vertical", "contents": [
        {"type": "button", "style": "primary", "height": "sm", "color": accent,
         "action": {"type": "postback", "label": word, "data": data, "displayText": word}}]}


def with_button(message: dict[str, Any], data: str | None, language: str) -> dict[str, Any]:
    """The message with the button as its bubble's footer, in the colour of its title bar; a message
    that is not a single flex bubble, or no data (buttons off), stays as it is."""
    contents = message.get("contents")
    if data is None or message.get("type") != "flex" or not isinstance(contents, dict) or contents.get("type") != "bubble":
        return message
    header = contents.get("header")
    accent = header.get("backgroundColor") if isinstance(header, dict) else None
    return {**message, "contents": {**contents, "footer": button(data, language, accent or DEFAULT_ACCENT)}}


def signer(session: Session) -> Callable[[int], str] | None:
    """What makes a delivery's button data, or None while the buttons are off or their key cannot be
    kept (no keyring: said once in the log, and the message goes without the button)."""
    if not keys.LINE_ACK_BUTTON.read(session):
        return None
    try:
        key = ack_key.signing_key(session)
    except SecretStoreError as exc:
        if not _said_off.is_set():
            _said_off.set()
            log.warning("%s", logged(t("ack.button_off", detail=exc.text)))
        return None
    return lambda delivery_id: postback_data(key, delivery_id)
