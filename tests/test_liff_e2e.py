"""The teachers' page in a real browser: headless Chromium at a phone's size (tests/browserfixtures.py).

First the phone itself: its size, and the LIFF stand-in's sign-in defined before the page's own
scripts run, on a page of the test's own served from loopback. Then the page for real, end to end: the
app's database (tests/liffscene.py: 本町教室, its teachers paired, its month published, an availability
request open, a cover call sent), the documents handed over by `relay sync`, the real relay on loopback
(wrangler dev) serving the page, the project's LINE emulator issuing and verifying the LIFF ID tokens and
serving the LIFF SDK stand-in; what a teacher does on the page comes back to the app at the next sync.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.by import By
from sqlalchemy import select

from core.emulator import LineEmulator
from core.pages import person
from core.relay.local import missing
from core.roster.availability_text import month_days
from core.store.db import Database
from core.store.models import (
    AvailabilityAnswer,
    AvailabilityAsked,
    AvailabilityRequest,
    CoverVolunteer,
    Delivery,
    Shift,
)
from core.store.paths import DataPaths
from tests import liffscene
from tests.browserfixtures import PHONE, phone, sign_in, sign_out, wait_for, wait_for_text  # noqa: F401 - phone is a fixture
from tests.linefixtures import emulator, line_ready  # noqa: F401 - fixtures

ROOT = Path(__file__).resolve().parent.parent

# The page's first script copies what it found, so what a later script could set does not count.
_PROBE = """<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
<script>window.found = JSON.stringify(window.__LIFF_STAND_IN__ || null);</script></head>
<body><p id="out"></p><script>
document.getElementById("out").textContent = window.found + " " + innerWidth + "x" + innerHeight + " " + devicePixelRatio;
</script></body></html>"""


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def probe_site(tmp_path: Path) -> Iterator[str]:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text(_PROBE, encoding="utf-8")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(tmp_path / "site")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_the_phone_is_390_by_844_and_the_stand_in_is_there_before_the_pages_scripts(
        phone: WebDriver, probe_site: str) -> None:
    width, height = PHONE
    phone.get(probe_site)
    wait_for_text(phone, f"null {width}x{height} 1", css="#out")

    signed = sign_in(phone, "header.claims.signature", language="en")
    phone.get(probe_site)
    wait_for_text(phone, f'{{"idToken":"header.claims.signature","language":"en"}} {width}x{height} 1', css="#out")

    sign_out(phone, signed)
    phone.get(probe_site)
    wait_for_text(phone, f"null {width}x{height} 1", css="#out")
    shot = phone.get_screenshot_as_png()
    assert shot[16:24] == width.to_bytes(4, "big") + height.to_bytes(4, "big")  # the PNG's IHDR: 390×844


def test_ci_installs_the_browser_and_the_readme_says_so() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    installed = ci.split("apt_packages=(", 1)[1].split(")", 1)[0].split()
    assert {"chromium", "chromium-driver"} <= set(installed)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "apt-get install -y chromium chromium-driver" in readme


# ----- the page for real: the app's database, `relay sync`, the relay on loopback, the emulator as LINE -----


@pytest.fixture
def world(db: Database, paths: DataPaths, line_ready: LineEmulator, tmp_path: Path) -> Iterator[liffscene.World]:
    """本町教室's world (tests/liffscene.py) handed to the real relay by a sync, the page turned on."""
    why = missing()
    if why is not None:
        pytest.skip(str(why))
    with liffscene.page_relay(tmp_path / "relay", line_ready) as relay:
        yield liffscene.ready(db, paths, line_ready, relay)


def open_as(phone: WebDriver, world: liffscene.World, user_id: str, view: str, **params: str | int) -> None:
    """The person opens the page at `view` from LINE: their ID token, the page's address on the relay."""
    sign_in(phone, world.token(user_id))
    phone.get(world.page(view, **params))
    wait_for(phone, f'#view-title[data-view="{view}"]')


def click(phone: WebDriver, css: str) -> None:
    """A tap on the element, scrolled to the middle of the screen first as a thumb would: the page's tab bar
    stays at the bottom and covers what is scrolled only just into view."""
    element = wait_for(phone, css)
    phone.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
    element.click()


def shifts_of(db: Database, teacher_id: int) -> dict[int, Shift]:
    with db.read() as s:
        found = {row.id: row for row in s.scalars(select(Shift).where(Shift.teacher_id == teacher_id))}
        s.expunge_all()
    return found


@pytest.mark.slow
def test_a_teacher_sees_her_shifts_answers_availability_offers_cover_and_acknowledges_and_the_app_takes_it_in(
        world: liffscene.World, phone: WebDriver) -> None:
    scene, db = world.scene, world.db
    hanako = scene.teachers[liffscene.HANAKO]
    mine = shifts_of(db, hanako)
    reminded = mine[scene.acked_shift]
    open_as(phone, world, liffscene.HANAKO, "month", month=f"{reminded.local_date:%Y-%m}")
    card = wait_for(phone, f'article[data-shift="{reminded.id}"]')
    assert "16:00–20:00" in card.text
    shown = {int(str(e.get_attribute("data-shift"))) for e in phone.find_elements(By.CSS_SELECTOR, "article[data-shift]")}
    assert reminded.id in shown and shown <= set(mine), "only her own shifts"

    # 了解 on the shift her reminder asked about
    click(phone, f'article[data-shift="{reminded.id}"] button.primary')
    wait_for_text(phone, "了解済み", css=f'article[data-shift="{reminded.id}"]')

    # availability for next month: ○ on the 1st, × on the 2nd, 16:00–20:00 on the 3rd
    open_as(phone, world, liffscene.HANAKO, "availability", request=scene.request)
    form = f'section[data-request="{scene.request}"]'
    with db.read() as s:
        request = s.get(AvailabilityRequest, scene.request)
        assert request is not None
        closed = person.closed_in(s, request)  # 元日 and such: the calendar does not take them
    first, second, third = [d.isoformat() for d in month_days(request.year, request.month) if d not in closed][:3]
    click(phone, f'{form} button[data-date="{first}"]')
    for _ in range(2):
        click(phone, f'{form} button[data-date="{second}"]')
    for _ in range(3):
        click(phone, f'{form} button[data-date="{third}"]')
    wait_for(phone, "dialog #hours-from")
    # A time input's typed form depends on the browser's locale (16:00 or 04:00 PM): set its value as a pick would.
    phone.execute_script("document.getElementById('hours-from').value = '16:00';"
                         "document.getElementById('hours-to').value = '20:00';")
    click(phone, "#hours-ok")
    assert wait_for(phone, f'{form} button[data-date="{third}"]').get_attribute("data-answer") == "hours"
    assert wait_for(phone, f'{form} button[data-date="{second}"]').get_attribute("data-answer") == "no"
    click(phone, f'{form} button[data-submit="{scene.request}"]')
    wait_for_text(phone, "送信しました", css="#status")

    # "I can cover" on 田中 一郎's call
    open_as(phone, world, liffscene.HANAKO, "covers")
    call = f'article[data-call="{scene.call}"]'
    assert liffscene.NAMES[liffscene.ICHIRO] in wait_for(phone, call).text
    click(phone, f"{call} button.primary")
    wait_for_text(phone, "引き受けると伝えました", css=call)

    # The app takes all three in at its next sync, as if she had answered in the chat.
    summary = liffscene.relay_sync(db, world.paths)
    assert summary.events_new == 3 and summary.events_handled == 3
    with db.read() as s:
        answers = {a.local_date.isoformat(): a for a in s.scalars(select(AvailabilityAnswer).where(
            AvailabilityAnswer.request_id == scene.request, AvailabilityAnswer.teacher_id == hanako,
            AvailabilityAnswer.replaced_at.is_(None)))}
        assert {d: (a.answer, a.source) for d, a in answers.items()} == {
            first: ("yes", "page"), second: ("no", "page"), third: ("hours", "page")}
        assert (answers[third].start_time, answers[third].end_time) == (dt.time(16, 0), dt.time(20, 0))
        assert s.scalar(select(CoverVolunteer.teacher_id).where(CoverVolunteer.request_id == scene.call)) == hanako
        reminder = s.get(Delivery, scene.reminder)
        assert reminder is not None and reminder.acknowledged_at is not None

    # Opened again after the sync, the page shows what the app now holds: acknowledged, offered, answered.
    open_as(phone, world, liffscene.HANAKO, "month", month=f"{reminded.local_date:%Y-%m}")
    wait_for_text(phone, "了解済み", css=f'article[data-shift="{reminded.id}"]')
    open_as(phone, world, liffscene.HANAKO, "covers")
    wait_for_text(phone, "引き受けると伝えました", css=f'article[data-call="{scene.call}"]')


@pytest.mark.slow
def test_the_classroom_month_shows_to_its_teachers_only(world: liffscene.World, phone: WebDriver) -> None:
    scene = world.scene
    open_as(phone, world, liffscene.HANAKO, "classroom", classroom=scene.room, month=scene.month)
    today = wait_for_text(phone, liffscene.NAMES[liffscene.JIRO], css=f'#classroom-days [data-date="{scene.today}"]')
    assert "16:00–20:00 田中 一郎" in today.text and "18:00–21:30 鈴木 次郎" in today.text

    # 高橋 由紀 teaches at 駅前教室 only: the relay refuses her 本町教室's month, whatever the page asks.
    open_as(phone, world, liffscene.YUKI, "classroom", classroom=scene.room, month=scene.month)
    wait_for_text(phone, liffscene.NAMES[liffscene.YUKI], css="#classroom-days")
    assert liffscene.NAMES[liffscene.JIRO] not in phone.find_element(By.ID, "main").text
    status, error = phone.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(`/liff/api/classroom?key=${arguments[0]}&month=${arguments[1]}`,"
        " {headers: {Authorization: `Bearer ${liff.getIDToken()}`}})"
        ".then(async (r) => done([r.status, (await r.json()).error]));", scene.room, scene.month)
    assert (status, error) == (403, "not_member")


@pytest.mark.slow
@pytest.mark.parametrize("token", ["expired", "another channel's", "forged"])
def test_a_token_the_relay_refuses_shows_open_again_from_line_and_no_data(
        world: liffscene.World, phone: WebDriver, token: str) -> None:
    if token == "expired":
        given = world.emulator.issue_id_token(liffscene.HANAKO, liffscene.LOGIN_CHANNEL_ID, expires_in=0)
    elif token == "another channel's":
        given = world.emulator.issue_id_token(liffscene.HANAKO, "9876543210")
    else:  # her real token's claims, signed by someone else
        header, claims, _ = world.token(liffscene.HANAKO).split(".")
        given = f"{header}.{claims}.{'A' * 86}"
    sign_in(phone, given)
    phone.get(world.page("month"))
    wait_for_text(phone, "LINEからもう一度開いてください", css="#main h1")
    assert phone.find_element(By.ID, "tabs").get_attribute("hidden") is not None
    assert not phone.find_elements(By.CSS_SELECTOR, "article[data-shift]")
    assert "16:00" not in phone.find_element(By.TAG_NAME, "body").text


@pytest.mark.slow
def test_the_manager_sees_today_and_reminds_a_teacher_who_has_not_answered(
        world: liffscene.World, phone: WebDriver) -> None:
    scene, db = world.scene, world.db
    open_as(phone, world, liffscene.MANAGER, "manager")
    today = wait_for(phone, f'section.card[data-classroom="{scene.room}"]')
    assert "16:00–20:00 田中 一郎" in today.text and "18:00–21:30 鈴木 次郎" in today.text
    jiro = scene.teachers[liffscene.JIRO]
    row = f'li[data-teacher="{jiro}"]'
    click(phone, f"{row} button")
    wait_for_text(phone, "リマインド済み", css=row)

    with db.read() as s:
        before = len(s.scalars(select(Delivery.id).where(Delivery.teacher_id == jiro)).all())
    assert liffscene.relay_sync(db, world.paths).events_handled == 1
    with db.read() as s:
        asked = s.scalar(select(AvailabilityAsked).where(AvailabilityAsked.request_id == scene.request,
                                                         AvailabilityAsked.teacher_id == jiro))
        assert asked is not None and asked.reminded_at is not None
        assert len(s.scalars(select(Delivery.id).where(Delivery.teacher_id == jiro)).all()) == before + 1
