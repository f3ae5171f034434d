"""The month as Flex messages (core/messages/month_flex.py): the largest realistic month stays within
LINE's limits as the LINE emulator checks them, loses no shift, and marks what changed."""

from __future__ import annotations

import pytest

from core.emulator import validation
from core.messages import flex_text, month_flex
from core.texts.formats import Language

GROUP = "C" + "1" * 32
USER = "U" + "2" * 32


def _big_month(*, revision: int = 1, teachers: int = 30, language: Language = "ja") -> month_flex.MonthFacts:
    """Every teacher on every day of a 31-day month, twice a day, with long names: more than any classroom."""
    names = [f"長谷川 {i:02d} 由紀子さん" for i in range(teachers)]
    cells = {name: {day: ["09:00-12:30", "17:00-21:30"] for day in range(1, 32)} for name in names}
    changed = frozenset((name, day) for name in names for day in range(1, 32)) if revision > 1 else frozenset()
    return month_flex.MonthFacts("さくら教室 駅前本校", 2026, 12, revision, cells, changed, language)


@pytest.mark.parametrize("revision", [1, 2])
@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_largest_realistic_month_stays_within_lines_limits(revision: int, language: Language) -> None:
    facts = _big_month(revision=revision, language=language)
    messages = month_flex.group_messages(facts)
    assert validation.check_push({"to": GROUP, "messages": messages}) == []
    assert 1 < len(messages) <= month_flex.MESSAGES_PER_PUSH
    for message in messages:
        assert month_flex.size(message["contents"]) <= month_flex.MESSAGE_BYTES
        assert len(message["contents"]["contents"]) <= month_flex.CAROUSEL_BUBBLES
        assert len(message["altText"]) <= month_flex.ALT_TEXT_LIMIT
    # Nothing is lost in the splitting: every teacher's every day is there once.
    rows = [text for message in messages for bubble in message["contents"]["contents"]
            for text in flex_text.lines(bubble["body"]) if "09:00-12:30" in text]
    assert len(rows) == 30 * 31
    assert all(row.startswith("● ") for row in rows) == (revision > 1)


def test_parts_of_a_split_month_say_which_part_they_are() -> None:
    messages = month_flex.group_messages(_big_month())
    assert [m["altText"][-len("（3件中1件目）"):] for m in messages][0].endswith("件中1件目）")
    assert len({m["altText"] for m in messages}) == len(messages)


def test_a_month_no_push_can_carry_is_refused_rather_than_cut() -> None:
    with pytest.raises(month_flex.MonthTooLarge) as raised:
        month_flex.group_messages(_big_month(teachers=200))
    assert raised.value.messages > month_flex.MESSAGES_PER_PUSH


def test_a_teachers_month_is_one_bubble_within_the_limits_and_marks_changes() -> None:
    facts = _big_month(revision=2)
    name = sorted(facts.cells)[0]
    message = month_flex.teacher_message(facts, name)
    assert validation.check_push({"to": USER, "messages": [message]}) == []
    assert message["contents"]["type"] == "bubble"
    body = flex_text.lines(message["contents"]["body"])
    assert len(body) == 31 and body[0] == "● 12月1日(火)  09:00-12:30, 17:00-21:30"
    assert "前回から変わったシフトに●を付けています。" in flex_text.lines(message["contents"]["header"])


def test_a_shift_that_went_away_reads_as_no_shift_and_is_marked() -> None:
    facts = month_flex.MonthFacts("本校", 2026, 12, 2, {"佐藤": {3: ["16:00-21:00"]}, "鈴木": {}},
                                  frozenset({("鈴木", 4)}), "en")
    [message] = month_flex.group_messages(facts)
    week = message["contents"]["contents"][0]
    assert flex_text.lines(week["body"]) == ["Thu 3 Dec", "佐藤  16:00-21:00", "Fri 4 Dec", "● 鈴木  no shift"]
    assert month_flex.teacher_text(facts, "鈴木").splitlines() == [
        "鈴木's shifts, December 2026", "本校", "Changed since the last roster: marked ●", "● Fri 4 Dec  no shift"]
