"""The cover (代講) buttons and messages teachers see on LINE, and the buttons' signed postback data.

A cover button's `data` is `cv:<action>:<number>:<MAC>`, signed as the 了解 button's (core/messages/ack.py:
HMAC-SHA256 with the same key, kept in the keyring, core/store/ack_key.py) over `cv:<action>:<number>`:
- `ask` + a reminder's delivery id: "Ask for cover" on a shift reminder (LINE_COVER_BUTTON);
- `pick` + a shift id: the choice offered to a teacher who asked by text for a day with several shifts;
- `call` + the call's delivery id: "I can cover" on a call for cover, so a tap counts only from the
  teacher the call went to (or from inside the group it went to), as the 了解 button counts only from its
  reminder's teacher;
- `take` + a cover request id: the "I can cover" of calls sent before `call`, which counts only from a
  teacher who was called for that request (to them or in their group).
The `cv:` prefix keeps them apart from the 了解 button's `ack:` (and from other features' postbacks):
each handler reads only its own prefix and passes over the rest without a word.

Every word here is a catalog text rendered in the classroom's language.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session

from core.messages import ack, texts
from core.store import ack_key
from core.store import setting_keys as keys
from core.store.secrets import SecretStoreError
from core.texts import t
from core.texts.formats import Language
from core.texts.message import render

PREFIX = "cv"
ASK, PICK, CALL, TAKE = "ask", "pick", "call", "take"
ACTIONS = frozenset({ASK, PICK, CALL, TAKE})
CALL_ACCENT = "#C8641E"
Signer = Callable[[str, int], str]


def language_of(language: str) -> Language:
    return "en" if language == "en" else "ja"


def postback_data(key: str, action: str, number: int) -> str:
    payload = f"{PREFIX}:{action}:{number}"
    return f"{payload}:{ack.mac(key, payload)}"


def is_cover_data(data: str) -> bool:
    return data.startswith(PREFIX + ":")


def read_postback(key: str, data: str) -> tuple[str, int] | None:
    """The action and number a cover button of ours carries, or None for data we did not sign."""
    parts = data.split(":")
    if len(parts) != 4 or parts[0] != PREFIX or parts[1] not in ACTIONS:
        return None
    _, action, number, given = parts
    if not number.isascii() or not number.isdigit() or len(number) > 18 or not given:
        return None
    return (action, int(number)) if ack.mac_matches(key, f"{PREFIX}:{action}:{int(number)}", given) else None


def signer(session: Session) -> Signer | None:
    """What signs cover buttons, or None when no keyring can keep the key (the buttons then go without)."""
    try:
        key = ack_key.signing_key(session)
    except SecretStoreError:
        return None
    return lambda action, number: postback_data(key, action, number)


def ask_signer(session: Session) -> Signer | None:
    """What signs the reminders' "Ask for cover" button, or None while the manager has it off."""
    return signer(session) if keys.LINE_COVER_BUTTON.read(session) else None


def ask_button(sign: Signer, delivery_id: int, language: str) -> ack.Button:
    return ack.Button(render(t("cover.button.ask"), language_of(language)), sign(ASK, delivery_id))


def pick_button(sign: Signer, shift_id: int, facts: texts.ShiftFacts, language: str) -> ack.Button:
    return ack.Button(texts.when(facts, language)[:20], sign(PICK, shift_id))


def call(facts: texts.ShiftFacts, teacher: str, reason: str, sign: Signer, delivery_id: int,
         language: str, *, button: bool = True) -> tuple[str, ack.Button]:
    """The call for cover: the shift and who asked, and the "I can cover" button, bound to this call's
    delivery. `button` False: a channel whose tap does not come back (e-mail) asks to tell the manager."""
    lang = language_of(language)
    text = render(t("cover.call.text" if button else "cover.call.text_tell", classroom=facts.classroom,
                    when=texts.when(facts, lang), teacher=teacher, reason=reason or "-"), lang)
    return text, ack.Button(render(t("cover.button.take"), lang), sign(CALL, delivery_id))


def assigned_text(facts: texts.ShiftFacts, language: str) -> str:
    """To the teacher the manager chose: the shift is now theirs (its reminder follows as usual)."""
    lang = language_of(language)
    return render(t("cover.assigned.text", classroom=facts.classroom, when=texts.when(facts, lang)), lang)


def declined_text(facts: texts.ShiftFacts, reason: str | None, language: str) -> str:
    """To the teacher who asked: the manager declined, so the shift stays theirs; the manager's reason
    on a line of its own when one was given. The same text goes on LINE and by e-mail."""
    lang = language_of(language)
    text = render(t("cover.declined.text", classroom=facts.classroom, when=texts.when(facts, lang)), lang)
    return text + "\n" + render(t("cover.declined.reason", reason=reason), lang) if reason else text


def choose_message(buttons: list[ack.Button], language: str) -> dict[str, object]:
    """The reply to a teacher who asked by text for a day with several shifts: one button a shift."""
    return ack.with_buttons(texts.flex_message(render(t("cover.reply.choose"), language_of(language))), buttons)


def reply_text(code: str, language: str, **params: str) -> str:
    return render(t(code, **params), language_of(language))
