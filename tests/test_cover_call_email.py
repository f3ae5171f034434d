"""A call for cover that reaches a teacher by e-mail (their LINE could not take it) cannot carry the
"I can cover" button, which needs a tap that comes back: the e-mail asks them to tell the manager
instead, and says nothing of a button; on LINE the call keeps its button."""

from __future__ import annotations

import datetime as dt

from core.roster import channel_choice, cover
from core.sending import builders
from core.sending.kinds import cover_call
from core.store import ack_key
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import ContactRule, Delivery, ShiftStatus
from tests import factories as f

NOW = dt.datetime(2026, 12, 1, 0, 0, tzinfo=dt.UTC)
DAY = dt.date(2026, 12, 3)


def test_the_e_mail_copy_of_a_call_asks_to_tell_the_manager_and_promises_no_button(db: Database) -> None:
    with db.write() as s:
        keys.SMTP_FROM.write(s, "office@example.com")
        ack_key.signing_key(s)  # the keyring holds the buttons' key: the call is made with its button
        room = f.classroom(s, "Main", language="en", quiet_hours=None)
        sato = f.teacher(s, "Sato", 1)
        suzuki = f.teacher(s, "Suzuki", 2, email="suzuki@example.com", email_opt_in=True,
                           channel=channel_choice.Choice(ContactRule.EVERY, ("line", "email")))
        shift = f.shift(s, room, sato, DAY, "16:00", "21:00", now=NOW, status=ShiftStatus.CONFIRMED)
        request = cover.ask(s, shift.id, sato.id, now=NOW, reason="sick")
        [delivery_id] = cover_call.call(s, request.id, now=NOW, teacher_ids=[suzuki.id])
        delivery = s.get(Delivery, delivery_id)
        assert delivery is not None
        on_line = builders.prepare(s, delivery, NOW, f.home_paths())
        assert "tap “I can cover”" in str(on_line.messages) and "postback" in str(on_line.messages)
        # The copy that goes by e-mail instead, as a fallback makes it.
        delivery.channel, delivery.recipient = "email", "suzuki@example.com"
        mailed = builders.prepare(s, delivery, NOW, f.home_paths())
    assert mailed.mail is not None
    text = mailed.mail.text
    assert text.startswith("Dear Suzuki,"), text  # the e-mail greets the teacher it is for
    assert "Sato cannot take this shift (sick)" in text and "please tell the manager" in text, text
    assert "I can cover" not in text and "tap" not in text, text
    assert "I can cover" not in (mailed.mail.html or "")
