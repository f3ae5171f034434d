"""The kinds and statuses the tables store, as plain string enums.

Apart from the ORM tables (core/store/models.py, which re-exports them) so the command line can offer
them as choices without loading SQLAlchemy: parsing `--help` must stay as cheap as a bare Python.
"""

from __future__ import annotations

from enum import StrEnum


class ShiftStatus(StrEnum):
    DRAFT = "draft"
    CONFIRMED = "confirmed"
    CANCELED = "canceled"


class DeliveryKind(StrEnum):
    SHIFT_PUBLICATION = "shift_publication"
    SHIFT_REMINDER = "shift_reminder"
    SHIFT_CORRECTION = "shift_correction"
    ALERT = "alert"  # an incident told to the manager (webhook or e-mail)
    TEACHER_MONTH = "teacher_month"  # a published month's shifts of one teacher, to that teacher
    COVER_CALL = "cover_call"  # a shift that needs cover, offered to the group or to free teachers
    COVER_ASSIGNED = "cover_assigned"  # the teacher the manager chose is told the shift is now theirs
    COVER_DECLINED = "cover_declined"  # the teacher who asked for cover is told the manager said no
    AVAILABILITY_REQUEST = "availability_request"  # asks a teacher which days of a month they can work
    UNACKNOWLEDGED_NUDGE = "unacknowledged_nudge"  # the manager is told a reminder was not acknowledged


class SubjectType(StrEnum):
    """What the built-in kinds' deliveries are about (deliveries.subject_type); a registered kind may
    name another."""

    SHIFT = "shift"
    PUBLICATION = "publication"
    ALERT = "alert"
    COVER_REQUEST = "cover_request"
    AVAILABILITY_REQUEST = "availability_request"


class Channel(StrEnum):
    """The built-in channels' keys. A delivery or a contact carries any registered channel's key, a
    plain string (core/channels/registry.py); these are only the ones Shiftcast ships with, for their
    drivers, the migrations and what only LINE has (pairing, groups, the webhook receiver, the relay).
    Code that serves every channel asks the delivery's driver instead of comparing with these, and no
    test holds this enum equal to the registered channels: registering one needs no member here."""

    LINE = "line"
    EMAIL = "email"
    WEBHOOK = "webhook"  # a Slack-compatible incoming webhook, for alerts


class ContactRule(StrEnum):
    """How a teacher's contacts are used, in the order of their rank."""

    EVERY = "every"  # every contact they agreed to
    FIRST = "first"  # the first one that can reach them; the next when it cannot


class AlertKind(StrEnum):
    DEAD_LETTER = "dead_letter"
    CHANNEL_HELD = "channel_held"
    QUOTA_EXHAUSTED = "quota_exhausted"
    QUEUE_STALLED = "queue_stalled"
    OTHER_COMPUTER = "other_computer"  # this database was recently sent from by another computer too
    LINE_GROUP_LEFT = "line_group_left"  # the LINE account was removed from a classroom's group
    WEBHOOK_EVENT_FAILED = "webhook_event_failed"  # LINE events whose handlers failed every try
    PAIRING_LOCKOUT = "pairing_lockout"  # LINE users are ignored for an hour after too many wrong pairing codes
    PAIRING_PAUSED = "pairing_paused"  # every pairing code is ignored for an hour after too many from everyone
    RELAY_UNREACHABLE = "relay_unreachable"  # the running sender's syncs with the relay have failed for a while


class DeliveryStatus(StrEnum):
    PENDING = "pending"
    QUEUED = "queued"
    PROCESSING = "processing"
    SENT = "sent"
    FAILED = "failed"
    CANCELED = "canceled"


class CoverState(StrEnum):
    """Where a teacher's request for cover stands (core/roster/cover.py)."""

    OPEN = "open"  # asked; the manager has not acted
    CALLING = "calling"  # the manager asked teachers who could take it
    ASSIGNED = "assigned"  # the manager gave the shift to another teacher
    WITHDRAWN = "withdrawn"  # no longer needed: the shift changed, was canceled or started without cover
    DECLINED = "declined"  # the manager said no: the shift stays with the teacher who asked


class CoverStep(StrEnum):
    """One step in a cover request's history."""

    ASKED = "asked"
    CALLED = "called"
    VOLUNTEERED = "volunteered"
    REFUSED = "refused"  # a teacher offered who could not take it (not free, or the request closed)
    ASSIGNED = "assigned"
    WITHDRAWN = "withdrawn"
    DECLINED = "declined"
