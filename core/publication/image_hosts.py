"""Where the month's pictures are put for LINE to fetch: the image hosts, asked in order.

LINE shows an image message only from a public HTTPS address and has no upload of its own, so the
month's pages must be put somewhere first. Each such place is an `ImageHost`, registered with
`register_image_host` (which returns its undo), as channels and message kinds register: the manager's
own bucket (core/publication/hosting.py) is built in and comes first; the relay (core/relay/images.py)
registers itself when its module is imported (the front ends import it) and is set up while a relay is
attached. The sender (core/sending/kinds/shift_publication.py) takes the first host that is set up and
works; the Publish preview and the readiness check name the same one (`route`).

A host says why it cannot place the images with `hosting.HostingError`: `refused` when it will fail
the same way until the manager acts (the month then goes on the next host, or as Flex), otherwise a
failure that can pass (retried).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from sqlalchemy.orm import Session

from core.publication import hosting
from core.texts import t


@dataclass(frozen=True)
class Image:
    key: str  # its name in the manager's bucket: the same for the same publication, page and revision
    path: Path  # the file, content-addressed (core/publication/image_store.py): its name names its bytes
    content_type: str  # image/png or image/jpeg


@dataclass(frozen=True)
class Placed:
    urls: tuple[str, ...]  # one per image, in order: what the message names
    # The uploads still to do before the message may leave, on a send thread; None: already there.
    before_send: Callable[[], None] | None


class ImageHost(Protocol):
    @property
    def name(self) -> str:
        """Which route the month takes through it: "hosting", "relay"."""
        ...

    def set_up(self, session: Session) -> bool:
        """Whether the manager set it up, read without the keyring or the network."""
        ...

    def place(self, session: Session, images: Sequence[Image], *, signed_at: dt.datetime) -> Placed:
        """The address of each image, the same for every attempt of a delivery whose retry key was
        issued at `signed_at`. Raises hosting.HostingError."""
        ...


class BucketHost:
    """The manager's S3-compatible bucket (or the demo's folder): addresses known before the upload,
    which runs on the send thread."""

    name = "hosting"

    def set_up(self, session: Session) -> bool:
        return hosting.is_set_up(session)

    def place(self, session: Session, images: Sequence[Image], *, signed_at: dt.datetime) -> Placed:
        host = hosting.from_settings(session)
        if host is None:  # set up a moment ago, gone now
            raise hosting.HostingError(t("hosting.secret_missing"), refused=True)

        def upload() -> None:
            for image in images:
                host.ensure_uploaded(image.key, image.path, image.content_type)

        return Placed(tuple(host.url_for(image.key, signed_at=signed_at) for image in images), upload)


_HOSTS: list[ImageHost] = [BucketHost()]


def register_image_host(host: ImageHost) -> Callable[[], None]:
    """Ask `host` after those registered before it (replacing one with the same name in its place).
    Returns the call that puts back what was there before."""
    before = list(_HOSTS)
    same = [i for i, h in enumerate(_HOSTS) if h.name == host.name]
    if same:
        _HOSTS[same[0]] = host
    else:
        _HOSTS.append(host)

    def undo() -> None:
        _HOSTS[:] = before

    return undo


def hosts() -> tuple[ImageHost, ...]:
    return tuple(_HOSTS)


def set_up(session: Session) -> tuple[ImageHost, ...]:
    """The hosts the manager set up, in the order they are asked."""
    return tuple(h for h in _HOSTS if h.set_up(session))


def route(session: Session, *, hosting_works: bool = True) -> str | None:
    """The host the month's pages go through as things stand: the first set up, passing over the
    manager's bucket while it does not work; None: the month goes as Flex."""
    for host in set_up(session):
        if host.name == BucketHost.name and not hosting_works:
            continue
        return host.name
    return None
