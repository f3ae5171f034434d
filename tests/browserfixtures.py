"""A phone for the teachers' page (relay/page/): Debian's Chromium, headless, driven through its own
chromedriver by Selenium, at 390×844 CSS pixels (a common phone, device pixel ratio 1).

Nothing is downloaded: the browser and the driver are the system's (`chromium`, `chromium-driver`),
handed to Selenium by path, so Selenium Manager has nothing to fetch. Without them the tests that need
the phone are skipped, saying which is missing; under CI (`CI` set, as .ci/run runs) they fail, since
.ci/run installs both.

The LINE app's part is played by the LIFF SDK stand-in the emulator serves (core/emulator): it reads
`window.__LIFF_STAND_IN__` ({idToken, language}) when the page's scripts run, so `sign_in` has the
browser define it in every new document before any of the page's own scripts (Chrome DevTools
Protocol, Page.addScriptToEvaluateOnNewDocument). The tests wait for what the page shows, with
WebDriverWait and a generous deadline (tests/waiting.py), never for time to pass.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from tests.waiting import PATIENCE_S

__all__ = ["PHONE", "browser_missing", "phone", "sign_in", "sign_out", "start_phone", "wait_for", "wait_for_text"]

PHONE = (390, 844)  # CSS pixels; at device pixel ratio 1 a screenshot has exactly these
UNDER_CI = bool(os.environ.get("CI"))
_BROWSERS = ("chromium", "chromium-browser")  # Debian's name, and Ubuntu's


def _browser() -> str | None:
    return next((found for name in _BROWSERS if (found := shutil.which(name)) is not None), None)


def browser_missing() -> str | None:
    """Why no phone can start here (the browser or its driver absent), or None."""
    if _browser() is None:
        return "Chromium is not installed (Debian: apt-get install chromium chromium-driver)"
    if shutil.which("chromedriver") is None:
        return "chromedriver is not installed (Debian: apt-get install chromium-driver)"
    return None


def start_phone(profile: Path, *, language: str = "ja") -> WebDriver:
    """A headless Chromium at the phone's size, with its own profile folder and the page's language
    (`ja`, `en`) as the browser's: what `navigator.language` and Accept-Language say."""
    why = browser_missing()
    if why is not None:
        if UNDER_CI:
            pytest.fail(f"{why}: .ci/run installs it")
        pytest.skip(why)
    browser, driver = _browser(), shutil.which("chromedriver")
    assert browser is not None and driver is not None
    options = Options()
    options.binary_location = browser
    width, height = PHONE
    for argument in ("--headless=new", f"--window-size={width},{height}", "--force-device-scale-factor=1",
                     f"--user-data-dir={profile}", f"--lang={language}", "--no-first-run",
                     "--no-default-browser-check", "--disable-gpu", "--hide-scrollbars",
                     # a container's /dev/shm is often 64 MB, too small for a renderer's shared memory
                     "--disable-dev-shm-usage", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync"):
        options.add_argument(argument)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses to start as root with its sandbox
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    phone = webdriver.Chrome(service=Service(driver), options=options)
    try:
        # The window's size includes no browser frame in headless mode, but the page's viewport is what
        # counts: set it exactly, as a phone reports it (mobile: the page's viewport meta applies).
        phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                              {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
        phone.execute_cdp_cmd("Emulation.setLocaleOverride", {"locale": "ja-JP" if language == "ja" else "en-US"})
        phone.set_page_load_timeout(PATIENCE_S)
    except BaseException:
        phone.quit()
        raise
    return phone


@pytest.fixture
def phone(tmp_path: Path) -> Iterator[WebDriver]:
    """A headless Chromium at 390×844 in Japanese, ended after the test."""
    browser = start_phone(tmp_path / "chromium-profile")
    try:
        yield browser
    finally:
        browser.quit()


def sign_in(phone: WebDriver, id_token: str | None, *, language: str = "ja") -> str:
    """From the next page load on, the LIFF SDK stand-in finds this ID token and language, as the LINE
    app gives them to LIFF's SDK. Returns the script's identifier, for `sign_out`."""
    stand_in: dict[str, Any] = {"idToken": id_token, "language": language}
    # Defined before any script of the document runs, in every frame; json.dumps makes a JS literal.
    source = f"window.__LIFF_STAND_IN__ = {json.dumps(stand_in)};"
    answer = phone.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})
    return str(answer["identifier"])


def sign_out(phone: WebDriver, identifier: str) -> None:
    """The stand-in's sign-in `sign_in` added is no longer given to new documents."""
    phone.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": identifier})


def wait_for(phone: WebDriver, css: str, *, timeout: float = PATIENCE_S) -> WebElement:
    """The first element matching the CSS selector once it is shown."""
    found = WebDriverWait(phone, timeout).until(
        expected_conditions.visibility_of_element_located((By.CSS_SELECTOR, css)),
        f"nothing shown matches {css!r}")
    assert isinstance(found, WebElement)
    return found


def wait_for_text(phone: WebDriver, text: str, *, css: str = "body", timeout: float = PATIENCE_S) -> WebElement:
    """The element matching `css` once its shown text contains `text`."""
    WebDriverWait(phone, timeout).until(
        expected_conditions.text_to_be_present_in_element((By.CSS_SELECTOR, css), text),
        f"{text!r} never shown in {css!r}")
    return phone.find_element(By.CSS_SELECTOR, css)
