"""The 了解 handler and the availability buttons share LINE's postbacks: each reads only data with its
own prefix (`ack:`, `cv:`, `av:`), and the 了解 handler says nothing about another feature's, not
even on a box whose keyring cannot give it its key."""

from __future__ import annotations

import datetime as dt
import logging

import pytest

from core.store.db import Database


def test_the_ack_handler_passes_over_another_feature_s_postback_without_a_word_even_without_a_keyring(
        db: Database, caplog: pytest.LogCaptureFixture) -> None:
    import keyring
    from keyring.backends import fail

    from core.receiving.acknowledge import AckHandler
    from core.receiving.events import ReceivedEvent

    keyring.set_keyring(fail.Keyring())  # a box without a keyring: the 了解 key cannot be read
    event = ReceivedEvent(event_id="01ABC", type="postback", source_type="user", user_id=f"U{1:032x}", group_id=None,
                          room_id=None, is_redelivery=False, occurred_at=None,
                          body={"postback": {"data": "av:1:1:5:y:" + "A" * 43}})
    with caplog.at_level(logging.DEBUG, logger="core.receiving.acknowledge"), db.write() as s:
        AckHandler().handle(s, event, now=dt.datetime(2026, 12, 1, tzinfo=dt.UTC))
    assert [r.getMessage() for r in caplog.records if r.name == "core.receiving.acknowledge"] == []
