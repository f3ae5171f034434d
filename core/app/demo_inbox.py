"""The demo's LINE inbox kept across restarts: what the simulator received, in a file in the demo folder,
and the pictures its messages show.

The simulator holds its inbox in memory only; without this a restarted demo showed an empty inbox
although the deliveries said the messages had been sent. Written whole or not at all when the demo
stops, read back when it starts; a missing or unreadable file is an empty inbox.

A message names its picture by an address on this computer (the demo's image server, or its relay),
whose port is new at every start: an address kept in the inbox led nowhere after a restart. So the
pictures themselves are kept too, in a folder beside the inbox, by their address, when the demo stops
(while the servers still answer); the inbox shows a kept picture before asking its address.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from core.addresses import is_loopback
from core.store.exports import ExportError, write_export

if TYPE_CHECKING:  # the emulator is imported when a demo starts, not by whoever imports the demo's module
    from core.emulator.records import InboxMessage

INBOX_FILE = "line-inbox.json"
IMAGES_FOLDER = "line-inbox-images"
IMAGE_TIMEOUT = 10.0  # seconds for one picture from a server on this computer

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


def image_urls(message: Any) -> list[str]:
    """Every picture address a LINE message names (an image message's two, a Flex message's image
    components), in order, once each."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "image":
                for key in ("url", "originalContentUrl", "previewImageUrl"):
                    if isinstance(node.get(key), str) and node[key] not in found:
                        found.append(node[key])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(message)
    return found


def kept_image_path(home: Path, url: str) -> Path:
    return home / IMAGES_FOLDER / hashlib.sha256(url.encode("utf-8")).hexdigest()


def kept_image(home: Path, url: str) -> bytes | None:
    """The picture kept for `url`, or None."""
    try:
        return kept_image_path(home, url).read_bytes()
    except OSError:
        return None


def fetch(url: str) -> bytes:
    """A picture from a server on this computer (the demo promises nothing leaves it); httpx's errors as they are."""
    import httpx

    if not is_loopback(urlsplit(url).hostname or ""):
        raise ValueError(f"not fetching {url}: the demo only loads images from this computer")
    response = httpx.get(url, timeout=IMAGE_TIMEOUT, trust_env=False)
    response.raise_for_status()
    return response.content


def keep_images(home: Path, items: Iterable[InboxMessage], get: Callable[[str], bytes] = fetch) -> int:
    """Keep every picture the inbox's messages show that is not kept yet; one that cannot be fetched is
    logged and left. How many it kept."""
    kept = 0
    for url in dict.fromkeys(url for item in items for url in image_urls(item.message)):
        target = kept_image_path(home, url)
        if target.exists():
            continue
        try:
            data = get(url)
            target.parent.mkdir(parents=True, exist_ok=True)
            write_export(target, functools.partial(bytes, data))
        except Exception as exc:  # noqa: BLE001 - whatever one fetch raises, the others are still kept
            log.warning("demo inbox picture %s not kept: %s", url, exc)
            continue
        kept += 1
    return kept
