"""Reading, checking, saving and trying out the image hosting settings (the Settings screen's part).

Non-secret fields go to the settings table; the secret access key goes to the keyring only and is
never read back out to the screen. Blocking functions: the screen runs them on a background thread.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.addresses import secure_or_local
from core.errors import ValidationError
from core.outbox.policy import ErrorCode, shown_error
from core.publication import hosting
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.kinds import Channel, DeliveryKind
from core.store.models import Delivery, DeliveryAttempt
from core.texts import Text, t

MAX_DAYS = hosting.MAX_PRESIGN.days


@dataclass(frozen=True)
class HostingDraft:
    """What the manager typed (or what is saved), secret excluded."""

    endpoint: str = ""
    bucket: str = ""
    region: str = ""
    access_key_id: str = ""
    public_base_url: str = ""
    presign_days: int = MAX_DAYS

    @property
    def empty(self) -> bool:
        return not (self.endpoint or self.bucket or self.access_key_id or self.public_base_url)


@dataclass(frozen=True)
class HostingState:
    draft: HostingDraft
    secret_saved: bool
    keyring_problem: Text | str | None  # why the keyring cannot be used, in the catalog's terms
    demo_folder: bool  # demo mode serves images from a local folder instead of a bucket

    @property
    def set_up(self) -> bool:
        """The manager set image hosting up: its address, bucket and access key ID are saved."""
        return bool(self.draft.endpoint and self.draft.bucket and self.draft.access_key_id)

    @property
    def secret_at_hand(self) -> bool:
        return self.secret_saved or bool(os.environ.get(hosting.SECRET_ENV, "").strip())


def load(db: Database) -> HostingState:
    with db.read() as session:
        draft = HostingDraft(
            endpoint=keys.HOSTING_ENDPOINT.read(session) or "",
            bucket=keys.HOSTING_BUCKET.read(session) or "",
            region=keys.HOSTING_REGION.read(session) or "",
            access_key_id=keys.HOSTING_ACCESS_KEY_ID.read(session) or "",
            public_base_url=keys.HOSTING_PUBLIC_BASE_URL.read(session) or "",
            presign_days=keys.HOSTING_PRESIGN_DAYS.read(session) or MAX_DAYS,
        )
        demo = keys.HOSTING_LOCAL_ROOT.read(session) is not None
    saved, problem = False, None
    try:
        saved = bool(secrets.get_secret(hosting.SECRET_NAME, env=hosting.SECRET_ENV))
    except secrets.SecretStoreError as exc:
        problem = exc.text
    return HostingState(draft, saved, problem, demo)


def problem(db: Database, state: HostingState) -> Text | None:
    """Why image hosting that is set up does not work, read offline; None: not set up, or nothing
    says it fails. Its secret is looked for now; the bucket's answer is the one the sender got for
    the last month it sent to a group (an attempt it recorded as HOSTING_UNUSABLE), as asking the
    bucket here would make the check slow and leave this computer."""
    if state.demo_folder or not state.set_up:
        return None
    if not state.secret_at_hand:
        if state.keyring_problem is not None:
            return t("hosting.keyring", detail=state.keyring_problem)
        return t("hosting.secret_missing")
    with db.read() as session:
        return _last_month_refused(session)


def _last_month_refused(session: Session) -> Text | None:
    """The refusal the last month sent to a LINE group met, if it met one."""
    last = session.scalar(select(Delivery.id).where(
        Delivery.kind == DeliveryKind.SHIFT_PUBLICATION.value, Delivery.channel == Channel.LINE.value,
        Delivery.first_attempt_at.is_not(None)).order_by(Delivery.first_attempt_at.desc(), Delivery.id.desc()).limit(1))
    if last is None:
        return None
    refused = session.execute(select(DeliveryAttempt.started_at, DeliveryAttempt.error_message).where(
        DeliveryAttempt.delivery_id == last, DeliveryAttempt.error_code == ErrorCode.HOSTING_UNUSABLE.value)
        .order_by(DeliveryAttempt.number.desc()).limit(1)).first()
    if refused is None:
        return None
    reason = _reason(refused.error_message)
    # Only the bucket's answer: a missing or unreadable secret is looked for now, above, so a refusal
    # for one that has since been entered is not said again.
    if not isinstance(reason, Text) or reason.code not in _BUCKET_REFUSALS:
        return None
    return t("readiness.month.refused", at=refused.started_at.astimezone(), said=reason)


_BUCKET_REFUSALS = frozenset({"hosting.lookup_refused", "hosting.upload_refused"})


def _reason(stored: str | None) -> Text | str | None:
    """The refusal inside a HOSTING_UNUSABLE attempt's message (policy.error_text), without the words
    about the month going as a list, which the readiness line says itself."""
    shown = shown_error(stored)
    said = shown.params.get("said") if isinstance(shown, Text) else None
    words = said.params.get("words") if isinstance(said, Text) else None
    return words if isinstance(words, (Text, str)) else None


def validate(draft: HostingDraft) -> HostingDraft:
    """Trimmed and checked; an all-empty draft means "no image hosting"."""
    draft = replace(draft, endpoint=draft.endpoint.strip().rstrip("/"), bucket=draft.bucket.strip(),
                    region=draft.region.strip(), access_key_id=draft.access_key_id.strip(),
                    public_base_url=draft.public_base_url.strip())
    if draft.empty:
        return draft
    if not (draft.endpoint and draft.bucket and draft.access_key_id):
        raise ValidationError(t("setup.hosting.incomplete"))
    _require_web_address(draft.endpoint, t("word.endpoint"))
    if draft.public_base_url:
        _require_web_address(draft.public_base_url, t("word.public_base"))
    if not 1 <= draft.presign_days <= MAX_DAYS:
        raise ValidationError(t("setup.hosting.days", days=MAX_DAYS))
    return draft


def _require_web_address(value: str, what: Text) -> None:
    if not secure_or_local(value):
        raise ValidationError(t("setup.hosting.insecure", what=what, address=value))


def save(db: Database, draft: HostingDraft, secret: str | None) -> None:
    """Check everything first; then the secret (if a new one was typed), then the settings."""
    draft = validate(draft)
    if secret and secret.strip():
        secrets.set_secret(hosting.SECRET_NAME, secret, env=hosting.SECRET_ENV)
    with db.write() as session:
        keys.HOSTING_ENDPOINT.write(session, draft.endpoint)
        keys.HOSTING_BUCKET.write(session, draft.bucket)
        keys.HOSTING_REGION.write(session, draft.region)
        keys.HOSTING_ACCESS_KEY_ID.write(session, draft.access_key_id)
        keys.HOSTING_PUBLIC_BASE_URL.write(session, draft.public_base_url)
        keys.HOSTING_PRESIGN_DAYS.write(session, None if draft.empty else draft.presign_days)


def upload_test_file(draft: HostingDraft, secret: str | None) -> str:
    """Upload a tiny object with the values on screen (the typed secret, else the saved one); its link."""
    draft = validate(draft)
    if draft.empty:
        raise ValidationError(t("setup.hosting.enter_first"))
    key = ((secret or "").strip() or os.environ.get(hosting.SECRET_ENV, "").strip()
           or secrets.get_secret(hosting.SECRET_NAME, env=hosting.SECRET_ENV))
    if not key:
        raise ValidationError(t("setup.hosting.enter_secret"))
    config = hosting.HostingConfig(draft.endpoint, draft.bucket, draft.region or "auto", draft.access_key_id, key,
                                   draft.public_base_url or None, dt.timedelta(days=draft.presign_days))
    return hosting.Hosting(config).test_upload()
