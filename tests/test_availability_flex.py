"""The availability request as LINE receives it (core/messages/availability_flex.py), pure: every month
shape fits one carousel within LINE's limits as the emulator checks them, every button's data is
signed and reads back to its day and answer (and nothing else does), the time pickers follow LINE's
reference, and a classroom in English gets English words."""

from __future__ import annotations

import datetime as dt

import pytest

from core.emulator.simulate import postback_actions
from core.emulator.validation import check_push, check_reply, compact_json_size
from core.messages import availability_flex as flex
from core.roster.availability_text import HOURS, NO, YES, DayAnswer
from core.texts.formats import Language

KEY = "k" * 43
USER = f"U{1:032x}"


def _asked(year: int, month: int, language: Language = "ja", **kwargs: object) -> flex.Asked:
    return flex.Asked(7, 42, "さくら教室" * 4, year, month, dt.date(year, month, 1) - dt.timedelta(days=5), language,
                      **kwargs)  # type: ignore[arg-type]


def _sign(payload: str) -> str:
    return flex.sign(KEY, payload)


# Six-week months (31 days from a Saturday or Sunday), a 28-day February that is exactly four weeks, a leap February.
@pytest.mark.parametrize(("year", "month"), [(2026, 8), (2027, 1), (2026, 2), (2027, 2), (2028, 2), (2026, 12)])
def test_every_month_is_one_carousel_within_line_s_limits(year: int, month: int) -> None:
    answers = {dt.date(year, month, d): DayAnswer(dt.date(year, month, d), HOURS, dt.time(17, 30), dt.time(21, 45))
               for d in range(1, 29)}  # answered, so every day's label is its longest
    for asked in (_asked(year, month), _asked(year, month, "en", reminder=True, answers=answers)):
        messages = flex.messages(asked, _sign)
        assert len(messages) == 1
        assert check_push({"to": USER, "messages": messages}) == []
        assert compact_json_size(messages[0]["contents"]) <= 50 * 1024
        days = (dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)).day
        buttons = postback_actions(messages[0])
        pickers = postback_actions(messages[0], "datetimepicker")
        assert len(buttons) == 2 * days and len(pickers) == days
        assert all(len(a["data"]) <= 300 for a in buttons + pickers)
        taps = [flex.read_tap(KEY, a["data"]) for a in buttons + pickers]
        assert {(t.day, t.code) for t in taps if t} == {(d, c) for d in range(1, days + 1) for c in "ynh"}
        assert all(t is not None and (t.request_id, t.teacher_id) == (7, 42) for t in taps)


def test_only_data_signed_with_the_key_for_a_day_reads_back() -> None:
    data = _sign(flex.payload(7, 42, 5, "y"))
    assert flex.read_tap(KEY, data) == flex.Tap(7, 42, 5, "y")
    assert flex.read_tap("another key", data) is None
    assert flex.read_tap(KEY, data.replace(":5:y:", ":6:y:")) is None  # another day, the 5th's MAC
    assert flex.read_tap(KEY, _sign("av:7:42:5:z")) is None  # no such answer
    assert flex.read_tap(KEY, _sign("ack:7")) is None  # a 了解 button's
    assert flex.read_tap(KEY, _sign("cv:ask:7:42:5:y")) is None  # a cover button's
    assert not flex.is_ours(_sign("ack:7")) and flex.is_ours(data)


def test_the_follow_up_picker_and_the_summary_speak_the_classroom_s_language() -> None:
    answers = {dt.date(2027, 1, 4): DayAnswer(dt.date(2027, 1, 4), YES),
               dt.date(2027, 1, 5): DayAnswer(dt.date(2027, 1, 5), NO),
               dt.date(2027, 1, 6): DayAnswer(dt.date(2027, 1, 6), HOURS, dt.time(17), None)}
    english, japanese = _asked(2027, 1, "en", answers=answers), _asked(2027, 1, "ja", answers=answers)
    picker = flex.until_picker(english, dt.date(2027, 1, 6), dt.time(17), _sign)
    reply = {"type": "text", "text": flex.until_question(english, dt.date(2027, 1, 6)), "quickReply": picker}
    assert check_reply({"replyToken": "t", "messages": [reply]}) == []
    [action] = postback_actions(reply, "datetimepicker")
    assert (action["mode"], action["min"], action["label"]) == ("time", "17:00", "Until when")
    assert "Until when?" in reply["text"]
    assert "3 days answered, 28 not yet" in flex.summary(english)
    assert "Wed 6 Jan 17:00–" in flex.summary(english)
    assert "1月6日(水) 17:00〜" in flex.summary(japanese) and "回答 3日、未回答 28日" in flex.summary(japanese)
    assert flex.tap_summary(english, dt.date(2027, 1, 6)).startswith(
        "Wed 6 Jan: 17:00–. 3 days of January 2027 answered, 28 not yet.")
    assert flex.tap_summary(japanese, dt.date(2027, 1, 5)).startswith("1月5日(火)：× を受け付けました")
    assert flex.messages(english, _sign)[0]["altText"].startswith("When can you work in January 2027?")


@pytest.mark.parametrize(("action", "problem"), [
    ({"type": "datetimepicker", "label": "△", "mode": "time"}, "action.data"),
    ({"type": "datetimepicker", "label": "△", "data": "d"}, "action.mode"),
    ({"type": "datetimepicker", "label": "△", "data": "d", "mode": "hour"}, "action.mode"),
    ({"type": "datetimepicker", "label": "△", "data": "d", "mode": "time", "initial": "17:00:00"}, "action.initial"),
    ({"type": "datetimepicker", "label": "△", "data": "d", "mode": "time", "initial": "24:00"}, "action.initial"),
    ({"type": "datetimepicker", "label": "△", "data": "d", "mode": "date", "initial": "17:00"}, "action.initial"),
    ({"type": "datetimepicker", "label": "△", "data": "d", "mode": "time", "min": "18:00", "max": "17:00"}, "action.min"),
    ({"type": "datetimepicker", "label": "△", "data": "d", "mode": "time", "initial": "09:00", "min": "17:00"},
     "action.initial"),
    ({"type": "datetimepicker", "label": "△", "data": "x" * 301, "mode": "time"}, "action.data"),
])
def test_the_emulator_refuses_time_pickers_line_s_reference_refuses(action: dict[str, object], problem: str) -> None:
    bubble = {"type": "bubble", "body": {"type": "box", "layout": "vertical", "contents": [
        {"type": "button", "action": action}]}}
    problems = check_push({"to": USER, "messages": [{"type": "flex", "altText": "a", "contents": bubble}]})
    assert [p for p, _ in problems] == [f"messages[0].contents.body.contents[0].{problem}"]
