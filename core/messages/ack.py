"""The 了解 (acknowledge) button of LINE reminders and corrections, and its signed postback data.

A button's `data` is `ack:<delivery id>:<MAC>`, the MAC being HMAC-SHA256 over `ack:<delivery id>`
with a key made once per database and kept with the other secrets, never in the database
(core/store/ack_key.py), so a copy of the database cannot make buttons. LINE hands the data back unchanged in
the postback event, so only a button this database built can acknowledge a delivery, and nobody
can make one for another delivery by changing the number. Whether the buttons are sent at all is
the manager's choice (LINE_ACK_BUTTON, off by default): taps are seen only while the receiver runs.

Signing and reading are pure; `signer` reads the setting and the key (making the key on first use,
so it is called in a write transaction: the sender's claim, or a webhook handler). Without a keyring
to hold the key the buttons are off: messages go without one, and nothing stops sending.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

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


def mac(key: str, payload: str) -> str:
    """The MAC of a button's payload: every signed button of Shiftcast (了解, the cover buttons) uses it."""
    digest = hmac.new(key.encode("utf-8"), payload.encode("ascii"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def mac_matches(key: str, payload: str, given: str) -> bool:
    """`given` is the MAC of `payload` (compared in constant time)."""
    return hmac.compare_digest(mac(key, payload).encode(), given.encode("utf-8", "replace"))


def _mac(key: str, delivery_id: int) -> str:
    return mac(key, f"{PREFIX}:{delivery_id}")


def postback_data(key: str, delivery_id: int) -> str:
    return f"{PREFIX}:{delivery_id}:{_mac(key, delivery_id)}"


def read_postback(key: str, data: str) -> int | None:
    """The delivery id a button of ours carries, or None for data we did not sign (compared in constant time)."""
    prefix, _, rest = data.partition(":")
    number, _, given = rest.partition(":")
    if prefix != PREFIX or not number.isascii() or not number.isdigit() or len(number) > 18 or not given:
        return None
    delivery_id = int(number)
    return delivery_id if mac_matches(key, f"{PREFIX}:{delivery_id}", given) else None


def label(language: str) -> str:
    return LABELS.get(language, LABELS["ja"])


@dataclass(frozen=True, slots=True)
class Button:
    """A postback button of a message's footer: its words (shown in the chat as the teacher's when tapped)
    and its signed data; the first button of a footer is the filled one."""

    label: str
    data: str


def button(data: str, language: str, accent: str) -> dict[str, Any]:
    """A flex bubble footer with the button; tapping it shows 了解 (or OK) in the chat as the teacher's words."""
    return footer([Button(label(language), data)], accent)


def footer(buttons: Sequence[Button], accent: str) -> dict[str, Any]:
    return footer_of([postback(b.label, b.data) for b in buttons], accent)


def postback(label: str, data: str) -> dict[str, Any]:
    """A button's postback action; tapping it shows its words in the chat as the reader's."""
    return {"type": "postback", "label": label, "data": data, "displayText": label}


def footer_of(actions: Sequence[dict[str, Any]], accent: str) -> dict[str, Any]:
    """A bubble's footer of buttons, one per action, the first filled in the accent."""
    return {"type": "box", "layout": "vertical", **({"spacing": "sm"} if len(actions) > 1 else {}), "contents": [
        {"type": "button", "style": "primary" if n == 0 else "secondary", "height": "sm",
         **({"color": accent} if n == 0 else {}), "action": action}
        for n, action in enumerate(actions)]}


def with_buttons(message: dict[str, Any], buttons: Sequence[Button]) -> dict[str, Any]:
    """The message with the buttons as its bubble's footer, the first in the colour of its title bar; a
    message that is not a single flex bubble, or no buttons (off), stays as it is."""
    contents = message.get("contents")
    if not buttons or message.get("type") != "flex" or not isinstance(contents, dict) or contents.get("type") != "bubble":
        return message
    header = contents.get("header")
    accent = header.get("backgroundColor") if isinstance(header, dict) else None
    return {**message, "contents": {**contents, "footer": footer(buttons, accent or DEFAULT_ACCENT)}}


def with_button(message: dict[str, Any], data: str | None, language: str) -> dict[str, Any]:
    """The message with the 了解 button as its footer (as it is, without data: buttons off)."""
    return message if data is None else with_buttons(message, [Button(label(language), data)])


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
