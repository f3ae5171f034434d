"""Reading a teacher's typed availability (core/roster/availability_text.py): a table of messages and
what each says for the days of December 2026 (the 1st a Tuesday), the ambiguous ones refused; and the
pure rules of requests: late after the deadline's day, the automatic reminder's day."""

from __future__ import annotations

import datetime as dt

import pytest

from core.roster.availability import is_late, reminder_due
from core.roster.availability_text import HOURS, NO, YES, DayAnswer, parse, parse_reply

DEC = (2026, 12)
T = dt.time


def d(day: int) -> dt.date:
    return dt.date(2026, 12, day)


TUESDAYS_THURSDAYS = [1, 3, 8, 10, 15, 17, 22, 24, 29, 31]


@pytest.mark.parametrize(("text", "expected"), [
    ("全部OK", [DayAnswer(d(n), YES) for n in range(1, 32)]),
    ("全部ＯＫ！", [DayAnswer(d(n), YES) for n in range(1, 32)]),  # full width, as a phone types it
    ("いつでも大丈夫", [DayAnswer(d(n), YES) for n in range(1, 32)]),
    ("全部×", [DayAnswer(d(n), NO) for n in range(1, 32)]),
    ("12/5 ×", [DayAnswer(d(5), NO)]),
    ("12/5(土) ×", [DayAnswer(d(5), NO)]),  # a day as the e-mailed request lists it
    ("12/5(sat)× 12月6日(日) 17時以降", [DayAnswer(d(5), NO), DayAnswer(d(6), HOURS, T(17))]),
    ("12/5×", [DayAnswer(d(5), NO)]),
    ("１２／５　×", [DayAnswer(d(5), NO)]),
    ("5日 ○", [DayAnswer(d(5), YES)]),
    ("12月5日 ng", [DayAnswer(d(5), NO)]),
    ("火木 17時以降", [DayAnswer(d(n), HOURS, T(17)) for n in TUESDAYS_THURSDAYS]),
    ("火・木 17:00から", [DayAnswer(d(n), HOURS, T(17)) for n in TUESDAYS_THURSDAYS]),
    ("火曜 ×", [DayAnswer(d(n), NO) for n in (1, 8, 15, 22, 29)]),
    ("Tue/Thu 17:00~", [DayAnswer(d(n), HOURS, T(17)) for n in TUESDAYS_THURSDAYS]),
    ("tuesdays ng", [DayAnswer(d(n), NO) for n in (1, 8, 15, 22, 29)]),
    ("All OK", [DayAnswer(d(n), YES) for n in range(1, 32)]),
    ("12/5 17時-21時", [DayAnswer(d(5), HOURS, T(17), T(21))]),
    ("12/5 17:00〜21:30", [DayAnswer(d(5), HOURS, T(17), T(21, 30))]),
    ("12/5 21時まで", [DayAnswer(d(5), HOURS, None, T(21))]),
    ("12/5 × 12/6 ○", [DayAnswer(d(5), NO), DayAnswer(d(6), YES)]),
    ("12/5 ×\n12/6 ○、12/7 ○", [DayAnswer(d(5), NO), DayAnswer(d(6), YES), DayAnswer(d(7), YES)]),
])
def test_what_reads_unambiguously(text: str, expected: list[DayAnswer]) -> None:
    assert parse(text, *DEC) == tuple(expected)


@pytest.mark.parametrize("text", [
    "たぶん大丈夫",  # no day, no answer
    "5 ×",  # a bare number is not a day
    "1/5 ×",  # another month
    "12/32 ×",  # a day December lacks
    "12/5 × 12/5 ○",  # one day, two answers
    "木 ○ 12/3 ×",  # the 3rd is a Thursday: two answers
    "17時以降",  # hours without days
    "12/5",  # a day without an answer
    "12/5 12/6 ×",  # is the 5th × too?
    "12/5 17時",  # from, until or only then?
    "12/5 21時-17時",  # ends before it starts
    "12/5 17-21",  # bare numbers are not hours
    "tue thu ok",  # days after days: was an answer left out?
    "monkey ok",  # not a weekday
    "",
    "x" * 501,
])
def test_what_could_mean_more_than_one_thing_is_refused(text: str) -> None:
    assert parse(text, *DEC) is None


def test_an_answer_is_late_once_the_deadline_s_day_ended_on_the_classroom_s_clock() -> None:
    deadline = dt.date(2026, 12, 20)
    assert not is_late(dt.datetime(2026, 12, 20, 14, 59, tzinfo=dt.UTC), deadline, "Asia/Tokyo")  # 23:59 JST
    assert is_late(dt.datetime(2026, 12, 20, 15, 0, tzinfo=dt.UTC), deadline, "Asia/Tokyo")  # 00:00 JST the 21st


@pytest.mark.parametrize(("now", "reminded", "due"), [
    (dt.datetime(2026, 12, 17, 14, 59), None, False),  # 23:59 JST the 17th: the day before
    (dt.datetime(2026, 12, 17, 15, 0), None, True),  # 00:00 JST the 18th, three days before the 21st
    (dt.datetime(2026, 12, 19, 3, 0), None, True),  # still due later that window
    (dt.datetime(2026, 12, 19, 3, 0), dt.datetime(2026, 12, 18, 1, 0), False),  # reminded already
    (dt.datetime(2026, 12, 19, 3, 0), dt.datetime(2026, 12, 10, 1, 0), True),  # an earlier, manual reminder
    (dt.datetime(2026, 12, 21, 15, 0), None, False),  # the deadline ended
])
def test_the_automatic_reminder_falls_on_its_day(now: dt.datetime, reminded: dt.datetime | None, due: bool) -> None:
    def utc(value: dt.datetime | None) -> dt.datetime | None:
        return value.replace(tzinfo=dt.UTC) if value is not None else None

    asked = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    assert reminder_due(dt.date(2026, 12, 21), 3, "Asia/Tokyo", asked_at=asked, reminded_at=utc(reminded),
                        now=now.replace(tzinfo=dt.UTC)) is due
    assert not reminder_due(dt.date(2026, 12, 21), None, "Asia/Tokyo", asked_at=asked, reminded_at=None,
                            now=now.replace(tzinfo=dt.UTC))
    # Asked on the reminder's day itself: they were just asked.
    assert not reminder_due(dt.date(2026, 12, 21), 3, "Asia/Tokyo", asked_at=dt.datetime(2026, 12, 18, tzinfo=dt.UTC),
                            reminded_at=None, now=dt.datetime(2026, 12, 19, tzinfo=dt.UTC))



def test_a_reply_to_the_e_mailed_list_leaves_the_days_without_an_answer_unanswered() -> None:
    reply = "12/1(火) ○\n12/2(水)\n12/3(木) 17:00-21:00\n12/4(金)\n"
    assert parse_reply(reply, *DEC) == (DayAnswer(d(1), YES), DayAnswer(d(3), HOURS, T(17), T(21)))
    assert parse(reply, *DEC) is None  # as a LINE message, a day without its answer stays ambiguous
    assert parse_reply("12/2(水)\n12/4(金)", *DEC) is None  # nothing answered
    assert parse_reply("12/5 12/6 ×", *DEC) is None  # two days then one answer, on one line: still refused
