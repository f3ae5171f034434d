"""The teachers' page (relay/page) in a real headless Chromium at a phone's size.

A loopback server stands in for the relay's /liff/ routes: it serves relay/page's three files as the relay
does (the SDK placeholder replaced, the same content-security-policy), answers /liff/config and /liff/api/*
from documents built here in the contract's shape, and records what the page posts. The LIFF SDK is the
LINE emulator's stand-in (core/emulator/liff_sdk.js), served from the same loopback server; who is signed
in comes from `window.__LIFF_STAND_IN__`, which tests/browserfixtures.py defines before each load.
"""

from __future__ import annotations

import calendar
import datetime as dt
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import pytest
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.browserfixtures import PHONE, sign_in, sign_out, start_phone, wait_for, wait_for_text
from tests.waiting import PATIENCE_S

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "relay" / "page"
SDK = ROOT / "core" / "emulator" / "liff_sdk.js"
LIFF_ID = "1234567890-AbCdEfGh"

def csp() -> str:
    return ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")


@dataclass
class Relay:
    """What the relay would hold for the page, and what the page sent it."""

    people: dict[str, dict[str, Any]] = field(default_factory=dict)  # LINE user ID → person document
    tokens: dict[str, str | None] = field(default_factory=dict)  # ID token → user ID (None: expired)
    classrooms: dict[str, dict[str, Any]] = field(default_factory=dict)  # "c3/2026-12" → classroom document
    answers: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    posted: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    authorizations: list[str] = field(default_factory=list)
    drop_me: bool = False  # close /liff/api/me's connection unanswered, as a lost network does
    liff_id: str | None = LIFF_ID  # None: the app has not handed one over
    lock: threading.Lock = field(default_factory=threading.Lock)


def target(answer: dict[str, Any]) -> str:
    """page_answers.target of an answer (contract §1)."""
    return {"ack": lambda a: f"ack:{a['ack']}", "availability": lambda a: f"availability:{a['request']}",
            "cover_offer": lambda a: f"cover:{a['call']}",
            "remind": lambda a: f"remind:{a['request']}:{a['teacher']}"}[answer["action"]](answer)


def handler_for(relay: Relay) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
            pass

        def send(self, status: int, body: bytes, content_type: str, extra: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(body)))
            self.send_header("content-security-policy", csp())
            self.send_header("x-content-type-options", "nosniff")
            for name, value in (extra or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def json(self, status: int, data: Any) -> None:
            extra = {"www-authenticate": "Bearer"} if status == 401 else None
            self.send(status, json.dumps(data).encode(), "application/json", extra)

        def user(self) -> str | None:
            header = self.headers.get("authorization", "")
            with relay.lock:
                relay.authorizations.append(header)
            token = header.removeprefix("Bearer ") if header.startswith("Bearer ") else ""
            user = relay.tokens.get(token)
            if user is None:
                self.json(401, {"error": "unauthorized", "message": "IdToken expired."})
                return None
            if user not in relay.people:
                self.json(403, {"error": "not_paired", "message": "No paired teacher for this LINE."})
                return None
            return user

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            if url.path in ("/liff/", "/liff/index.html"):
                html = (PAGE / "index.html").read_text(encoding="utf-8").replace("{{LIFF_SDK_URL}}", "/sdk.js")
                self.send(200, html.encode(), "text/html; charset=utf-8")
            elif url.path == "/liff/app.js":
                self.send(200, (PAGE / "app.js").read_bytes(), "text/javascript; charset=utf-8")
            elif url.path == "/liff/app.css":
                self.send(200, (PAGE / "app.css").read_bytes(), "text/css; charset=utf-8")
            elif url.path == "/sdk.js":
                self.send(200, SDK.read_bytes(), "text/javascript; charset=utf-8")
            elif url.path == "/liff/config":
                if relay.liff_id is None:
                    self.json(404, {"error": "not_found"})
                else:
                    self.json(200, {"liff_id": relay.liff_id})
            elif url.path == "/liff/api/me":
                if relay.drop_me:
                    self.close_connection = True
                    return
                if (user := self.user()) is not None:
                    self.json(200, {"person": relay.people[user], "answers": relay.answers.get(user, [])})
            elif url.path == "/liff/api/classroom":
                if (user := self.user()) is None:
                    return
                query = {name: values[0] for name, values in parse_qs(url.query).items()}
                keys = [c["key"] for c in relay.people[user]["classrooms"]]
                document = relay.classrooms.get(f"{query.get('key')}/{query.get('month')}")
                if query.get("key") not in keys:
                    self.json(403, {"error": "not_member"})
                elif document is None:
                    self.json(404, {"error": "not_found"})
                else:
                    self.json(200, document)
            else:
                self.json(404, {"error": "not_found"})

        def do_POST(self) -> None:
            if urlsplit(self.path).path != "/liff/api/answers":
                return self.json(404, {"error": "not_found"})
            length = int(self.headers.get("content-length", "0"))
            answer = json.loads(self.rfile.read(length))
            if (user := self.user()) is None:
                return None
            with relay.lock:  # page_answers: one per (person, target), the latest kept
                relay.posted.append((user, answer))
                kept = [a for a in relay.answers.get(user, []) if target(a) != target(answer)]
                relay.answers[user] = [*kept, answer]
            return self.json(202, {"accepted": True})

    return Handler


@pytest.fixture(scope="module")
def relay_server() -> Iterator[tuple[Relay, str]]:
    relay = Relay()
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler_for(relay))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield relay, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    """One phone for the module's tests: starting Chromium is the slow part."""
    phone = start_phone(tmp_path_factory.mktemp("phone"))
    try:
        yield phone
    finally:
        phone.quit()


# ---- the documents, built as the app builds them (contract §5), around today on Tokyo's clock ----

def months_from(today: dt.date) -> tuple[str, str]:
    following = (today.replace(day=28) + dt.timedelta(days=7)).replace(day=1)
    return today.strftime("%Y-%m"), following.strftime("%Y-%m")


TODAY = dt.datetime.now(ZoneInfo("Asia/Tokyo")).date()
M0, M1 = months_from(TODAY)


def day(month: str, number: int) -> str:
    return f"{month}-{number:02d}"


def teacher(name: str = "佐藤 花子", language: str | None = "ja") -> dict[str, Any]:
    return {
        "v": 1, "role": "teacher", "name": name, "language": language, "built_at": f"{TODAY}T00:00:00Z",
        "classrooms": [{"key": "c3", "name": "本町教室", "time_zone": "Asia/Tokyo", "months": [M0, M1]},
                       {"key": "c5", "name": "駅前教室", "time_zone": "Asia/Tokyo", "months": [M0]}],
        "shifts": [
            {"id": 101, "classroom": "c3", "date": day(M0, 7), "start": "16:00", "end": "20:00", "note": "",
             "change": None, "acked": False, "ack": "ack-101"},
            {"id": 102, "classroom": "c3", "date": day(M0, 9), "start": "17:00", "end": "21:00", "note": "",
             "change": {"kind": "moved", "was": {"date": day(M0, 8), "start": "15:00", "end": "19:00"}},
             "acked": False, "ack": "ack-102"},
            {"id": 103, "classroom": "c5", "date": day(M0, 12), "start": "10:00", "end": "14:00", "note": "受付も",
             "change": {"kind": "new", "was": None}, "acked": False, "ack": "ack-103"},
            {"id": 104, "classroom": "c3", "date": day(M0, 15), "start": "16:00", "end": "20:00", "note": "",
             "change": {"kind": "canceled", "was": None}, "acked": True, "ack": "ack-104"},
            {"id": 105, "classroom": "c3", "date": day(M0, 20), "start": "16:00", "end": "20:00", "note": "",
             "change": None, "acked": True, "ack": None},
            {"id": 106, "classroom": "c3", "date": day(M1, 5), "start": "13:00", "end": "18:00", "note": "",
             "change": None, "acked": False, "ack": None},
        ],
        "availability": [
            {"request": 5, "classroom": "c3", "month": M1, "deadline": str(TODAY + dt.timedelta(days=14)),
             "late": False, "closed_days": [day(M1, 1)],
             "answers": [{"date": day(M1, 4), "answer": "hours", "from": "16:00", "to": None, "source": "buttons"},
                         {"date": day(M1, 5), "answer": "yes", "from": None, "to": None, "source": "buttons"}]},
            {"request": 6, "classroom": "c5", "month": M1, "deadline": str(TODAY - dt.timedelta(days=1)),
             "late": True, "closed_days": [], "answers": []},
        ],
        "covers": [
            {"call": 9, "classroom": "c3", "date": day(M0, 10), "start": "16:00", "end": "20:00",
             "asked_by": "田中 一郎", "offered": False},
            {"call": 10, "classroom": "c5", "date": day(M0, 11), "start": "10:00", "end": "14:00",
             "asked_by": "山本 美咲", "offered": True},
        ],
        "calendar_url": "https://relay.example.workers.dev/ics/" + "Q" * 43 + ".ics",
        "manager": None,
    }


def manager() -> dict[str, Any]:
    tomorrow = TODAY + dt.timedelta(days=1)
    person = teacher("田中 一郎")
    person.update(role="manager", shifts=[], availability=[], covers=[])
    rooms = [{
        "key": "c3", "name": "本町教室",
        "shifts": [{"teacher": "佐藤 花子", "start": "16:00", "end": "20:00", "acked": True, "failed": None},
                   {"teacher": "鈴木 次郎", "start": "17:00", "end": "21:00", "acked": False, "failed": None},
                   {"teacher": "高橋 健", "start": "18:00", "end": "21:00", "acked": False,
                    "failed": "LINEでブロックされています"}],
        "covers": [{"call": 9, "date": day(M0, 10), "start": "16:00", "end": "20:00", "asked_by": "佐藤 花子",
                    "offers": 1}],
        "unanswered": [{"request": 5, "month": M1, "teacher": 12, "name": "鈴木 次郎", "reminded": False},
                       {"request": 5, "month": M1, "teacher": 13, "name": "高橋 健", "reminded": True}],
    }]
    empty = [{"key": "c3", "name": "本町教室", "shifts": [], "covers": rooms[0]["covers"],
              "unanswered": rooms[0]["unanswered"]}]
    person["manager"] = {"days": [{"date": str(TODAY), "classrooms": rooms},
                                  {"date": str(tomorrow), "classrooms": empty}]}
    return person


def classroom(key: str, name: str, month: str, holiday: str) -> dict[str, Any]:
    year, number = map(int, month.split("-"))
    days = []
    for n in range(1, calendar.monthrange(year, number)[1] + 1):
        date = dt.date(year, number, n)
        closed = date.weekday() == 6
        shifts = [] if closed else [{"teacher": "佐藤 花子", "start": "16:00", "end": "20:00"},
                                    {"teacher": "鈴木 次郎", "start": "17:00", "end": "21:00"}][: 1 + n % 2]
        days.append({"date": str(date), "closed": closed, "holiday": holiday if n == 3 else None,
                     "shifts": shifts})
    return {"v": 1, "classroom": key, "name": name, "month": month, "built_at": f"{TODAY}T00:00:00Z", "days": days}


@pytest.fixture
def relay(relay_server: tuple[Relay, str]) -> Relay:
    relay, _ = relay_server
    with relay.lock:
        relay.people.clear()
        relay.people.update({"U-sato": teacher(), "U-mgr": manager(), "U-en": teacher("Emma Brown", "en"),
                             "U-nolang": teacher("Noah Lee", None)})
        relay.tokens.clear()
        relay.tokens.update({"tok-sato": "U-sato", "tok-mgr": "U-mgr", "tok-en": "U-en",
                             "tok-nolang": "U-nolang", "tok-stranger": "U-stranger"})
        relay.classrooms.clear()
        relay.classrooms.update({f"c3/{M0}": classroom("c3", "本町教室", M0, "振替休日"),
                                 f"c5/{M0}": classroom("c5", "駅前教室", M0, "創立記念日")})
        relay.answers.clear()
        relay.posted.clear()
        relay.authorizations.clear()
        relay.drop_me = False
        relay.liff_id = LIFF_ID
    return relay


# ---- driving the page ----

class Page:
    def __init__(self, driver: WebDriver, base: str) -> None:
        self.driver = driver
        self.base = base
        self.signed: str | None = None

    def open(self, query: str = "", *, token: str | None, language: str = "ja") -> None:
        if self.signed is not None:
            sign_out(self.driver, self.signed)
        self.signed = sign_in(self.driver, token, language=language)
        self.driver.get(f"{self.base}/liff/{query}")

    def wait(self, css: str) -> WebElement:
        return wait_for(self.driver, css)

    def wait_text(self, css: str, text: str) -> WebElement:
        return wait_for_text(self.driver, text, css=css)

    def view(self, name: str) -> WebElement:
        return self.wait(f'h1[data-view="{name}"]')

    def tap(self, css_or_element: str | WebElement) -> None:
        element = self.wait(css_or_element) if isinstance(css_or_element, str) else css_or_element
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def text(self, css: str) -> str:
        return self.wait(css).text

    def all(self, css: str) -> list[WebElement]:
        return self.driver.find_elements(By.CSS_SELECTOR, css)


def posted(relay: Relay, count: int) -> list[tuple[str, dict[str, Any]]]:
    """What the page posted: called once the page shows an answer as sent, which it does after the relay's 202."""
    with relay.lock:
        assert len(relay.posted) == count, relay.posted
        return list(relay.posted)


@pytest.fixture
def page(browser: WebDriver, relay_server: tuple[Relay, str], relay: Relay) -> Iterator[Page]:
    page = Page(browser, relay_server[1])
    browser.get_log("browser")  # start each test with an empty console
    yield page
    # No script error and nothing refused by the content-security-policy (no inline script or style).
    problems = [entry["message"] for entry in browser.get_log("browser")
                if "Uncaught" in entry["message"] or "Refused" in entry["message"]
                or "Content Security Policy" in entry["message"]]
    assert problems == []


# ---- the views ----

def test_month_view_shows_the_teachers_shifts_with_their_changes_in_japanese(page: Page, relay: Relay) -> None:
    page.open(token="tok-sato")
    assert page.view("month").text == "わたしのシフト"
    assert page.driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ja"
    tabs = [b.text.split("\n")[0] for b in page.all("nav.tabs button")]
    assert tabs == ["シフト", "教室", "シフト希望", "代講", "カレンダー"]
    # what waits for an answer: three shifts to acknowledge, a request never answered, a cover call
    counts = {b.get_attribute("data-view"): b.find_element(By.CSS_SELECTOR, ".count").text
              for b in page.all("nav.tabs button") if b.find_elements(By.CSS_SELECTOR, ".count")}
    assert counts == {"month": "3", "availability": "1", "covers": "1"}
    assert "未対応 3件" in page.text('nav.tabs button[data-view="month"]')
    assert page.wait('nav.tabs button[data-view="month"]').get_attribute("aria-current") == "page"

    assert "16:00–20:00" in page.text('[data-shift="101"]')
    assert page.text('[data-shift="101"] button') == "了解"
    moved = page.text('[data-shift="102"]')
    assert "変更（元：" in moved and "15:00–19:00" in moved and "8日" in moved
    assert "新規" in page.text('[data-shift="103"]') and "駅前教室" in page.text('[data-shift="103"]')
    canceled = page.wait('[data-shift="104"]')
    assert "canceled" in (canceled.get_attribute("class") or "") and "取り消し" in canceled.text
    assert page.wait('[data-shift="104"] .time').value_of_css_property("text-decoration-line") == "line-through"
    assert "了解済み" in page.text('[data-shift="105"]')
    assert page.all('[data-shift="105"] button') == []
    assert page.all('[data-shift="106"]') == []  # next month's, behind the month switcher

    page.tap(f'[data-month="{M1}"]')
    assert "13:00–18:00" in page.text('[data-shift="106"]')
    assert page.all('[data-shift="101"]') == []
    assert page.wait(f'[data-month="{M1}"]').get_attribute("aria-pressed") == "true"


def test_acknowledging_a_shift_posts_its_ack_and_shows_it_as_sent(page: Page, relay: Relay) -> None:
    page.open("?view=month", token="tok-sato")
    page.tap('[data-shift="101"] button')
    page.wait_text('[data-shift="101"]', "了解済み")
    assert page.text("#status") == "了解を伝えました。"
    assert posted(relay, 1) == [("U-sato", {"action": "ack", "ack": "ack-101"})]
    assert set(relay.authorizations) == {"Bearer tok-sato"}
    assert page.text('nav.tabs button[data-view="month"] .count') == "2"

    page.open("?view=month", token="tok-sato")  # what the app has not taken in yet still shows as sent
    assert "了解済み" in page.wait_text('[data-shift="101"]', "送信済み").text
    assert page.all('[data-shift="101"] button') == []
    assert page.text('[data-shift="102"] button') == "了解"


def test_classroom_view_lists_the_month_by_day_with_a_picker(page: Page, relay: Relay) -> None:
    page.open(f"?view=classroom&classroom=c3&month={M0}", token="tok-sato")
    assert page.view("classroom").text == "教室のシフト"
    third = page.text(f'[data-date="{day(M0, 3)}"]')
    assert "振替休日" in third and "佐藤 花子" in third and "（あなた）" in third
    sunday = next(d for d in range(1, 8) if dt.date.fromisoformat(day(M0, d)).weekday() == 6)
    assert "休室" in page.text(f'[data-date="{day(M0, sunday)}"]')
    assert len(page.all("#classroom-days [data-date]")) == calendar.monthrange(*map(int, M0.split("-")))[1]

    Select(page.wait("#classroom-pick")).select_by_visible_text("駅前教室")
    WebDriverWait(page.driver, PATIENCE_S).until(lambda _: "classroom=c5" in page.driver.current_url)
    page.wait_text("#classroom-days", "創立記念日")
    assert page.all(f'[data-month="{M1}"]') == []  # 駅前教室 has one month only

    Select(page.wait("#classroom-pick")).select_by_value("c3")
    page.tap(f'[data-month="{M1}"]')
    page.wait_text("#classroom-days", "この月のシフトはまだ公開されていません。")

    relay.people["U-sato"]["classrooms"][1]["months"] = []  # a classroom with no month to show yet
    page.open("?view=classroom&classroom=c5", token="tok-sato")
    page.wait_text("main", "この月のシフトはまだ公開されていません。")


def test_availability_grid_prefills_cycles_and_posts_the_whole_month(page: Page, relay: Relay) -> None:
    page.open("?view=availability&request=5", token="tok-sato")
    assert page.view("availability").text == "シフト希望"
    form = '[data-request="5"]'
    assert "締め切り：" in page.text(form)
    assert "締め切り（" in page.text('[data-request="6"]')  # past its deadline: still taken, marked late
    cell = lambda n: f'{form} button[data-date="{day(M1, n)}"]'  # noqa: E731 - a one-line selector
    assert page.wait(cell(1)).get_attribute("disabled") is not None  # a closed day
    assert "休" in page.text(cell(1))
    assert page.wait(cell(4)).get_attribute("data-answer") == "hours"
    assert "16:00" in page.text(cell(4))
    assert page.wait(cell(5)).get_attribute("data-answer") == "yes"
    assert page.wait(cell(6)).get_attribute("data-answer") == "none"
    total = calendar.monthrange(*map(int, M1.split("-")))[1] - 1
    assert page.text(f"{form} p.small") == f"{total}日中2日回答済み"

    page.tap(cell(6))  # ○
    page.wait(f'{cell(6)}[data-answer="yes"]')
    page.tap(cell(5))  # ○ → ×
    page.wait(f'{cell(5)}[data-answer="no"]')
    page.tap(cell(5))  # × → a time range, in a sheet
    page.wait("dialog.sheet #hours-from")
    page.driver.execute_script(
        "document.getElementById('hours-from').value = '18:00'; document.getElementById('hours-to').value = '17:00';")
    page.tap("#hours-ok")
    page.wait_text("dialog.sheet .error", "終了は開始より後の時刻にしてください。")
    page.driver.execute_script("document.getElementById('hours-from').value = '';")
    page.tap("#hours-ok")
    page.wait(f'{cell(5)}[data-answer="hours"]')
    assert page.all("dialog.sheet") == []
    page.tap(cell(7))
    page.tap(cell(7))  # ×

    page.tap(f'{form} button[data-submit="5"]')
    page.wait_text("#status", "送信しました。")
    assert posted(relay, 1) == [("U-sato", {"action": "availability", "request": 5, "days": [
        {"date": day(M1, 4), "answer": "hours", "from": "16:00", "to": None},
        {"date": day(M1, 5), "answer": "hours", "from": None, "to": "17:00"},
        {"date": day(M1, 6), "answer": "yes"},
        {"date": day(M1, 7), "answer": "no"},
    ]})]

    # Changed and sent again: the whole month once more.
    page.tap(cell(4))  # a time range → ○
    page.wait(f'{cell(4)}[data-answer="yes"]')
    page.wait_text(f'{form} button[data-submit="5"]', "変更を送信する")
    page.tap(f'{form} button[data-submit="5"]')
    WebDriverWait(page.driver, PATIENCE_S).until(lambda _: len(relay.posted) == 2)
    assert relay.posted[1][1]["days"][0] == {"date": day(M1, 4), "answer": "yes"}

    page.open("?view=availability", token="tok-sato")  # the sent answers, not the document's, until taken in
    assert page.wait(cell(4)).get_attribute("data-answer") == "yes"
    assert page.wait(cell(7)).get_attribute("data-answer") == "no"


def test_offering_to_cover_posts_the_call(page: Page, relay: Relay) -> None:
    page.open("?view=covers", token="tok-sato")
    assert page.view("covers").text == "代講の募集"
    assert "依頼：田中 一郎" in page.text('[data-call="9"]')
    assert "引き受けると伝えました" in page.text('[data-call="10"]')
    page.tap('[data-call="9"] button')
    page.wait_text('[data-call="9"]', "引き受けると伝えました")
    assert posted(relay, 1) == [("U-sato", {"action": "cover_offer", "call": 9})]


def test_calendar_view_gives_the_address_to_copy(page: Page, relay: Relay) -> None:
    page.open("?view=calendar", token="tok-sato")
    assert page.view("calendar").text == "カレンダー連携"
    assert page.wait("#calendar-url").get_attribute("value") == relay.people["U-sato"]["calendar_url"]
    text = page.text("main")
    assert "照会するカレンダーを追加" in text and "URLで追加" in text and "新しいアドレス" in text
    page.tap("#copy")
    page.wait_text("#status", "コピー")


def test_manager_sees_today_first_and_can_remind(page: Page, relay: Relay) -> None:
    page.open(token="tok-mgr")
    assert page.view("manager").text == "今日と明日"
    assert [b.get_attribute("data-view") for b in page.all("nav.tabs button")][0] == "manager"
    today = page.text('[data-classroom="c3"]')
    assert "✓ 了解済み" in today and "未確認" in today and "送信失敗：LINEでブロックされています" in today
    main = page.text("main")
    assert main.count("鈴木 次郎") == 2  # a shift today, and one "not answered" (listed once, not per day)
    assert "引き受け 1人" in main
    assert "リマインド済み" in page.text('[data-teacher="13"]')
    page.tap('[data-teacher="12"] button')
    page.wait_text('[data-teacher="12"]', "リマインド済み")
    assert posted(relay, 1) == [("U-mgr", {"action": "remind", "request": 5, "teacher": 12})]


def test_the_view_comes_from_the_liff_url_as_line_opens_it(page: Page, relay: Relay) -> None:
    # LINE opens the endpoint with the LIFF URL's query packed into liff.state; LIFF's init() unpacks it.
    page.open("?liff.state=%3Fview%3Dcovers", token="tok-sato")
    page.view("covers")
    assert page.driver.current_url.endswith("/liff/?view=covers")
    assert page.driver.execute_script("return liff.id") == LIFF_ID
    page.tap('nav.tabs button[data-view="calendar"]')
    page.view("calendar")
    assert page.driver.current_url.endswith("/liff/?view=calendar")  # a reload stays where the teacher is


def test_english_from_the_document_and_from_line(page: Page, relay: Relay) -> None:
    page.open(token="tok-en", language="ja")
    assert page.view("month").text == "My shifts"
    assert page.text('[data-shift="101"] button') == "Got it"
    assert "Moved — was" in page.text('[data-shift="102"]')
    page.tap('nav.tabs button[data-view="availability"]')
    assert page.view("availability").text == "Availability"
    assert "days answered" in page.text('[data-request="5"]')

    titles = {"month": "My shifts", "classroom": "Classroom shifts", "availability": "Availability",
              "covers": "Cover calls", "calendar": "Calendar"}
    for view, title in titles.items():
        page.tap(f'nav.tabs button[data-view="{view}"]')
        assert page.view(view).text == title
    relay.people["U-mgr"]["language"] = "en"
    page.open(token="tok-mgr")
    assert page.view("manager").text == "Today and tomorrow"
    assert "Not delivered: " in page.text('[data-classroom="c3"]') and "1 offer" in page.text("main")

    page.open("?view=covers", token="tok-nolang", language="en-US")  # no language chosen: LINE's
    assert page.view("covers").text == "Cover calls"
    assert page.text('[data-call="9"] button') == "I can cover"


def test_on_a_360_px_phone_every_tap_target_is_at_least_44_px(page: Page, relay: Relay) -> None:
    small = ("return [...document.querySelectorAll('button:not([disabled]), select, input')]"
             ".filter(e => e.getClientRects().length).map(e => [e.getBoundingClientRect(), e.textContent])"
             ".filter(([r]) => r.width < 44 || r.height < 44).map(([r, t]) => `${t} ${r.width}x${r.height}`)")
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 360, "height": 780, "deviceScaleFactor": 1, "mobile": True})
    try:
        for token, views in (("tok-sato", ("month", "classroom", "availability", "covers", "calendar")),
                             ("tok-mgr", ("manager",))):
            for view in views:
                page.open(f"?view={view}", token=token)
                page.view(view)
                assert page.driver.execute_script("return document.documentElement.scrollWidth") == 360
                assert page.driver.execute_script(small) == [], view
    finally:
        width, height = PHONE
        page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})


# ---- the screens before a view ----

def test_an_expired_token_asks_to_open_the_page_again_from_line(page: Page, relay: Relay) -> None:
    relay.tokens["tok-old"] = None
    page.open(token="tok-old")
    assert page.text(".screen h1") == "LINEからもう一度開いてください"
    page.open(token="tok-old", language="en")
    assert page.text(".screen h1") == "Open this page again from LINE"


def test_an_unpaired_line_is_told_to_send_the_pairing_code(page: Page, relay: Relay) -> None:
    page.open(token="tok-stranger", language="en")
    assert page.text(".screen h1") == "Your LINE is not paired yet"
    assert "pairing code" in page.text(".screen")
    assert not page.driver.find_element(By.ID, "tabs").is_displayed()


def test_outside_line_the_page_asks_to_be_opened_from_line(page: Page, relay: Relay) -> None:
    page.open(token=None)
    assert page.text(".screen h1") == "LINEから開いてください"
    assert not page.driver.find_element(By.ID, "tabs").is_displayed()


def test_a_token_expiring_while_the_page_is_open_asks_to_open_it_again(page: Page, relay: Relay) -> None:
    page.open(token="tok-sato", language="en")
    page.wait('[data-shift="101"] button')
    relay.tokens["tok-sato"] = None
    page.tap('[data-shift="101"] button')
    assert page.text(".screen h1") == "LINEからもう一度開いてください"  # the person's language: ja
    assert relay.posted == []


def test_before_the_app_hands_over_a_liff_id_the_page_says_it_is_not_set_up(page: Page, relay: Relay) -> None:
    relay.liff_id = None
    page.open(token="tok-sato")
    assert page.text(".screen h1") == "講師用ページはまだ準備中です"
    assert relay.authorizations == []


def test_a_document_the_page_cannot_read_ends_on_a_screen_offering_to_start_again(page: Page, relay: Relay) -> None:
    del relay.people["U-sato"]["shifts"]
    page.open(token="tok-sato")
    assert page.text(".screen h1") == "エラーが発生しました。しばらくしてからお試しください。"
    relay.people["U-sato"] = teacher()
    page.tap(".screen button")
    page.view("month")


def test_a_lost_connection_offers_to_try_again(page: Page, relay: Relay) -> None:
    relay.drop_me = True
    page.open(token="tok-sato")
    assert page.text(".screen h1") == "接続できませんでした"
    relay.drop_me = False
    page.tap(".screen button")
    page.view("month")
