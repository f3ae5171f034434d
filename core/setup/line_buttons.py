"""Settings → LINE's two switches for the reminders' buttons: 了解 (acknowledge) and "Ask for cover".
Each read and each switch is a transaction of its own; a switch that cannot be made (no keyring for the
buttons' key) raises SecretStoreError and leaves the button as it was."""

from __future__ import annotations

from dataclasses import dataclass

from core.receiving import acknowledge, cover
from core.store import ack_key
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.secrets import SecretStoreError
from core.texts import t


@dataclass(frozen=True)
class AckButton:
    on: bool  # as stored
    problem: SecretStoreError | None = None  # why the buttons are off after all: no keyring to read their key from


def ack_button(db: Database) -> AckButton:
    with db.read() as session:
        on = keys.LINE_ACK_BUTTON.read(session)
        try:
            if on:
                ack_key.held_key(session)
        except SecretStoreError as exc:
            return AckButton(on, SecretStoreError(t("ack.button_off", detail=exc.text)))
    return AckButton(on)


def cover_button(db: Database) -> bool:
    with db.read() as session:
        return keys.LINE_COVER_BUTTON.read(session)


def switch_ack(db: Database, on: bool) -> None:
    with db.write() as session:
        acknowledge.enable(session, on)


def switch_cover(db: Database, on: bool) -> None:
    with db.write() as session:
        cover.enable(session, on)
