"""Each channel's driver brings its own words: its error codes and cancel reasons, with their English and
Japanese, registered with it and gone with it. Core keeps only the codes every channel shares, and a row
stored before the codes moved still shows its words."""

from __future__ import annotations

import pytest

from core.channels import line, registry
from core.kinds import registry as kinds
from core.outbox import policy
from core.outbox.policy import CancelReason, ChannelFailure, ErrorCode
from core.planning import fallback
from core.sending.outgoing import CancelDelivery
from core.store.models import Delivery
from core.texts import Text, render, t
from core.texts.catalog import CATALOG
from tests.chat_channel import KEY, ChatDriver

CHANNEL_PREFIXES = ("LINE_", "SMTP_", "EMAIL_", "WEBHOOK_")


def test_core_keeps_no_code_named_after_a_channel() -> None:
    assert [code for code in ErrorCode if code.value.startswith(CHANNEL_PREFIXES)] == []
    # A channel's send-time reasons are its driver's (the shared UNREACHABLE aside).
    theirs = {reason for driver in registry.DRIVERS.values() if driver.cancel_reasons is not None
              for reason in driver.cancel_reasons.words}
    assert theirs >= {"LINE_NOT_OPTED_IN", "LINE_UNREACHABLE", "LINE_UNFOLLOWED", "EMAIL_NOT_OPTED_IN"}
    assert {reason.value for reason in CancelReason} & theirs == {"UNREACHABLE"}


@pytest.mark.parametrize(("code", "status", "en", "ja"), [
    ("LINE_404", 404, "LINE does not know this recipient (HTTP 404)", "LINEにこの宛先が見つかりません（HTTP 404）"),
    ("LINE_5XX", 500, "LINE had a server error (HTTP 500)", "LINEのサーバーでエラーが発生しました（HTTP 500）"),
    ("SMTP_5XX", 550, "the mail server refused the message (SMTP 550)", "メールサーバーがメールを受け付けませんでした（SMTP 550）"),
    ("WEBHOOK_4XX", 404, "the webhook address refused the request (HTTP 404)",
     "Webhookのアドレスがリクエストを受け付けませんでした（HTTP 404）"),
])
def test_an_error_stored_before_the_codes_moved_still_shows_its_words(code: str, status: int, en: str, ja: str) -> None:
    # As deliveries.last_error_message kept it: the code and its parameters, encoded.
    stored = policy.stored_error(Text(f"send_error.{code}", {"said": t("text.plain", text=""), "status": status}))
    shown = policy.shown_error(stored)
    assert isinstance(shown, Text)
    assert (render(shown, "en"), render(shown, "ja")) == (en, ja)


@pytest.mark.parametrize(("reason", "en"), [
    ("LINE_NOT_OPTED_IN", "the teacher does not receive LINE messages — LINE_NOT_OPTED_IN"),
    ("LINE_UNFOLLOWED", "the teacher blocked the LINE account — LINE_UNFOLLOWED"),
    ("EMAIL_NOT_OPTED_IN", "the teacher does not receive e-mail — EMAIL_NOT_OPTED_IN"),
])
def test_a_channels_cancel_reason_keeps_its_stored_value_and_words(reason: str, en: str) -> None:
    assert render(kinds.cancel_text(reason), "en") == en
    assert render(kinds.cancel_text(reason), "ja").endswith(f"（{reason}）")
    assert CancelDelivery(reason).reason == reason  # a registered driver declares it
    with pytest.raises(ValueError):
        CancelDelivery(reason + "X")


def test_the_line_driver_names_its_reasons() -> None:
    reasons = line.DRIVER.cancel_reasons
    assert reasons is not None
    assert (reasons.not_agreed, reasons.unreachable, reasons.blocked) == (
        "LINE_NOT_OPTED_IN", "LINE_UNREACHABLE", "LINE_UNFOLLOWED")


def test_a_channel_brings_its_words_and_takes_them_away() -> None:
    assert "send_error.CHAT_GONE" not in CATALOG
    undo = registry.register_channel(ChatDriver())
    try:
        said = t("send_error.CHAT_GONE", status=404, said=t("text.plain", text=""))
        assert (render(said, "en"), render(said, "ja")) == ("no such chat room (HTTP 404)",
                                                            "チャットルームがありません（HTTP 404）")
    finally:
        undo()
    assert "send_error.CHAT_GONE" not in CATALOG
    with pytest.raises(KeyError):
        t("send_error.CHAT_GONE")


def test_a_channel_cannot_give_a_code_the_catalog_has_other_words_for() -> None:
    class Clashing(ChatDriver):
        texts = {"send_error.TIMEOUT": ("the chat timed out", "チャットが時間切れです")}

    before = dict(CATALOG)
    with pytest.raises(ValueError, match="send_error.TIMEOUT"):
        registry.register_channel(Clashing())
    assert not registry.registered(KEY) and before == CATALOG


def test_what_a_failure_means_is_asked_of_the_deliverys_channel() -> None:
    undo = registry.register_channel(ChatDriver())
    try:
        assert fallback.failure(Delivery(channel=KEY), code="CHAT_GONE", at_recipient=True,
                                dead=False) == ChannelFailure(True, True)
        # LINE's rule is LINE's: its 404 means the teacher cannot be reached there, the chat's does not.
        assert fallback.failure(Delivery(channel=KEY), code="LINE_404", at_recipient=False,
                                dead=False) == ChannelFailure(False, False)
        assert fallback.failure(Delivery(channel="line"), code="LINE_404", at_recipient=False,
                                dead=False) == ChannelFailure(True, True)
    finally:
        undo()
    # A channel no longer registered: only the shared codes' rule.
    assert fallback.failure(Delivery(channel=KEY), code="CHAT_GONE", at_recipient=True,
                            dead=True) == ChannelFailure(True, False)


@pytest.mark.parametrize(("code", "en"), [("WEBHOOK_NOT_CONFIGURED", "no webhook is set up for alerts"),
                                          ("MANAGER_EMAIL_NOT_CONFIGURED", "no e-mail address is set up for alerts"),
                                          ("MANAGER_LINE_NOT_CONFIGURED", "the manager's LINE user ID is not set")])
def test_the_manager_s_address_not_set_is_its_channel_s_reason_in_its_words(code: str, en: str) -> None:
    assert code not in {reason.value for reason in CancelReason}  # no longer core's
    assert kinds.cancel_words(code) is None  # and no kind names it
    assert render(policy.cancel_text(code), "en") == f"{en} — {code}"
    assert CancelDelivery(code).reason == code
    channel = {"WEBHOOK_NOT_CONFIGURED": "webhook", "MANAGER_EMAIL_NOT_CONFIGURED": "email"}.get(code, "line")
    undo = registry.register_channel(ChatDriver())
    undo()  # registering and undoing another channel leaves these words alone
    assert render(policy.cancel_text(code), "en") == f"{en} — {code}"
    assert f"cancel.{code}" in registry.driver(channel).texts
