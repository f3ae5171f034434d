"""The teachers' page's settings: saving the LINE Login channel ID and the LIFF ID with their checks,
the opt-in, whether the page is ready, and the readiness item that appears once it is on (a real
SQLite file)."""

from __future__ import annotations

import datetime as dt

import pytest

from core.errors import ValidationError
from core.pages import status
from core.setup import readiness, teachers_page
from core.setup.readiness import Fix, State
from core.store import setting_keys as keys
from core.store.db import Database
from core.texts import render

NOW = dt.datetime(2026, 12, 1, 3, 0, tzinfo=dt.UTC)
CHANNEL, LIFF = "1657000000", "1657000000-AbCdEfGh"
RELAY = "https://shiftcast-relay.example.workers.dev"


def _relay(db: Database, url: str | None = RELAY) -> None:
    with db.write() as s:
        keys.RELAY_URL.write(s, url)


def _ready(db: Database) -> bool:
    with db.read() as s:
        return status.page_ready(s)


def test_the_page_is_ready_only_when_on_with_both_ids_and_a_relay(db: Database) -> None:
    assert not _ready(db)
    saved = teachers_page.save(db, login_channel_id=f" {CHANNEL} ", liff_id=LIFF, enabled=True)
    assert (saved.login_channel_id, saved.liff_id, saved.enabled, saved.endpoint) == (CHANNEL, LIFF, True, None)
    assert not _ready(db) and not saved.ready  # no relay yet
    _relay(db)
    assert _ready(db) and teachers_page.read(db).ready
    assert teachers_page.read(db).endpoint == RELAY + "/liff/"
    with db.read() as s:
        assert status.ready_liff_id(s) == LIFF
    teachers_page.set_enabled(db, False)
    assert not _ready(db)
    assert teachers_page.read(db).liff_id == LIFF  # turning it off keeps the IDs
    teachers_page.set_enabled(db, True)
    assert _ready(db)
    _relay(db, None)
    assert not _ready(db)


@pytest.mark.parametrize(("channel", "liff", "says_en", "says_ja"), [
    ("", LIFF, "paste both the LINE Login channel ID and the LIFF ID, or leave both empty",
     "LINEログインのチャネルIDとLIFF IDの両方を貼り付けるか、両方とも空にしてください。"),
    ("16570-00000", LIFF, "must be digits only", "数字のみ"),
    (CHANNEL, "1657000000-short", "a LIFF ID (digits, a hyphen", "LIFF ID（数字、ハイフン"),
    (CHANNEL, "https://example.com/1657000000-AbCdEfGh", "a LIFF ID (digits, a hyphen", "LIFF ID（数字、ハイフン"),
    ("1657000001", LIFF, "belongs to LINE Login channel 1657000000, not 1657000001",
     "LINEログインのチャネル 1657000000 のもので"),
    ("2000000000", "2000000000-AbCdEfGh", "is the Messaging API channel's ID", "Messaging APIチャネルのID"),
])
def test_bad_ids_are_refused_with_what_is_wrong_in_both_languages_and_change_nothing(
        db: Database, channel: str, liff: str, says_en: str, says_ja: str) -> None:
    with db.write() as s:
        keys.LINE_CHANNEL_ID.write(s, "2000000000")  # the Messaging API channel's
    teachers_page.save(db, login_channel_id="1111111111", liff_id="1111111111-Keep1234", enabled=False)
    with pytest.raises(ValidationError) as refused:
        teachers_page.save(db, login_channel_id=channel, liff_id=liff, enabled=False)
    assert says_en in render(refused.value.text, "en")
    assert says_ja in render(refused.value.text, "ja")
    kept = teachers_page.read(db)
    assert (kept.login_channel_id, kept.liff_id) == ("1111111111", "1111111111-Keep1234")


def test_turning_the_page_on_needs_both_ids_and_empty_ids_clear_them(db: Database) -> None:
    with pytest.raises(ValidationError) as refused:
        teachers_page.save(db, login_channel_id="", liff_id="", enabled=True)
    assert "before turning it on" in render(refused.value.text, "en")
    with pytest.raises(ValidationError):
        teachers_page.set_enabled(db, True)
    assert not teachers_page.read(db).enabled
    teachers_page.save(db, login_channel_id=CHANNEL, liff_id=LIFF, enabled=False)
    pasted = teachers_page.save(db, login_channel_id=CHANNEL, liff_id=f"https://liff.line.me/{LIFF}", enabled=False)
    assert pasted.liff_id == LIFF  # the LIFF URL the console shows beside the ID is taken for it
    cleared = teachers_page.save(db, login_channel_id=" ", liff_id="", enabled=False)
    assert (cleared.login_channel_id, cleared.liff_id, cleared.enabled) == (None, None, False)


def test_the_opt_in_says_what_the_relay_keeps_and_until_when() -> None:
    from core.texts import t
    assert render(t("teachers_page.opt_in"), "en") == (
        "Your relay will keep each paired teacher's name and published shifts, open availability requests and "
        "cover calls, until 7 days after each month ends")


def _item(db: Database) -> readiness.Requirement | None:
    found = {r.key: r for r in readiness.check(db, now=NOW, autostart=True)}
    return found.get("teachers_page")


def test_the_readiness_item_appears_once_the_page_is_on_and_says_what_is_missing(db: Database) -> None:
    assert _item(db) is None  # off: nothing to say
    with db.write() as s:
        keys.PAGES_ENABLED.write(s, True)  # on, as a later clearing of the IDs could leave it
    item = _item(db)
    assert item is not None and (item.state, item.fix) == (State.WARNING, Fix.TEACHERS_PAGE)
    assert "LINE Login channel ID or LIFF ID is missing" in render(item.says, "en")
    assert item.fix_says is not None and render(item.fix_says, "ja") == "「LINEに接続」の「講師ページ」の手順を完了してください。"
    teachers_page.save(db, login_channel_id=CHANNEL, liff_id=LIFF, enabled=True)
    item = _item(db)
    assert item is not None and (item.state, item.fix) == (State.WARNING, Fix.TEACHERS_PAGE)
    assert "no relay is attached" in render(item.says, "en")
    _relay(db)
    item = _item(db)
    assert item is not None and (item.state, item.fix) == (State.OK, None)
    assert render(item.says, "en") == "teachers' page on"
