"""The relay as an image host (core/publication/image_hosts.py): while a relay is attached, the month's
pages go to it (PUT /api/images/{name}) and LINE fetches them from its /i/… addresses, so a classroom
needs no bucket of its own to send the month as pictures.

The relay answers an image's address only when it has the bytes, so the images are put when the
message is built, and the addresses are remembered in the settings (`relay.images`: the relay's address
and, per image, its path and when it was put). An image is named by its content (the image store's
file name, core/publication/image_store.py), and the relay keeps the address of the same bytes under
the same name, so every attempt of a delivery names the same addresses: a retry repeats its request
byte for byte, as LINE's retry key requires. A remembered address is used without a call while the
relay surely still holds it (6 of its 7 days); after that the image is put again, which keeps the
address and the relay's 7 days start over.

A refusal (a 4xx: a wrong key, an image too large) will not pass by itself: the month goes on without
the relay (as Flex, the attempt recorded with why). No answer, a timeout or a 5xx is retried.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Sequence

from sqlalchemy.orm import Session

from core.publication import hosting
from core.publication.image_hosts import Image, Placed, register_image_host
from core.store import secrets
from core.store import setting_keys as keys
from core.texts import t

NAME = "relay"
KEPT = dt.timedelta(days=6)  # the relay keeps an image 7 days after it was last put; a day to spare


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class RelayImages:
    name = NAME

    def __init__(self, clock: Callable[[], dt.datetime] = _utc_now) -> None:
        self._clock = clock

    def set_up(self, session: Session) -> bool:
        return keys.RELAY_URL.read(session) is not None

    def place(self, session: Session, images: Sequence[Image], *, signed_at: dt.datetime) -> Placed:
        from core.relay import settings
        from core.relay.client import RelayClient, RelayError

        url = keys.RELAY_URL.read(session)
        if url is None:
            raise hosting.HostingError(t("relay.image_refused", detail=t("relay.not_attached")), refused=True)
        now = self._clock()
        held = remembered(session, url, now=now)
        missing = [image for image in images if image.path.name not in held]
        if missing:
            try:
                key = settings.relay_key()
            except secrets.SecretStoreError as exc:
                raise hosting.HostingError(t("relay.image_refused", detail=exc.text), refused=True) from exc
            if not key:
                raise hosting.HostingError(t("relay.image_refused", detail=t("relay.no_key")), refused=True)
            try:
                with RelayClient(url, key) as relay:
                    for image in missing:
                        answer = relay.put_image(image.path.name, image.path.read_bytes(), image.content_type)
                        held[image.path.name] = (str(answer["path"]), now)
            except RelayError as exc:
                refused = exc.status is not None and 400 <= exc.status < 500 and exc.status != 429
                raise hosting.HostingError(t("relay.image_refused", detail=exc.text), refused=refused) from exc
            remember(session, url, held)
        base = url.rstrip("/")
        return Placed(tuple(base + held[image.path.name][0] for image in images), None)


def remembered(session: Session, url: str, *, now: dt.datetime) -> dict[str, tuple[str, dt.datetime]]:
    """The images the relay at `url` surely still holds: name → (its path, when it was put)."""
    text = keys.RELAY_IMAGES.read(session)
    try:
        found = json.loads(text) if text else {}
    except ValueError:
        return {}
    if not isinstance(found, dict) or found.get("url") != url or not isinstance(found.get("images"), dict):
        return {}
    held: dict[str, tuple[str, dt.datetime]] = {}
    for name, entry in found["images"].items():
        try:
            path, at = str(entry[0]), dt.datetime.fromisoformat(entry[1])
        except (TypeError, ValueError, IndexError, KeyError):
            continue
        if now - at < KEPT:
            held[str(name)] = (path, at)
    return held


def remember(session: Session, url: str, held: dict[str, tuple[str, dt.datetime]]) -> None:
    """Only what is still held is written back, so the setting stays a few months' pages long."""
    images = {name: [path, at.astimezone(dt.UTC).isoformat()] for name, (path, at) in sorted(held.items())}
    keys.RELAY_IMAGES.write(session, json.dumps({"url": url, "images": images}, separators=(",", ":")))


HOST = RelayImages()
register_image_host(HOST)
