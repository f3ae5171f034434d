"""The registry of message kinds: one `MessageKind` per key a delivery's `kind` column may hold.

Planning (who was told, the dry run's words), the sender (the builder for a delivery's channel) and
the screens (labels, cancel reasons) ask this registry, so a new kind is one module that calls
`register_kind` and touches none of them. A kind says what it says once (`compose`: one
channel-neutral message, core/messages/message.py), which each channel's driver renders; it
overrides a channel only for what that channel alone has. The registry sits below planning so all
of those may ask it; the kinds themselves sit above what their builders use (core/sending/kinds/) and register
themselves when imported, which every process that plans or sends does (core/sending/builders.py,
the front ends).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core.channels import build_errors
from core.channels import registry as channels
from core.outbox import policy
from core.store.kinds import DeliveryKind
from core.texts import Text, t
from core.texts.catalog import CATALOG
from core.texts.template import Template

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from core.channels.base import Outgoing
    from core.messages.message import Message
    from core.store.models import Delivery
    from core.store.paths import DataPaths

    Builder = Callable[[Session, Delivery, dt.datetime, DataPaths], Outgoing]
    Composer = Callable[[Session, Delivery, dt.datetime, DataPaths], Message]
    # Given the run's planning context (core/planning/context.py: PlanningContext; planning sits above
    # this registry, so it is named, not imported).
    Planner = Callable[..., Sequence[int]]


@dataclass(frozen=True)
class MessageKind:
    """Everything the rest of Shiftcast needs to know about one kind of message."""

    key: str  # what deliveries.kind holds (VARCHAR(32))
    label: Text  # its name in the Deliveries view and its detail
    subject: str  # the type of row it is about: deliveries.subject_type ("shift", "publication", "alert", ...)
    why: Text  # the dry run's reason for a delivery planning gave no reason of its own
    # Checks the delivery at send time (raising CancelDelivery) and says what it says, once, for every
    # channel: each channel's driver renders the message (`render`) to the address it finds.
    compose: Composer | None = None
    # Channel key → the function that checks the delivery and builds the whole request, for what that
    # channel alone has (LINE's month carousels, its time pickers): used instead of compose + render.
    overrides: Mapping[str, Builder] = field(default_factory=dict)
    # Every reason it can be canceled for (code → words): the shared ones of core/outbox/policy.py
    # (`shared_reasons`), and any of its own, which CancelDelivery then accepts too.
    cancel_reasons: Mapping[str, Text] = field(default_factory=dict)
    # Sent to a teacher about a version of a shift, it counts as telling them that version: a later
    # change gets them a correction (core/planning/told.py), and a waiting one is superseded.
    told: bool = False
    to_group: bool = False  # goes to the classroom's LINE group: counts once per member against the quota
    # Goes to one teacher: when the teacher blocks the LINE account a waiting one is canceled, and a
    # failed one is sent by e-mail for a teacher who chose LINE with e-mail fallback.
    to_teacher: bool = False
    acknowledged: bool = False  # its message carries the 了解 button on a channel with postbacks, and a tap is recorded
    # Enqueues what is due of this kind at each planning run through the run's planning context (due
    # times with quiet hours and lateness, a teacher's contacts with fallback, dedup, the dry run's
    # words); returns the ids of the deliveries it created. Kinds sent only when someone acts (a
    # publication, an alert) are enqueued there instead.
    plan: Planner | None = None
    # Catalog entries a kind from outside core brings along (code → English, Japanese templates).
    texts: Mapping[str, tuple[Template, Template]] = field(default_factory=dict)


def shared_reasons(*reasons: str) -> dict[str, Text]:
    """`cancel_reasons` for reasons core/outbox/policy.py defines, with the catalog's words for them."""
    return {str(reason): t(f"cancel.{reason}") for reason in reasons}


_KINDS: dict[str, MessageKind] = {}


def register_kind(kind: MessageKind) -> Callable[[], None]:
    """Add `kind`; returns the call that takes it out again (and its catalog entries)."""
    if kind.key in _KINDS:
        raise ValueError(f"message kind {kind.key!r} is registered already")
    if len(kind.key) > 32:
        raise ValueError(f"message kind {kind.key!r} is longer than deliveries.kind (32)")
    clashing = sorted(code for code in kind.texts if code in CATALOG)
    if clashing:
        raise ValueError(f"message kind {kind.key!r} redefines catalog texts {clashing}")
    CATALOG.update(kind.texts)
    named = [kind.label, kind.why, *kind.cancel_reasons.values()]
    if missing := sorted({text.code for text in named if text.code not in CATALOG}):
        for code in kind.texts:
            CATALOG.pop(code, None)
        raise ValueError(f"message kind {kind.key!r} names texts the catalog lacks: {missing}")
    _KINDS[kind.key] = kind
    build_errors.KIND_REASONS.update(kind.cancel_reasons.keys())

    def undo() -> None:
        if _KINDS.get(kind.key) is kind:
            del _KINDS[kind.key]
            build_errors.KIND_REASONS.subtract(kind.cancel_reasons.keys())
            for code in kind.texts:
                CATALOG.pop(code, None)

    return undo


def _builtins_loaded() -> None:
    missing = [k.value for k in DeliveryKind if k.value not in _KINDS]
    if missing:
        # Answering without them would quietly plan no corrections: fail loudly instead.
        raise LookupError(f"message kinds {missing} are not registered: import core.sending.kinds first")


def kinds() -> tuple[MessageKind, ...]:
    """Every registered kind, the built-in ones first, in the order they were registered."""
    _builtins_loaded()
    return tuple(_KINDS.values())


def kind_of(key: str) -> MessageKind | None:
    _builtins_loaded()
    return _KINDS.get(str(key))


def label(key: str) -> Text:
    """The kind's name for people; an unknown key (a row of a kind no longer registered) as it is."""
    kind = kind_of(key)
    return kind.label if kind is not None else t("text.plain", text=str(key))


def why(key: str) -> Text:
    kind = kind_of(key)
    return kind.why if kind is not None else t("text.plain", text=str(key))


def told_keys() -> tuple[str, ...]:
    """The kinds that tell a teacher a version of a shift (core/planning/told.py)."""
    return tuple(k.key for k in kinds() if k.told)


def teacher_keys() -> tuple[str, ...]:
    """The kinds that go to one teacher (`to_teacher`)."""
    return tuple(k.key for k in kinds() if k.to_teacher)


def acknowledged_keys() -> tuple[str, ...]:
    """The kinds whose messages carry the 了解 button where the channel has postbacks (`acknowledged`)."""
    return tuple(k.key for k in kinds() if k.acknowledged)


def builder(key: str, channel: str) -> Builder | None:
    """What checks and builds a delivery of this kind on this channel: the kind's override for the
    channel if it has one, else its message rendered by the channel's driver (`Rendered`), else None
    (a kind without a message of its own, or a channel not registered)."""
    kind = kind_of(key)
    if kind is None:
        return None
    found = kind.overrides.get(str(channel))
    if found is not None:
        return found
    return Rendered(kind.compose, str(channel)) if kind.compose is not None and channels.registered(channel) else None


@dataclass(frozen=True)
class Rendered:
    """A kind's message, composed and rendered by the channel's driver as registered when it is built."""

    compose: Composer
    channel: str

    def __call__(self, session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
        return channels.driver(self.channel).render(session, delivery, self.compose(session, delivery, now, paths),
                                                    paths)


def cancel_words(reason: str) -> Text | None:
    """The words a registered kind gives this cancel reason, or None (an unknown one)."""
    for kind in kinds():
        if reason in kind.cancel_reasons:
            return kind.cancel_reasons[reason]
    return None


def cancel_text(reason: str) -> Text:
    """Why a delivery was canceled, in words, with the code: a kind's own reason in its words, a
    shared one as core/outbox/policy.py says it."""
    words = cancel_words(reason)
    return policy.cancel_text(reason) if words is None else t("cancel.shown", reason=words, code=reason)
