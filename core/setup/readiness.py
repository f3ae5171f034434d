"""Will the teachers get their messages? Every requirement between an installed Shiftcast and a
teacher's reminder, each with its state, what is the case in the manager's words, and what fixes it.

`facts` reads what the requirements depend on (the database, the settings, the keyring, the
channels' drivers) without calling LINE or any other server, so the check is offline and fast;
`assess` is the pure rule that turns those facts into requirements, so the window's panel and
`shiftcast doctor` say the same thing. Whether the app starts at login is the caller's to find out
(core/app/autostart.py sits above this package) and is passed in; so is whether LINE can reach the
app's receiver: the window passes its receiving's live state, `doctor` what that receiving last
recorded (core/setup/receiving.py) and where LINE says its webhook points, which it asks LINE.

Blocking means messages do not go at all (no LINE, no keyring, no classroom, no teacher reachable); a
warning means some go, or they go only while this computer is on, or (receiving) they go but what
teachers send back does not arrive. A classroom without its LINE group is a warning, whatever its
shifts: reminders go to each teacher without it, and a published month waits for the group
(core/planning/group_waiting.py). Each requirement's state is decided here and only here, from
facts that do not depend on who asks, so the window's panels and `doctor` always agree.

LINE not connected blocks only while LINE is in use (a classroom has its LINE group, a teacher chose
LINE or has a LINE user ID) or no other chat channel whose buttons answer back is set up: a fresh
install is told to connect LINE, and a classroom on LINE WORKS alone needs no LINE Official Account.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import func, select

from core.channels import registry
from core.pages import month_message
from core.planning import unacknowledged
from core.publication import image_hosts
from core.receiving import line_works_callback, server
from core.roster import contacts, reading
from core.sending import presence
from core.sending.presence import SenderState
from core.setup import hosting, line_works, receiving, relay_credentials, teachers_page
from core.setup.receiving import ReceivingState
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Channel, Classroom, ContactRule, Teacher, WebhookEvent
from core.texts import Text, t


class State(StrEnum):
    OK = "ok"
    WARNING = "warning"
    BLOCKING = "blocking"


class Fix(StrEnum):
    """Where a front end sends the manager to fix a requirement (the window maps each to a button)."""

    CONNECT_LINE = "connect_line"
    KEYRING = "keyring"
    ADD_CLASSROOM = "add_classroom"
    CLASSROOM_GROUP = "classroom_group"
    TEACHERS = "teachers"
    EMAIL = "email"
    HOSTING = "hosting"
    AUTOSTART = "autostart"
    RECEIVING = "receiving"  # start receiving again, which points LINE's webhook at the app
    UNACKNOWLEDGED = "unacknowledged"  # the shifts whose reminder waits for its 了解
    RELAY = "relay"  # Settings → Always on: deploying again gives the relay the credentials saved here
    LINE_WORKS = "line_works"  # Settings → LINE WORKS: its values, Test
    CLASSROOMS = "classrooms"  # Settings → Classrooms: a classroom's room on a channel other than LINE
    TEACHERS_PAGE = "teachers_page"  # Connect LINE's Teachers' page step: its IDs, and the relay it needs


@dataclass(frozen=True)
class Requirement:
    # stable: "line", "receiving", "classroom_groups", "teachers", "month_image", "autostart", "sender",
    # "acknowledged", "relay", "line_works", "line_works_rooms", "teachers_page"
    key: str
    state: State
    says: Text  # what is the case
    fix: Fix | None  # None: nothing to open
    fix_says: Text | None  # what fixes it
    details: tuple[Text, ...] = ()  # one line each: the classrooms, the teachers it names


@dataclass(frozen=True)
class Contact:
    channel: str
    address: str | None
    agreed_at: dt.datetime | None
    unreachable_since: dt.datetime | None
    rank: int | None


@dataclass(frozen=True)
class TeacherFacts:
    name: str
    rule: ContactRule
    contacts: tuple[Contact, ...]


@dataclass(frozen=True)
class ClassroomFacts:
    name: str
    has_group: bool
    line_group: bool = False  # its month goes to a LINE group


@dataclass(frozen=True)
class ReceivingFacts:
    """Whether LINE can reach the app's receiver (core/setup/receiving.py)."""

    chosen: bool  # Connect LINE finished with an address to keep receiving at
    state: ReceivingState | None  # the receiving's state; None: it never ran
    since: dt.datetime | None = None  # when the state was recorded; None: it is the live state
    line_endpoint: str | None = None  # where LINE says its webhook points; None: not asked
    last_heard: dt.datetime | None = None  # the last event LINE delivered


@dataclass(frozen=True)
class Facts:
    """What the requirements depend on, read at one moment."""

    line_ready: bool  # LINE's credentials are readable
    keyring_problem: Text | str | None  # the keyring cannot be used: why
    line_account: str | None  # the bot's name, when a setting already holds it
    channels_ready: frozenset[str]  # the channels whose credentials and settings are in place
    classrooms: tuple[ClassroomFacts, ...]
    teachers: tuple[TeacherFacts, ...]  # active ones
    hosting_ready: bool
    autostart: bool | None  # None: this computer cannot say
    last_heartbeat: dt.datetime | None  # the latest from a sender still running (not stopped)
    sending_now: bool  # a sender checked in within presence.STALE_AFTER
    # Image hosting is set up but does not work: why (its secret missing or unreadable now, or the
    # bucket refused the last month sent to a group); None: not set up, or nothing says it fails.
    hosting_problem: Text | str | None = None
    # Another image host set up (core/publication/image_hosts.py: "relay"), the month's route when the
    # manager's own bucket is not set up or does not work; None: none.
    other_image_host: str | None = None
    # The month goes to LINE groups as a button to the teachers' page (core/pages/month_message.py): no host needed.
    month_as_button: bool = False
    receiving: ReceivingFacts | None = None  # None: not looked at (the requirement says it cannot tell)
    ack_button: bool = False  # reminders carry the 了解 button
    # Shifts starting soon whose reminder waits for its 了解 (core/planning/unacknowledged.py), soonest first.
    not_acknowledged: tuple[unacknowledged.Reminded, ...] = ()
    ack_window: dt.timedelta = dt.timedelta(hours=unacknowledged.DEFAULT_HOURS)  # the classrooms' longest
    # Whether a relay deployed to Cloudflare holds the LINE credentials saved here (core/setup/relay_credentials.py).
    relay: relay_credentials.Held = relay_credentials.Held.NOT_DEPLOYED
    # LINE WORKS as far as the check can tell offline (core/setup/line_works.py); None: not part of Shiftcast.
    works: line_works.WorksFacts | None = None
    # Another chat channel with buttons that answer back (LINE WORKS) is set up: a classroom can do without LINE.
    other_chat_ready: bool = False
    # The teachers' page's settings (core/setup/teachers_page.py); None: not looked at.
    pages: teachers_page.PageSettings | None = None


# ----- reading -----


def channels_ready(db: Database) -> tuple[frozenset[str], Text | str | None]:
    """(the channels that teachers can be reached on now, why the keyring cannot be used or None), offline."""
    ready: set[str] = set()
    problem: Text | str | None = None
    for driver in registry.with_addresses():
        try:
            connection = driver.connect(db)
        except secrets.SecretStoreError as exc:
            problem = problem or exc.text
            continue
        if connection is not None:
            connection.close()
            ready.add(driver.key)
    return frozenset(ready), problem


def teacher_facts(teacher: Teacher) -> TeacherFacts:
    return TeacherFacts(teacher.name or "", ContactRule(teacher.contact_rule),
                        tuple(Contact(c.channel, c.address, c.agreed_at, c.unreachable_since, c.rank)
                              for c in teacher.contacts))


def unreached(db: Database, teacher_ids: Sequence[int]) -> dict[int, tuple[str, tuple[Text, ...]]]:
    """The teachers among `teacher_ids` nothing can reach now: id → (name, why), read offline, in the
    listing order (core/roster/reading.py)."""
    ready, _problem = channels_ready(db)
    with db.read() as session:
        found = {}
        for teacher in reading.in_order(session.scalars(select(Teacher).where(Teacher.id.in_(list(teacher_ids))))):
            why = unreached_because(teacher_facts(teacher), ready)
            if why:
                found[teacher.id] = (teacher.name or "", why)
    return found


def not_told(db: Database, teacher_ids: Sequence[int]) -> tuple[Text, ...]:
    """One line per teacher among `teacher_ids` whom nothing can reach now: name and why (for a result
    that would otherwise imply everyone will be told)."""
    return tuple(t("readiness.teachers.why", teacher=name, reasons=why) for name, why in unreached(db, teacher_ids).values())


def told_on_confirming(teacher_ids: Sequence[int], unreached: Mapping[int, tuple[str, tuple[Text, ...]]]) -> Text:
    """What confirming the drafts of these teachers tells them, true to how many can be reached now
    (`unreached`: as `unreached` found them), for the question asked before confirming (pure)."""
    count = len(set(teacher_ids))
    named = tuple(t("readiness.teachers.why", teacher=name, reasons=why) for name, why in unreached.values())
    if not named:
        return t("confirm.told_all", count=count)
    if len(named) >= count:
        return t("confirm.told_none", count=count, teachers=named)
    return t("confirm.told_some", untold_count=len(named), count=count, teachers=named)


def receiving_facts(db: Database, live: ReceivingState | None = None, *,
                    line_endpoint: str | None = None) -> ReceivingFacts:
    """`live`: the state of this process's receiving; None: what the app's receiving last recorded."""
    since = None
    if live is None:
        found = receiving.recorded(db)
        if found is not None:
            live, since = found
    with db.read() as session:
        heard = session.scalar(select(func.max(WebhookEvent.received_at)))
    return ReceivingFacts(receiving.address_from_settings(db) is not None, live, since, line_endpoint, heard)


def facts(db: Database, *, now: dt.datetime, autostart: bool | None,
          receiving_now: ReceivingFacts | None = None) -> Facts:
    """Everything `assess` needs, read offline: no request leaves this computer. `receiving_now`:
    what the caller knows of receiving; None: what it last recorded."""
    ready, problem = channels_ready(db)
    with db.read() as session:
        # A classroom's month goes to its LINE group, or to its room on another channel (LINE WORKS).
        rooms = tuple(ClassroomFacts(c.name, bool(c.line_group_id) or bool(c.rooms), bool(c.line_group_id))
                      for c in session.scalars(select(Classroom).order_by(Classroom.name)))
        teachers = tuple(teacher_facts(teacher) for teacher in reading.in_order(session.scalars(select(Teacher).where(
            Teacher.active.is_(True), Teacher.erased_at.is_(None)))))
        senders = presence.listing(session, now=now, include_stopped=False)
        account = keys.LINE_ACCOUNT.read(session)
        button = keys.LINE_ACK_BUTTON.read(session)
        waiting = tuple(unacknowledged.not_acknowledged(unacknowledged.read(session, now=now), now=now,
                                                        button_on=button)) if button else ()
        window = max((unacknowledged.window_of(session, room) for room in session.scalars(select(Classroom.id))),
                     default=dt.timedelta(hours=unacknowledged.DEFAULT_HOURS))
        other_host = image_hosts.route(session, hosting_works=False)
        as_button = month_message.chosen(session)
    saved = hosting.load(db)
    return Facts(
        line_ready=Channel.LINE.value in ready, keyring_problem=problem or saved.keyring_problem,
        line_account=account, channels_ready=frozenset(ready), classrooms=rooms, teachers=teachers,
        hosting_ready=saved.demo_folder or saved.set_up, autostart=autostart,
        last_heartbeat=max((s.heartbeat_at.astimezone() for s in senders), default=None),  # this computer's clock
        sending_now=any(s.state is SenderState.SENDING for s in senders),
        hosting_problem=hosting.problem(db, saved),
        receiving=receiving_now if receiving_now is not None else receiving_facts(db),
        ack_button=button, not_acknowledged=waiting, ack_window=window, relay=relay_credentials.held(db),
        other_image_host=other_host, month_as_button=as_button, works=line_works.facts(db), other_chat_ready=any(
            registry.driver(key).postbacks for key in ready if key != Channel.LINE.value), pages=teachers_page.read(db))


def check(db: Database, *, now: dt.datetime, autostart: bool | None,
          receiving_now: ReceivingFacts | None = None) -> list[Requirement]:
    return assess(facts(db, now=now, autostart=autostart, receiving_now=receiving_now))


# ----- the rules (pure) -----


def assess(f: Facts) -> list[Requirement]:
    """The requirements, in the order a manager meets them."""
    found = [_line(f), _receiving(f), _groups(f), _teachers(f), _month(f), _autostart(f), _sender(f)]
    found += [_acknowledged(f)] if f.ack_button else []
    found += [_line_works(f.works), *_line_works_rooms(f.works)] if f.works is not None and f.works.used else []
    found += [_teachers_page(f.pages)] if f.pages is not None and f.pages.enabled else []
    return found + ([_relay(f)] if f.relay in (relay_credentials.Held.CURRENT, relay_credentials.Held.OLD) else [])


def blocking(requirements: Sequence[Requirement]) -> bool:
    return any(r.state is State.BLOCKING for r in requirements)


def blockers(requirements: Sequence[Requirement]) -> tuple[Text, ...]:
    """What stops messages altogether, each in one sentence: what a dry run names first."""
    return tuple(r.says for r in requirements if r.state is State.BLOCKING)


def ready(requirements: Sequence[Requirement]) -> bool:
    return all(r.state is State.OK for r in requirements)


def summary(requirements: Sequence[Requirement]) -> Text:
    """The requirements in one sentence: ready, partly, or not at all."""
    blocked = sum(r.state is State.BLOCKING for r in requirements)
    problems = sum(r.state is not State.OK for r in requirements)
    if blocked:
        return t("readiness.summary.blocked", count=blocked)
    if problems:
        return t("readiness.summary.partly", count=problems)
    return t("readiness.summary.ready")


def line_used(f: Facts) -> bool:
    """A classroom posts to its LINE group, or a teacher chose LINE or has a LINE user ID."""
    return any(c.line_group for c in f.classrooms) or any(
        contact.channel == Channel.LINE.value and (contact.rank is not None or bool(contact.address))
        for teacher in f.teachers for contact in teacher.contacts)


def _line(f: Facts) -> Requirement:
    if f.line_ready:
        says = (t("readiness.line.ok_named", account=f.line_account) if f.line_account
                else t("readiness.line.ok"))
        return Requirement("line", State.OK, says, None, None)
    if f.other_chat_ready and not line_used(f):
        return Requirement("line", State.OK, t("readiness.line.not_used"), None, None)
    if f.keyring_problem is not None:
        return Requirement("line", State.BLOCKING, t("readiness.keyring.broken", detail=f.keyring_problem),
                           Fix.KEYRING, t("readiness.keyring.fix"))
    return Requirement("line", State.BLOCKING, t("readiness.line.missing"), Fix.CONNECT_LINE,
                       t("readiness.line.fix"))


def _receiving(f: Facts) -> Requirement:
    """Never blocking: reminders go without it; pairing codes, joins and 了解 taps do not arrive."""
    r = f.receiving
    ours = r.state.endpoint if r is not None and r.state is not None else None
    if not f.line_ready and f.other_chat_ready and not line_used(f):
        return _receiving_works(ours)
    if not f.line_ready or r is None or (ours is None and not r.chosen):
        says = t("readiness.receiving.no_line") if not f.line_ready else t("readiness.receiving.not_chosen")
        return Requirement("receiving", State.WARNING, says, Fix.CONNECT_LINE, t("readiness.receiving.fix_connect"))
    heard = (t("readiness.receiving.last_heard", at=r.last_heard.astimezone()),) if r.last_heard else ()
    if ours is None:
        why = r.state.why if r.state is not None else None
        if why is None or why.code == "receiving.why.stopped":
            says = t("readiness.receiving.closed")
        else:
            says = t("readiness.receiving.not", why=why)
        return Requirement("receiving", State.WARNING, says, Fix.RECEIVING, t("readiness.receiving.fix"), heard)
    if r.line_endpoint is not None and r.line_endpoint != ours:
        return Requirement("receiving", State.WARNING,
                           t("readiness.receiving.elsewhere", elsewhere=r.line_endpoint, address=ours),
                           Fix.RECEIVING, t("readiness.receiving.fix"), heard)
    recorded = (t("readiness.receiving.recorded", at=r.since.astimezone()),) if r.since is not None else ()
    return Requirement("receiving", State.OK, t("readiness.receiving.ok", address=ours), None, None,
                       recorded + heard)


def _receiving_works(ours: str | None) -> Requirement:
    """LINE WORKS alone: its bot calls the receiver's public address at its callback's path."""
    if ours is None:
        return Requirement("receiving", State.WARNING, t("readiness.receiving.works_not"), Fix.RECEIVING,
                           t("readiness.receiving.fix"))
    callback = ours.removesuffix(server.PATH) + line_works_callback.PATH
    return Requirement("receiving", State.OK, t("readiness.receiving.works_ok", address=callback), None, None)


def _groups(f: Facts) -> Requirement:
    if not f.classrooms:
        return Requirement("classroom_groups", State.BLOCKING, t("readiness.groups.no_classroom"),
                           Fix.ADD_CLASSROOM, t("readiness.groups.fix_add"))
    missing = [c for c in f.classrooms if not c.has_group]
    if not missing:
        return Requirement("classroom_groups", State.OK,
                           t("readiness.groups.ok", count=len(f.classrooms)), None, None)
    names = tuple(t("readiness.groups.missing_one", classroom=c.name) for c in missing)
    return Requirement("classroom_groups", State.WARNING,
                       t("readiness.groups.missing", count=len(missing), total_count=len(f.classrooms)),
                       Fix.CLASSROOM_GROUP, t("readiness.groups.fix"), names)


def unreached_because(teacher: TeacherFacts, channels_ready: frozenset[str]) -> tuple[Text, ...]:
    """Why nothing reaches this teacher: empty when some channel they chose can carry a message now.

    A way counts when the teacher chose it, it has an address, they agreed if the channel asks, the
    channel has not found them unreachable, and the channel itself is set up."""
    chosen = contacts.ranked(teacher.contacts)
    if not chosen:
        return (t("readiness.teacher.no_way"),)
    reasons: list[Text] = []
    for contact in chosen:
        channel = contacts.label(contact.channel)
        if not contact.address:
            reasons.append(t("readiness.teacher.no_address", channel=channel))
        elif not contacts.usable(contact):
            reasons.append(t("readiness.teacher.not_agreed", channel=channel))
        elif contact.unreachable_since is not None:
            reasons.append(t("readiness.teacher.unreachable", channel=channel))
        elif contact.channel not in channels_ready:
            reasons.append(t("readiness.teacher.channel_not_set_up", channel=channel))
        else:
            return ()
    return tuple(reasons)


def _teachers(f: Facts) -> Requirement:
    total = len(f.teachers)
    if not total:
        return Requirement("teachers", State.BLOCKING, t("readiness.teachers.none"), Fix.TEACHERS,
                           t("readiness.teachers.fix"))
    unreached = [(teacher, unreached_because(teacher, f.channels_ready)) for teacher in f.teachers]
    named = tuple(t("readiness.teachers.why", teacher=teacher.name, reasons=why) for teacher, why in unreached if why)
    reached = total - len(named)
    says = t("readiness.teachers.count", reached_count=reached, count=total)
    if not named:
        return Requirement("teachers", State.OK, says, None, None)
    state = State.BLOCKING if reached == 0 else State.WARNING
    # A channel that is chosen but not set up is fixed in Settings, not in the teachers' table.
    email = t("readiness.teacher.channel_not_set_up", channel=contacts.label(Channel.EMAIL))
    if all(reason == email for _, why in unreached for reason in why):
        return Requirement("teachers", state, says, Fix.EMAIL, t("readiness.teachers.fix_email"), named)
    works = t("readiness.teacher.channel_not_set_up", channel=contacts.label(line_works.KEY))
    if all(reason == works for _, why in unreached for reason in why):
        return Requirement("teachers", state, says, Fix.LINE_WORKS, t("readiness.line_works.fix"), named)
    return Requirement("teachers", state, says, Fix.TEACHERS, t("readiness.teachers.fix"), named)


def _month(f: Facts) -> Requirement:
    if f.month_as_button:
        return Requirement("month_image", State.OK, t("readiness.month.button"), None, None)
    if f.other_image_host == "relay" and not (f.hosting_ready and f.hosting_problem is None):
        # The pages go through the relay (core/relay/images.py) when the bucket is not there to take them.
        return Requirement("month_image", State.OK, t("readiness.month.relay"), None, None)
    if f.hosting_ready and f.hosting_problem is not None:
        # Not blocking: the month still reaches the group, as a list (core/sending/kinds/shift_publication.py).
        return Requirement("month_image", State.WARNING, t("readiness.month.broken", why=f.hosting_problem),
                           Fix.HOSTING, t("readiness.month.fix_broken"))
    if f.hosting_ready:
        return Requirement("month_image", State.OK, t("readiness.month.ok"), None, None)
    return Requirement("month_image", State.WARNING, t("readiness.month.no_hosting"), Fix.HOSTING,
                       t("readiness.month.fix"))


def _autostart(f: Facts) -> Requirement:
    if f.autostart:
        return Requirement("autostart", State.OK, t("readiness.autostart.on"), None, None)
    says = t("readiness.autostart.unknown") if f.autostart is None else t("readiness.autostart.off")
    return Requirement("autostart", State.WARNING, says, Fix.AUTOSTART, t("readiness.autostart.fix"))


def _sender(f: Facts) -> Requirement:
    if f.sending_now:
        return Requirement("sender", State.OK, t("readiness.sender.now"), None, None)
    says = (t("readiness.sender.last", at=f.last_heartbeat) if f.last_heartbeat is not None
            else t("readiness.sender.never"))
    return Requirement("sender", State.WARNING, says, None, t("readiness.sender.fix"))


def _acknowledged(f: Facts) -> Requirement:
    """Never blocking: the reminders went; whether the teachers saw them is the manager's to ask."""
    hours = int(f.ack_window.total_seconds() // 3600)
    if not f.not_acknowledged:
        return Requirement("acknowledged", State.OK, t("readiness.unacknowledged.ok", hours=hours), None, None)
    shifts = tuple(t("word.shift_not_acknowledged", teacher=r.teacher, classroom=r.classroom,
                     start=r.local_start.time().replace(tzinfo=None)) for r in f.not_acknowledged)
    return Requirement("acknowledged", State.WARNING,
                       t("readiness.unacknowledged", count=len(shifts), hours=hours, shifts=shifts),
                       Fix.UNACKNOWLEDGED, t("readiness.unacknowledged.fix"))


def _relay(f: Facts) -> Requirement:
    """Never blocking: the app sends while it runs; the relay's sends, while every PC sleeps, are refused."""
    if f.relay is relay_credentials.Held.CURRENT:
        return Requirement("relay", State.OK, t("readiness.relay.ok"), None, None)
    return Requirement("relay", State.WARNING, t("readiness.relay.old"), Fix.RELAY, t("readiness.relay.fix"))


def _line_works(w: line_works.WorksFacts) -> Requirement:
    """Never blocking: LINE WORKS reaches only its own teachers; whoever it cannot reach is named under
    "teachers", blocking when it is nobody at all."""
    state = line_works.status(set_up=w.set_up, keyring_problem=w.keyring_problem, last_test=w.last_test,
                              refused=w.refused)
    if state is line_works.Status.KEYRING:
        return Requirement("line_works", State.WARNING,
                           t("readiness.line_works.keyring", detail=w.keyring_problem or ""), Fix.KEYRING,
                           t("readiness.keyring.fix"))
    if state is line_works.Status.NOT_SET_UP:
        says = t("readiness.line_works.missing", count=w.teachers) if w.teachers else t("line_works.state.not_set_up")
        return Requirement("line_works", State.WARNING, says, Fix.LINE_WORKS, t("readiness.line_works.fix"))
    if state in (line_works.Status.REFUSED, line_works.Status.TEST_FAILED):
        return Requirement("line_works", State.WARNING, line_works.says(state, w.last_test, w.refused_since),
                           Fix.LINE_WORKS, t("readiness.line_works.fix"))
    tested = (t("readiness.line_works.tested", at=w.last_test.at.astimezone()) if w.last_test is not None
              else t("readiness.line_works.not_tested"))
    return Requirement("line_works", State.OK, t("readiness.line_works.ok", count=w.teachers), None, None, (tested,))


def _line_works_rooms(w: line_works.WorksFacts) -> list[Requirement]:
    """Never blocking: without its LINE WORKS channel a classroom's month waits for one (or goes to its
    LINE group); reminders go to each teacher all the same."""
    if not w.without_channel:
        return [Requirement("line_works_rooms", State.OK, t("readiness.line_works.rooms_ok", count=w.with_channel),
                            None, None)] if w.with_channel else []
    names = tuple(t("readiness.line_works.rooms_missing_one", classroom=name) for name in w.without_channel)
    return [Requirement("line_works_rooms", State.WARNING,
                        t("readiness.line_works.rooms_missing", count=len(names)), Fix.CLASSROOMS,
                        t("readiness.line_works.rooms_fix"), names)]


def _teachers_page(p: teachers_page.PageSettings) -> Requirement:
    """Only once the manager turned the page on; never blocking: messages go, without the page's buttons."""
    if not p.has_ids:
        return Requirement("teachers_page", State.WARNING, t("readiness.pages.no_ids"), Fix.TEACHERS_PAGE,
                           t("readiness.pages.fix"))
    if p.relay_url is None:
        return Requirement("teachers_page", State.WARNING, t("readiness.pages.no_relay"), Fix.TEACHERS_PAGE,
                           t("readiness.pages.fix"))
    return Requirement("teachers_page", State.OK, t("readiness.pages.ok"), None, None)
