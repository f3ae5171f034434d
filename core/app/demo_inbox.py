"""The demo's LINE inbox kept across restarts: what the simulator received, in a file in the demo folder.

The simulator holds its inbox in memory only; without this a restarted demo showed an empty inbox
although the deliveries said the messages had been sent. Written whole or not at all when the demo
stops, read back when it starts; a missing or unreadable file is an empty inbox.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from core.store.exports import ExportError, write_export

if TYPE_CHECKING:  # the emulator is imported when a demo starts, not by whoever imports the demo's module
    from core.emulator.records import InboxMessage

INBOX_FILE = "line-inbox.json"

log = logging.getLogger(__name__)


def inbox_path(home: Path) -> Path:
    return home / INBOX_FILE


def load(path: Path) -> list[InboxMessage]:
    from core.emulator.records import InboxMessage

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return [InboxMessage.from_json(item) for item in data]
    except FileNotFoundError:
        return []
    except (OSError, ValueError, TypeError, KeyError) as exc:
        log.warning("demo inbox %s not read, starting empty: %s", path, exc)
        return []


def save(path: Path, items: list[InboxMessage]) -> None:
    text = json.dumps([item.to_json() for item in items], ensure_ascii=False)
    try:
        write_export(path, lambda: text.encode("utf-8"))
    except ExportError as exc:
        log.warning("demo inbox %s not saved: %s", path, exc)
