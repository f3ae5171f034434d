"""The teachers' page in a real browser: headless Chromium at a phone's size (tests/browserfixtures.py).

First the phone itself: its size, and the LIFF stand-in's sign-in defined before the page's own
scripts run, on a page of the test's own served from loopback."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from selenium.webdriver.chrome.webdriver import WebDriver

from tests.browserfixtures import PHONE, phone, sign_in, sign_out, wait_for_text  # noqa: F401 - phone is a fixture

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
