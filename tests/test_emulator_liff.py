"""The LINE emulator's part in the teachers' page: LIFF ID tokens and LINE Login's verify call, the LIFF
SDK stand-in, and rich menus, all over real HTTP."""

from __future__ import annotations

import datetime as dt
import html
import io
import json
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest
from PIL import Image

from core.emulator import LineEmulator
from tests.linefixtures import TOKEN, FakeClock

USER = "U" + "a" * 32
OTHER = "U" + "b" * 32
LOGIN_CHANNEL = "1234567890"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def emu() -> Iterator[LineEmulator]:
    with LineEmulator(token=TOKEN) as emulator:
        emulator.add_user(USER, "佐藤 花子")
        yield emulator


def _verify(emu: LineEmulator, **form: str) -> httpx.Response:
    return httpx.post(f"{emu.base_url}/oauth2/v2.1/verify", data=form)


def _refusal(response: httpx.Response) -> str:
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["error"] == "invalid_request"
    return str(body["error_description"])


# ----- ID tokens and verify -----


def test_a_token_from_the_control_api_verifies_with_lines_claims(emu: LineEmulator) -> None:
    issued = httpx.post(f"{emu.base_url}/_emulator/liff/id-token",
                        json={"user_id": USER, "channel_id": LOGIN_CHANNEL, "expires_in": 3600})
    assert issued.status_code == 200
    token = issued.json()["id_token"]
    assert jwt.get_unverified_header(token)["alg"] == "ES256"
    answer = _verify(emu, id_token=token, client_id=LOGIN_CHANNEL)
    assert answer.status_code == 200, answer.text
    claims = answer.json()
    assert claims["iss"] == "https://access.line.me"
    assert (claims["sub"], claims["aud"], claims["amr"]) == (USER, LOGIN_CHANNEL, ["linesso"])
    assert claims["exp"] - claims["iat"] == 3600
    assert claims["name"] == "佐藤 花子"  # the user's display name when none is given


def test_the_python_call_issues_the_same_kind_of_token_with_a_name(emu: LineEmulator) -> None:
    token = emu.issue_id_token(OTHER, LOGIN_CHANNEL, name="Jiro")
    claims = _verify(emu, id_token=token, client_id=LOGIN_CHANNEL).json()
    assert (claims["sub"], claims["name"]) == (OTHER, "Jiro")


def test_an_expired_token_is_refused_in_lines_words() -> None:
    clock = FakeClock(dt.datetime(2026, 12, 6, 9, 0, tzinfo=dt.UTC))
    with LineEmulator(token=TOKEN, clock=clock) as emu:
        assert _refusal(_verify(emu, id_token=emu.issue_id_token(USER, LOGIN_CHANNEL, expires_in=-1),
                                client_id=LOGIN_CHANNEL)) == "IdToken expired."
        assert _refusal(_verify(emu, id_token=emu.issue_id_token(USER, LOGIN_CHANNEL, expires_in=0),
                                client_id=LOGIN_CHANNEL)) == "IdToken expired."
        lasting = emu.issue_id_token(USER, LOGIN_CHANNEL, expires_in=60)
        assert _verify(emu, id_token=lasting, client_id=LOGIN_CHANNEL).status_code == 200
        clock.advance(seconds=60)  # the emulator's clock decides, so nothing waits
        assert _refusal(_verify(emu, id_token=lasting, client_id=LOGIN_CHANNEL)) == "IdToken expired."


def test_another_channel_is_the_wrong_audience(emu: LineEmulator) -> None:
    token = emu.issue_id_token(USER, LOGIN_CHANNEL)
    assert _refusal(_verify(emu, id_token=token, client_id="9999999999")) == "Invalid IdToken Audience."


@pytest.mark.parametrize("how", ["forged", "malformed", "another emulator", "unsigned"])
def test_tokens_this_emulator_did_not_sign_are_invalid(emu: LineEmulator, how: str) -> None:
    good = emu.issue_id_token(USER, LOGIN_CHANNEL)
    if how == "forged":
        header, payload, signature = good.split(".")
        claims = jwt.decode(good, options={"verify_signature": False})
        claims["sub"] = OTHER
        forged_payload = jwt.utils.base64url_encode(json.dumps(claims).encode()).decode()
        token = f"{header}.{forged_payload}.{signature}"
    elif how == "malformed":
        token = "not-a-token"
    elif how == "another emulator":
        with LineEmulator(token=TOKEN) as stranger:
            token = stranger.issue_id_token(USER, LOGIN_CHANNEL)
    else:
        claims = jwt.decode(good, options={"verify_signature": False})
        token = jwt.encode(claims, "", algorithm="none")
    assert _refusal(_verify(emu, id_token=token, client_id=LOGIN_CHANNEL)) == "Invalid IdToken."


def test_nonce_and_user_id_are_checked_when_given(emu: LineEmulator) -> None:
    token = emu.issue_id_token(USER, LOGIN_CHANNEL)
    assert _verify(emu, id_token=token, client_id=LOGIN_CHANNEL, user_id=USER).status_code == 200
    assert _refusal(_verify(emu, id_token=token, client_id=LOGIN_CHANNEL, user_id=OTHER)) == (
        "Invalid IdToken Subject Identifier.")
    assert _refusal(_verify(emu, id_token=token, client_id=LOGIN_CHANNEL, nonce="n-1")) == "Invalid IdToken Nonce."


def test_verify_needs_its_form_fields(emu: LineEmulator) -> None:
    token = emu.issue_id_token(USER, LOGIN_CHANNEL)
    assert _refusal(_verify(emu, client_id=LOGIN_CHANNEL)) == "id_token is required"
    assert _refusal(_verify(emu, id_token=token)) == "client_id is required"
    as_json = httpx.post(f"{emu.base_url}/oauth2/v2.1/verify", json={"id_token": token, "client_id": LOGIN_CHANNEL})
    assert _refusal(as_json).startswith("Content-Type")
    assert httpx.get(f"{emu.base_url}/oauth2/v2.1/verify").status_code == 405


def test_the_control_api_refuses_a_malformed_request(emu: LineEmulator) -> None:
    bad = httpx.post(f"{emu.base_url}/_emulator/liff/id-token", json={"user_id": "someone", "channel_id": "1"})
    assert bad.status_code == 400 and "user ID" in bad.json()["message"]
    no_channel = httpx.post(f"{emu.base_url}/_emulator/liff/id-token", json={"user_id": USER})
    assert no_channel.status_code == 400 and "channel_id" in no_channel.json()["message"]


# ----- the LIFF SDK stand-in -----


def test_the_sdk_stand_in_is_served_as_javascript_to_any_origin(emu: LineEmulator) -> None:
    answer = httpx.get(f"{emu.base_url}/liff/sdk.js", headers={"Origin": "http://127.0.0.1:8787"})
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/javascript"
    assert answer.headers["access-control-allow-origin"] == "*"
    script = answer.text
    assert "window.liff = liff" in script
    for name in ("init:", "isLoggedIn:", "login:", "getIDToken:", "getLanguage:", "isInClient:", "closeWindow:",
                 "getContext:", "__LIFF_STAND_IN__", "shiftcast.liff.stand-in", "liff.state", "replaceState"):
        assert name in script, name
    assert httpx.post(f"{emu.base_url}/liff/sdk.js").status_code == 405


BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
_PAGE = """<!doctype html><html><head><meta charset="utf-8">{stand_in}
<script src="{sdk}"></script></head><body><pre id="out">waiting</pre><script>
liff.init({{liffId: "1234567890-AbCdEfGh"}}).then(function () {{
  var before = liff.isLoggedIn();
  liff.login();  // nobody to log in: the page stays where it is
  document.getElementById("out").textContent = JSON.stringify({{
    path: location.pathname, search: location.search, hash: location.hash, loggedIn: before,
    token: liff.getIDToken(), language: liff.getLanguage(), inClient: liff.isInClient(),
    context: liff.getContext(), id: liff.id}});
}});
</script></body></html>"""


def _in_browser(emu: LineEmulator, folder: Path, query: str, stand_in: dict[str, str] | None) -> dict[str, Any]:
    """What a page using the stand-in saw after liff.init(), in headless Chromium: the page is served from
    another origin than the emulator, as the relay serves it."""
    script = "" if stand_in is None else f"<script>window.__LIFF_STAND_IN__ = {json.dumps(stand_in)};</script>"
    (folder / "liff").mkdir(exist_ok=True)
    (folder / "liff" / "index.html").write_text(_PAGE.format(stand_in=script, sdk=f"{emu.base_url}/liff/sdk.js"),
                                                encoding="utf-8")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        assert BROWSER is not None
        url = f"http://127.0.0.1:{server.server_address[1]}/liff/{query}#top"
        done = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                               f"--user-data-dir={folder / 'profile'}", "--virtual-time-budget=10000", "--dump-dom",
                               url], capture_output=True, text=True, timeout=120)
    finally:
        server.shutdown()
        server.server_close()
    found = re.search(r'<pre id="out">(.*?)</pre>', done.stdout, re.S)
    assert found is not None and found.group(1) != "waiting", (done.stdout[-2000:], done.stderr[-2000:])
    value: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return value


@pytest.mark.skipif(BROWSER is None, reason="no Chromium to run the LIFF SDK stand-in in")
def test_in_a_browser_the_stand_in_restores_liff_state_and_gives_the_token(emu: LineEmulator, tmp_path: Path) -> None:
    token = emu.issue_id_token(USER, LOGIN_CHANNEL)
    seen = _in_browser(emu, tmp_path, "?liff.state=%3Fview%3Dcovers%26month%3D2026-12",
                       {"idToken": token, "language": "en"})
    assert (seen["path"], seen["search"], seen["hash"]) == ("/liff/", "?view=covers&month=2026-12", "#top")
    assert (seen["loggedIn"], seen["inClient"], seen["language"], seen["id"]) == (True, True, "en", "1234567890-AbCdEfGh")
    assert seen["context"] == {"type": "utou", "viewType": "full", "userId": USER}
    assert _verify(emu, id_token=seen["token"], client_id=LOGIN_CHANNEL).json()["sub"] == USER
    below = _in_browser(emu, tmp_path, "?liff.state=%2Fmonth%3Fview%3Dmonth", {"idToken": token, "language": "ja"})
    assert (below["path"], below["search"]) == ("/liff/month", "?view=month")


@pytest.mark.skipif(BROWSER is None, reason="no Chromium to run the LIFF SDK stand-in in")
def test_in_a_browser_without_a_stand_in_nobody_is_logged_in(emu: LineEmulator, tmp_path: Path) -> None:
    seen = _in_browser(emu, tmp_path, "?view=month", None)
    assert (seen["path"], seen["search"]) == ("/liff/", "?view=month")  # no liff.state: left as it is
    assert (seen["loggedIn"], seen["inClient"], seen["token"]) == (False, False, None)
    assert seen["context"] == {"type": "utou", "viewType": "full"}


def test_the_package_carries_the_sdk_stand_in() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    assert '"core.emulator" = ["liff_sdk.js"]' in (root / "pyproject.toml").read_text()
    assert "emulator_datas()" in (root / "packaging" / "shiftcast.spec").read_text()


# ----- rich menus -----


def _menu(**overrides: Any) -> dict[str, Any]:
    menu: dict[str, Any] = {
        "size": {"width": 2500, "height": 843}, "selected": True, "name": "Shiftcast", "chatBarText": "メニュー",
        "areas": [{"bounds": {"x": 625 * i, "y": 0, "width": 625, "height": 843},
                   "action": {"type": "uri", "uri": f"https://liff.line.me/1234567890-AbCdEfGh?view=v{i}"}}
                  for i in range(4)],
    }
    menu.update(overrides)
    return menu


def _png(width: int = 2500, height: int = 843, kind: str = "PNG") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), "white").save(out, kind)
    return out.getvalue()


def _create(emu: LineEmulator, menu: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{emu.base_url}/v2/bot/richmenu", json=menu, headers=AUTH)


def _upload(emu: LineEmulator, menu_id: str, image: bytes, content_type: str = "image/png") -> httpx.Response:
    return httpx.post(f"{emu.base_url}/v2/bot/richmenu/{menu_id}/content", content=image,
                      headers={**AUTH, "Content-Type": content_type})


def test_a_rich_menu_is_created_given_its_image_and_made_the_default(emu: LineEmulator) -> None:
    created = _create(emu, _menu())
    assert created.status_code == 200, created.text
    menu_id = created.json()["richMenuId"]
    assert menu_id.startswith("richmenu-")
    refused = httpx.post(f"{emu.base_url}/v2/bot/user/all/richmenu/{menu_id}", headers=AUTH)
    assert (refused.status_code, refused.json()["message"]) == (400, "must upload richmenu image before applying it to user")
    assert _upload(emu, menu_id, _png()).status_code == 200
    again = _upload(emu, menu_id, _png())
    assert (again.status_code, again.json()["message"]) == (400, "An image has already been uploaded to the richmenu")
    assert httpx.post(f"{emu.base_url}/v2/bot/user/all/richmenu/{menu_id}", headers=AUTH).status_code == 200
    assert httpx.get(f"{emu.base_url}/v2/bot/user/all/richmenu", headers=AUTH).json() == {"richMenuId": menu_id}
    listed = httpx.get(f"{emu.base_url}/v2/bot/richmenu/list", headers=AUTH).json()["richmenus"]
    assert [m["richMenuId"] for m in listed] == [menu_id] and listed[0]["chatBarText"] == "メニュー"
    image = httpx.get(f"{emu.base_url}/v2/bot/richmenu/{menu_id}/content", headers=AUTH)
    assert image.headers["content-type"] == "image/png" and image.content == _png()
    seen = httpx.get(f"{emu.base_url}/_emulator/rich-menus").json()
    assert seen["default"] == menu_id and seen["richmenus"][0]["hasImage"] is True
    assert httpx.delete(f"{emu.base_url}/v2/bot/richmenu/{menu_id}", headers=AUTH).status_code == 200
    gone = httpx.get(f"{emu.base_url}/v2/bot/user/all/richmenu", headers=AUTH)
    assert (gone.status_code, gone.json()["message"]) == (404, "no default richmenu")
    assert httpx.delete(f"{emu.base_url}/v2/bot/richmenu/{menu_id}", headers=AUTH).status_code == 404
    assert httpx.get(f"{emu.base_url}/v2/bot/richmenu/list", headers=AUTH).json() == {"richmenus": []}


def test_rich_menus_need_the_channel_token(emu: LineEmulator) -> None:
    assert httpx.post(f"{emu.base_url}/v2/bot/richmenu", json=_menu()).status_code == 401
    assert httpx.get(f"{emu.base_url}/v2/bot/richmenu/list").status_code == 401


@pytest.mark.parametrize(("change", "prop"), [
    ({"size": {"width": 2600, "height": 843}}, "size.width"),
    ({"size": {"width": 2500, "height": 200}}, "size.height"),
    ({"size": {"width": 800, "height": 800}}, "size"),
    ({"chatBarText": "fifteen chars!!"}, "chatBarText"),
    ({"name": "x" * 301}, "name"),
    ({"selected": None}, "selected"),
    ({"areas": [{"bounds": {"x": 0, "y": 0, "width": 10, "height": 10},
                 "action": {"type": "uri", "uri": "https://example.com"}}] * 21}, "areas"),
    ({"areas": [{"bounds": {"x": 2000, "y": 0, "width": 625, "height": 843},
                 "action": {"type": "uri", "uri": "https://example.com"}}]}, "areas[0].bounds"),
    ({"areas": [{"bounds": {"x": 0, "y": 0, "width": 625, "height": 843}, "action": {"type": "camera"}}]},
     "areas[0].action.type"),
    ({"areas": [{"bounds": {"x": 0, "y": 0, "width": 625, "height": 843}, "action": {"type": "uri"}}]},
     "areas[0].action.uri"),
])
def test_a_rich_menu_breaking_lines_rules_is_refused_with_the_property(emu: LineEmulator, change: dict[str, Any],
                                                                        prop: str) -> None:
    menu = _menu(**change)
    if change.get("selected", True) is None:
        del menu["selected"]
    answer = _create(emu, menu)
    assert answer.status_code == 400, answer.text
    assert prop in [d["property"] for d in answer.json()["details"]]
    assert httpx.get(f"{emu.base_url}/v2/bot/richmenu/list", headers=AUTH).json() == {"richmenus": []}


def test_the_image_must_be_png_or_jpeg_of_the_menus_size_and_at_most_1_mb(emu: LineEmulator) -> None:
    menu_id = _create(emu, _menu()).json()["richMenuId"]
    wrong_size = _upload(emu, menu_id, _png(2500, 1686))
    assert wrong_size.status_code == 400 and "2500x1686" in wrong_size.json()["message"]
    assert _upload(emu, menu_id, b"GIF89a", content_type="image/gif").status_code == 415
    assert _upload(emu, menu_id, b"not an image").status_code == 400
    assert _upload(emu, menu_id, _png(), content_type="image/jpeg").status_code == 400
    noisy = Image.new("RGB", (2500, 843), "white")
    noisy.paste(Image.frombytes("RGB", (2500, 200), os.urandom(2500 * 200 * 3)))  # noise does not compress
    big = io.BytesIO()
    noisy.save(big, "PNG")
    assert 1024 * 1024 < len(big.getvalue()) < 2 * 1024 * 1024  # over LINE's 1 MB, under any request limit
    assert _upload(emu, menu_id, big.getvalue()).status_code == 413
    assert httpx.get(f"{emu.base_url}/_emulator/rich-menus").json()["richmenus"][0]["hasImage"] is False
    assert _upload(emu, menu_id, _png(kind="JPEG"), content_type="image/jpeg").status_code == 200
    assert _upload(emu, "richmenu-" + "0" * 32, _png()).status_code == 404
