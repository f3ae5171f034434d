"""Image hosting on an S3-compatible bucket (Cloudflare R2, AWS S3, MinIO …).

LINE only shows images from public HTTPS URLs and has no upload endpoint, so the sender uploads a
publication's original and preview before it sends the message. Uploads are idempotent: the same
publication always uses the same keys, and an object already there with the right size is kept.
Links are either presigned (expiring) or under a public base URL the manager configured.

A failure says whether it can pass by itself (`HostingError.refused` False: a 5xx, a dropped
connection, retried like any other) or not (True: the secret is missing, the keyring cannot be
read, the bucket refuses the credentials), so the sender can send the month without images rather
than retry what will fail the same way.
"""

from __future__ import annotations

import datetime as dt
import io
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

from sqlalchemy.orm import Session

from core.addresses import secure_or_local
from core.errors import ShiftcastError
from core.store import secrets
from core.store import setting_keys as keys
from core.texts import Text, t

SECRET_NAME = "hosting-secret-access-key"
SECRET_ENV = "SHIFTCAST_HOSTING_SECRET"
MAX_PRESIGN = dt.timedelta(days=7)  # the longest a SigV4 presigned URL may live


class HostingError(ShiftcastError):
    def __init__(self, message: Text | str = "", /, *, refused: bool = False) -> None:
        super().__init__(message)
        self.refused = refused  # cannot work until the manager changes something


# What S3-compatible servers answer when the credentials are wrong or barred, whatever the object:
# retrying with the same credentials gets the same answer.
_REFUSALS = frozenset({"AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "AllAccessDisabled",
                       "AccountProblem", "InvalidToken", "ExpiredToken"})


def _refused(exc: Exception) -> bool:
    """Does this answer refuse our credentials, as opposed to failing this once?"""
    from minio.error import InvalidResponseError, S3Error

    if isinstance(exc, S3Error):
        return exc.code in _REFUSALS or exc.response.status in (401, 403)
    if isinstance(exc, InvalidResponseError):  # a refusal without S3's XML (a proxy in front of the bucket)
        return getattr(exc, "_code", None) in (401, 403)
    return False


@dataclass(frozen=True)
class HostingConfig:
    endpoint: str
    bucket: str
    region: str
    access_key_id: str
    secret_access_key: str
    public_base_url: str | None = None
    presign_for: dt.timedelta = MAX_PRESIGN


def config_from_settings(session: Session) -> HostingConfig | None:
    endpoint = keys.HOSTING_ENDPOINT.read(session)
    bucket = keys.HOSTING_BUCKET.read(session)
    key_id = keys.HOSTING_ACCESS_KEY_ID.read(session)
    if not (endpoint and bucket and key_id):
        return None
    try:
        secret = os.environ.get(SECRET_ENV, "").strip() or secrets.get_secret(SECRET_NAME, env=SECRET_ENV)
    except secrets.SecretStoreError as exc:
        raise HostingError(t("hosting.keyring", detail=exc.text), refused=True) from exc
    if not secret:
        raise HostingError(t("hosting.secret_missing"), refused=True)
    days = keys.HOSTING_PRESIGN_DAYS.read(session) or MAX_PRESIGN.days
    return HostingConfig(endpoint, bucket, keys.HOSTING_REGION.read(session) or "auto", key_id, secret,
                         keys.HOSTING_PUBLIC_BASE_URL.read(session),
                         min(dt.timedelta(days=days), MAX_PRESIGN))


class Hosting:
    def __init__(self, config: HostingConfig) -> None:
        from minio import Minio

        parts = urlsplit(config.endpoint)
        secure = parts.scheme == "https"
        if not secure_or_local(config.endpoint):
            raise HostingError(t("hosting.insecure", address=config.endpoint), refused=True)
        self.config = config
        self._client = Minio(parts.netloc, access_key=config.access_key_id, secret_key=config.secret_access_key,
                             secure=secure, region=config.region)

    def ensure_uploaded(self, key: str, path: Path, content_type: str) -> bool:
        """Upload unless the object is already there with the same size. True if it was uploaded."""
        from minio.error import InvalidResponseError, S3Error

        size = path.stat().st_size
        try:
            if self._client.stat_object(self.config.bucket, key).size == size:
                return False
        except S3Error as exc:
            if exc.code not in ("NoSuchKey", "NoSuchObject", "NotFound"):
                raise HostingError(t("hosting.lookup_refused", key=key, code=str(exc.code)),
                                   refused=_refused(exc)) from exc
        data = path.read_bytes()
        try:
            self._client.put_object(self.config.bucket, key, io.BytesIO(data), len(data), content_type=content_type)
        except S3Error as exc:
            raise HostingError(t("hosting.upload_refused", code=str(exc.code), message=str(exc.message)),
                               refused=_refused(exc)) from exc
        except InvalidResponseError as exc:
            raise HostingError(t("hosting.upload_refused", code=str(getattr(exc, "_code", "")), message=""),
                               refused=_refused(exc)) from exc
        return True

    def url_for(self, key: str, *, signed_at: dt.datetime) -> str:
        """The link LINE will load. Presigned links are signed as of `signed_at`, so every retry of one
        delivery carries byte-identical URLs (LINE requires a retry to repeat the original request)."""
        if self.config.public_base_url:
            return f"{self.config.public_base_url.rstrip('/')}/{quote(key)}"
        return self._client.presigned_get_object(self.config.bucket, key, expires=self.config.presign_for,
                                                 request_date=signed_at)

    def test_upload(self) -> str:
        """Settings → "Test upload": put a tiny object and return its link."""
        key = "shiftcast/connection-test.txt"
        data = b"Shiftcast image hosting works.\n"
        try:
            self._client.put_object(self.config.bucket, key, io.BytesIO(data), len(data), content_type="text/plain")
        except Exception as exc:
            raise HostingError(t("hosting.test_failed", detail=str(exc))) from exc
        return self.url_for(key, signed_at=dt.datetime.now(dt.UTC))


class LocalHosting:
    """Images copied into a folder that a loopback web server publishes: for demo mode only, where the
    built-in LINE emulator (not LINE) loads them. Same interface as `Hosting`."""

    def __init__(self, root: Path, base_url: str) -> None:
        self.root = root
        self.base_url = base_url.rstrip("/")

    def ensure_uploaded(self, key: str, path: Path, content_type: str) -> bool:
        target = self.root / key
        if target.is_file() and target.stat().st_size == path.stat().st_size:
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
        return True

    def url_for(self, key: str, *, signed_at: dt.datetime) -> str:
        return f"{self.base_url}/{quote(key)}"


def is_set_up(session: Session) -> bool:
    """Whether the sender takes the image path (from_settings gives a host) rather than Flex: read
    without the keyring, so a missing secret still counts as set up, as the sender then fails and waits."""
    if keys.HOSTING_LOCAL_ROOT.read(session) and keys.HOSTING_LOCAL_BASE_URL.read(session):
        return True
    return bool(keys.HOSTING_ENDPOINT.read(session) and keys.HOSTING_BUCKET.read(session)
                and keys.HOSTING_ACCESS_KEY_ID.read(session))


def from_settings(session: Session) -> Hosting | LocalHosting | None:
    """The configured image hosting, or None when the manager has not set one up."""
    local_root, local_url = keys.HOSTING_LOCAL_ROOT.read(session), keys.HOSTING_LOCAL_BASE_URL.read(session)
    if local_root and local_url:
        return LocalHosting(Path(local_root), local_url)
    config = config_from_settings(session)
    return Hosting(config) if config is not None else None
