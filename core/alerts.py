"""Alerts for the manager: one incident per condition, raised once, cleared when the condition ends.

The conditions: dead letters exist, a channel is held because its credentials were refused, LINE's
monthly quota ran out, the oldest due delivery has waited more than 15 minutes while the sender
runs, or another computer sent from this database within the last day (its data folder was copied
or moved while both may still send: core/store/identity.py, docs/reliability.md), or the LINE account
was removed from a classroom's group (a leave event, core/receiving/groups.py; over when it joins the
group again or the classroom gets another group), or events LINE sent stayed unhandled after every try
(core/receiving/handlers.py; over when they are handled), or pairing codes are being ignored because too
many wrong ones came (core/receiving/pairing_limits.py: from one LINE user, or from everyone together; over
when the lockout's hour ends). Whoever notices a condition first opens its incident (the sender at once,
the webhook receiver for a left group, a failed event or a lockout, the scheduler's minute job otherwise);
the unique `open_key` keeps it to one open incident per condition, so fifty dead letters in one
outage are one alert. Opening an incident enqueues its notifications (webhook,
manager's e-mail) in the same transaction, through the outbox like any message, so none is lost.

Most incidents clear when the scheduler's minute watch no longer sees their condition. Two of them
a successful send disproves at once, and the sender clears them in the transaction that records the
send, so they do not outlive their cause where no scheduler runs (`main.py sender --until-idle`):
- the channel's hold (its credentials were refused): the channel just accepted a message with the
  credentials it has now, so the hold and its incident close;
- LINE's monthly quota used up: LINE just accepted a message, so the quota is not used up.
A send disproves neither dead letters (those rows stay failed until the manager acts) nor a stalled
queue (one message out says nothing of the others still waiting); the minute watch clears those.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from core.channels import registry
from core.outbox import queue
from core.roster import clock
from core.store import identity
from core.store import setting_keys as keys
from core.store.db import insert_unless_exists
from core.store.models import (
    Alert,
    AlertKind,
    Channel,
    Classroom,
    Delivery,
    DeliveryKind,
    DeliveryStatus,
    PairingLockout,
    ProposedGroup,
    SubjectType,
    WebhookEvent,
)
from core.texts import Text, render, t
from core.texts import message as texts
from core.texts.formats import Language

STALL_AFTER = dt.timedelta(minutes=15)
# A relay unreachable for a minute or two is a network's hiccup; this long, the manager should look.
RELAY_UNREACHABLE_AFTER = dt.timedelta(minutes=15)
RECENT = dt.timedelta(days=7)
OTHER_COMPUTER_WITHIN = dt.timedelta(hours=24)  # as long as LINE remembers a retry key
QUOTA_ZONE = "Asia/Tokyo"  # LINE counts its monthly quota in Japan time


@dataclass(frozen=True)
class Condition:
    kind: AlertKind
    scope: str
    title: Text
    detail: Text | str = ""

    @property
    def key(self) -> str:
        return f"{self.kind.value}:{self.scope}"

    @property
    def code(self) -> str:
        """The code the app's alert callback receives (SenderEvents.alert)."""
        return self.kind.name


@dataclass(frozen=True)
class QueueFacts:
    """What the conditions are decided from, read from the database in a few queries."""

    dead_letters: int
    holds: Mapping[str, str]  # channel → the hold's error code
    quota_failed_at: dt.datetime | None  # the newest LINE failure for a used-up quota
    line_sent_at: dt.datetime | None  # the newest LINE delivery sent
    oldest_due: dt.datetime | None  # the longest-waiting due delivery on a channel that is not held
    due_count: int
    # Other computers that sent from this database lately: (host, when it last sent), latest first.
    other_computers: tuple[tuple[str, dt.datetime], ...] = ()
    # Classrooms whose LINE group the account was removed from: (classroom id, name), by id.
    left_groups: tuple[tuple[int, str], ...] = ()
    failed_webhook_events: int = 0  # LINE events given up after every try, still unhandled
    # Pairing codes ignored after too many wrong ones: how many LINE users are locked out, and until when
    # everyone is (None: pairing is not paused).
    pairing_locked_users: int = 0
    pairing_paused_until: dt.datetime | None = None
    relay_unreachable_since: dt.datetime | None = None  # the running sender's syncs fail since then
    # Why the due rows wait, where the sender knows: the channels whose due rows it marked not set up.
    not_set_up: tuple[str, ...] = ()
    zone: str = "UTC"  # the classroom's time zone, in which the alert writes its times


# ----- the rules (pure) -----


def dead_letters(count: int) -> Condition:
    return Condition(AlertKind.DEAD_LETTER, "", t("alert.dead_letters", count=count), t("alert.dead_letters.detail"))


def channel_held(channel: str, code: str) -> Condition:
    # The driver's words: each channel that can be held says what its hold means.
    driver = registry.DRIVERS.get(channel)
    held = driver.hold_title if driver is not None and driver.hold_key is not None else None
    title = (held if isinstance(held, Text) else t("text.plain", text=held) if held
             else t("alert.channel_held", channel=channel))
    return Condition(AlertKind.CHANNEL_HELD, channel, title, t("alert.channel_held.detail", code=code))


def quota_exhausted() -> Condition:
    return Condition(AlertKind.QUOTA_EXHAUSTED, Channel.LINE.value, t("alert.quota"), t("alert.quota.detail"))


def queue_stalled(count: int, oldest_due: dt.datetime, *, zone: str = "UTC",
                  not_set_up: tuple[str, ...] = ()) -> Condition:
    """The stall names its cause: the channels not set up, else that the sender runs but they do not go."""
    if not_set_up:
        cause = t("alert.stalled.not_set_up", channels=tuple(_label(c) for c in not_set_up))
    else:
        cause = t("alert.stalled.not_going")
    return Condition(AlertKind.QUEUE_STALLED, "", t("alert.stalled", count=count),
                     t("alert.stalled.because", since=oldest_due.astimezone(clock.zone(zone)), zone=zone,
                       cause=cause))


def _label(channel: str) -> Text:
    driver = registry.DRIVERS.get(channel)
    return driver.label if driver is not None else t("text.plain", text=channel)


def other_computer(others: tuple[tuple[str, dt.datetime], ...]) -> Condition:
    host, last = others[0]
    more: Text | str = t("alert.other_computer.more", count=len(others) - 1) if len(others) > 1 else ""
    return Condition(AlertKind.OTHER_COMPUTER, "", t("alert.other_computer", host=host, more=more),
                     t("alert.other_computer.detail", last=last.astimezone(dt.UTC)))


def group_left(classroom_id: int, classroom: str) -> Condition:
    return Condition(AlertKind.LINE_GROUP_LEFT, str(classroom_id), t("alert.line_group_left", classroom=classroom),
                     t("alert.line_group_left.detail"))


def webhook_events_failed(count: int) -> Condition:
    return Condition(AlertKind.WEBHOOK_EVENT_FAILED, "", t("alert.webhook_events_failed", count=count),
                     t("alert.webhook_events_failed.detail"))


def pairing_locked(users: int) -> Condition:
    return Condition(AlertKind.PAIRING_LOCKOUT, "", t("alert.pairing_locked", count=users),
                     t("alert.pairing_locked.detail"))


def pairing_paused(until: dt.datetime) -> Condition:
    return Condition(AlertKind.PAIRING_PAUSED, "", t("alert.pairing_paused"),
                     t("alert.pairing_paused.detail", until=until.astimezone(dt.UTC)))


def relay_unreachable(since: dt.datetime) -> Condition:
    return Condition(AlertKind.RELAY_UNREACHABLE, "", t("alert.relay_unreachable"),
                     t("alert.relay_unreachable.detail", since=since.astimezone(dt.UTC)))


def pairing_conditions(locked_users: int, paused_until: dt.datetime | None) -> list[Condition]:
    """The pairing lockouts in force, as incidents (the wizard's teachers page shows them too)."""
    found = [pairing_locked(locked_users)] if locked_users else []
    return found + ([pairing_paused(paused_until)] if paused_until is not None else [])


def month_start(now: dt.datetime, zone_name: str = QUOTA_ZONE) -> dt.datetime:
    local = now.astimezone(clock.zone(zone_name))
    return local.replace(day=1, hour=0, minute=0, second=0, microsecond=0).astimezone(dt.UTC)


def conditions(facts: QueueFacts, *, now: dt.datetime, running_since: dt.datetime | None) -> list[Condition]:
    """The conditions that hold now. `running_since`: when the sender started (None: not sending), so
    a backlog found at start-up counts from then, not from when the app was closed."""
    found = []
    if facts.dead_letters:
        found.append(dead_letters(facts.dead_letters))
    found.extend(channel_held(channel, code) for channel, code in sorted(facts.holds.items()))
    quota = facts.quota_failed_at
    if quota is not None and quota >= month_start(now) and (facts.line_sent_at is None or facts.line_sent_at < quota):
        found.append(quota_exhausted())
    if running_since is not None and facts.oldest_due is not None:
        if now - max(facts.oldest_due, running_since) > STALL_AFTER:
            found.append(queue_stalled(facts.due_count, facts.oldest_due, zone=facts.zone,
                                       not_set_up=facts.not_set_up))
    if facts.other_computers:
        found.append(other_computer(facts.other_computers))
    found.extend(group_left(classroom_id, name) for classroom_id, name in facts.left_groups)
    if facts.failed_webhook_events:
        found.append(webhook_events_failed(facts.failed_webhook_events))
    found.extend(pairing_conditions(facts.pairing_locked_users, facts.pairing_paused_until))
    since = facts.relay_unreachable_since
    if since is not None and now - since >= RELAY_UNREACHABLE_AFTER:
        found.append(relay_unreachable(since))
    return found


def disproved_by_send(channel: str) -> list[str]:
    """The open keys of the incidents that a message accepted on `channel` shows to be over."""
    found = [f"{AlertKind.CHANNEL_HELD.value}:{channel}"]
    if channel == Channel.LINE.value:
        found.append(quota_exhausted().key)
    return found


# ----- reading and recording -----


def dead_letter_count(session: Session) -> int:
    return session.scalar(select(func.count()).select_from(Delivery).where(
        Delivery.status == DeliveryStatus.FAILED, Delivery.dead_lettered_at.is_not(None))) or 0


def failed_webhook_event_count(session: Session) -> int:
    return session.scalar(select(func.count()).select_from(WebhookEvent).where(
        WebhookEvent.handled_at.is_(None), WebhookEvent.given_up_at.is_not(None))) or 0


def read_facts(session: Session, *, now: dt.datetime) -> QueueFacts:
    dead = dead_letter_count(session)
    holds = {}
    for channel, driver in registry.DRIVERS.items():
        hold = driver.hold_key.read(session) if driver.hold_key is not None else None
        if hold is not None:
            holds[channel] = hold.code
    quota_failed = session.scalar(select(func.max(Delivery.updated_at)).where(
        Delivery.channel == Channel.LINE, Delivery.status == DeliveryStatus.FAILED,
        Delivery.last_error_code == "QUOTA_EXHAUSTED"))
    line_sent = session.scalar(select(func.max(Delivery.sent_at)).where(
        Delivery.channel == Channel.LINE, Delivery.status == DeliveryStatus.SENT))
    due = select(func.min(Delivery.next_attempt_at), func.count()).where(
        Delivery.status.in_([DeliveryStatus.PENDING, DeliveryStatus.QUEUED]), Delivery.next_attempt_at <= now)
    if holds:  # a held channel has its own incident; its waiting rows are not a second one
        due = due.where(Delivery.channel.not_in(list(holds)))
    oldest, count = session.execute(due).one()
    waiting = select(Delivery.channel).where(
        Delivery.status.in_([DeliveryStatus.PENDING, DeliveryStatus.QUEUED]), Delivery.next_attempt_at <= now,
        Delivery.last_error_code == "NOT_SET_UP").distinct()
    not_set_up = tuple(sorted(session.scalars(waiting)))
    left = tuple((row.id, row.name) for row in session.execute(
        select(Classroom.id, Classroom.name).join(ProposedGroup, ProposedGroup.group_id == Classroom.line_group_id)
        .where(ProposedGroup.left_at.is_not(None)).order_by(Classroom.id)))
    return QueueFacts(dead, holds, quota_failed, line_sent, oldest, count or 0,
                      other_computers(session, identity.this_machine(), now=now), left,
                      failed_webhook_event_count(session), *pairing_lockouts(session, now=now),
                      relay_unreachable_since=relay_unreachable_since(session),
                      not_set_up=not_set_up, zone=classroom_zone(session))


def relay_unreachable_since(session: Session) -> dt.datetime | None:
    """Since when the running sender's syncs with the relay fail (core/relay/syncer.py), else None."""
    since = keys.RELAY_UNREACHABLE_SINCE.read(session)
    try:
        moment = dt.datetime.fromisoformat(since) if since else None
    except ValueError:  # a hand-edited value: no alert rather than a failed watch
        return None
    return moment if moment is None or moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def classroom_zone(session: Session) -> str:
    """The time zone an alert writes its times in: the classrooms' (the first one's, when they differ
    — a manager's classrooms are nearly always in one zone), else UTC."""
    return session.scalar(select(Classroom.timezone).order_by(Classroom.id).limit(1)) or "UTC"


def pairing_lockouts(session: Session, *, now: dt.datetime) -> tuple[int, dt.datetime | None]:
    """How many LINE users' pairing codes are ignored at `now`, and until when everyone's are (None: not)."""
    rows = session.execute(select(PairingLockout.scope, PairingLockout.locked_until)
                           .where(PairingLockout.locked_until > now)).all()
    users = sum(1 for scope, _ in rows if scope != PairingLockout.EVERYONE)
    return users, next((until for scope, until in rows if scope == PairingLockout.EVERYONE), None)


def other_computers(session: Session, machine: identity.Machine | None, *,
                    now: dt.datetime) -> tuple[tuple[str, dt.datetime], ...]:
    """The other computers that sent from this database within OTHER_COMPUTER_WITHIN of `now`."""
    return tuple((m.host, m.last_sent_at) for m in identity.others_since(session, machine, now - OTHER_COMPUTER_WITHIN))


def open_incident(session: Session, condition: Condition, *, now: dt.datetime) -> Alert | None:
    """Open an incident for `condition` unless one is open already. Returns the new incident."""
    existing = session.scalar(select(Alert).where(Alert.open_key == condition.key))
    if existing is not None:
        existing.last_seen_at = now
        return None
    new_id = insert_unless_exists(session, Alert.__table__, {
        "kind": condition.kind, "scope": condition.scope, "open_key": condition.key, "title": texts.dumps(condition.title),
        "detail": texts.dumps(condition.detail), "opened_at": now, "last_seen_at": now, "cleared_at": None,
    }, unique=["open_key"])
    if new_id is None:  # opened meanwhile by another writer
        return None
    alert = session.get(Alert, new_id)
    assert alert is not None
    notify(session, alert, now=now)
    return alert


def sync(session: Session, active: list[Condition], *, now: dt.datetime) -> tuple[list[Alert], list[Alert]]:
    """Open an incident for each active condition without one; clear open incidents whose condition ended."""
    opened = [alert for condition in active if (alert := open_incident(session, condition, now=now)) is not None]
    keys = {c.key for c in active}
    cleared = []
    for alert in session.scalars(select(Alert).where(Alert.open_key.is_not(None))):
        if alert.open_key not in keys:
            alert.open_key, alert.cleared_at = None, now
            cleared.append(alert)
    session.flush()
    return opened, cleared


def clear(session: Session, open_keys: list[str], *, now: dt.datetime) -> list[Alert]:
    """Clear the open incidents with these keys (their condition is known to be over)."""
    cleared = list(session.scalars(select(Alert).where(Alert.open_key.in_(open_keys))))
    for alert in cleared:
        alert.open_key, alert.cleared_at = None, now
    session.flush()
    return cleared


def evaluate(session: Session, *, now: dt.datetime, running_since: dt.datetime | None) -> tuple[list[Alert], list[Alert]]:
    return sync(session, conditions(read_facts(session, now=now), now=now, running_since=running_since), now=now)


def notify(session: Session, alert: Alert, *, now: dt.datetime) -> list[int]:
    """Enqueue this incident's notifications: the webhook and the manager's e-mail, where set up."""
    targets = []
    if keys.ALERTS_WEBHOOK_URL.read(session):
        targets.append((Channel.WEBHOOK, "webhook"))
    manager = keys.ALERTS_EMAIL.read(session)
    if manager:
        targets.append((Channel.EMAIL, manager))
    ids = []
    for channel, recipient in targets:
        delivery_id, _ = queue.enqueue(
            session, kind=DeliveryKind.ALERT, dedup=queue.dedup_key(DeliveryKind.ALERT, f"alert:{alert.id}", 0, channel),
            due_at=now, now=now, channel=channel, recipient=recipient, subject_type=SubjectType.ALERT,
            subject_id=alert.id)
        ids.append(delivery_id)
    return ids


def title_of(alert: Alert) -> Text | str:
    """The incident's title as raised (a row from before messages had codes gives its English words)."""
    return texts.loads(alert.title)


def detail_of(alert: Alert) -> Text | str:
    return texts.loads(alert.detail or "")


def message_of(alert: Alert, lang: Language = "en", zone: str = "UTC") -> str:
    """The notification's text (banner, webhook, e-mail) in `lang`: title, detail, since when (in `zone`,
    the classroom's: classroom_zone)."""
    text = f"[Shiftcast] {render(title_of(alert), lang)}"
    detail = render(detail_of(alert), lang)
    if detail:
        text += f"\n{detail}"
    since = alert.opened_at.astimezone(clock.zone(zone))
    return text + "\n" + render(t("alert.since_in", since=since, zone=zone), lang)


def manager_language(session: Session) -> Language:
    """The language the manager reads: the app's setting, else this computer's locale."""
    import os
    import sys

    from core.texts import language

    return language.choose(keys.UI_LANGUAGE.read(session), os.environ, sys.platform, language.user_locale())


# ----- what the app shows -----


def open_alerts(session: Session) -> list[Alert]:
    return list(session.scalars(select(Alert).where(Alert.open_key.is_not(None)).order_by(Alert.opened_at.desc())))


def list_alerts(session: Session, *, now: dt.datetime, recent: dt.timedelta = RECENT) -> list[Alert]:
    """Open incidents and those cleared within `recent`, newest first (the app's alerts view, the CLI)."""
    return list(session.scalars(select(Alert).where(or_(Alert.open_key.is_not(None), Alert.cleared_at >= now - recent))
                                .order_by(Alert.opened_at.desc(), Alert.id.desc())))
