"""The rich menu that opens the teachers' page: made, pictured, shown to everyone and replaced at the LINE
emulator over real HTTP, refused in the manager's words, and `shiftcast line rich-menu set|remove`."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from core.emulator import LineEmulator
from core.errors import ValidationError
from core.pages.addresses import page_url
from core.setup import rich_menu
from core.store import setting_keys as keys
from core.store.db import Database
from core.texts import render
from tests.linefixtures import emulator, line_ready  # noqa: F401 - fixtures

LIFF_ID = "1234567890-AbCdEfGh"
VIEWS = ("month", "availability", "covers", "calendar")


def _liff(db: Database) -> None:
    with db.write() as session:
        keys.LIFF_ID.write(session, LIFF_ID)


def _saved(db: Database) -> str | None:
    with db.read() as session:
        return keys.LINE_RICH_MENU_ID.read(session)


def test_the_menu_is_four_tiles_opening_the_page_pictured_at_its_size_and_shown_to_everyone(
        db: Database, line_ready: LineEmulator) -> None:
    _liff(db)
    done = rich_menu.set_rich_menu(db, language="ja")
    seen = line_ready.rich_menus()
    assert seen["default"] == done.rich_menu_id == _saved(db)
    (menu,) = seen["richmenus"]
    assert menu["size"] == {"width": 2500, "height": 843} and menu["chatBarText"] == "メニュー"
    areas = menu["areas"]
    assert [a["action"]["uri"] for a in areas] == [page_url(LIFF_ID, view) for view in VIEWS] == list(done.areas)
    assert [a["action"]["label"] for a in areas] == ["自分のシフト", "シフト希望", "代講", "カレンダー"]
    assert [a["bounds"]["x"] for a in areas] == [0, 625, 1250, 1875]
    assert sum(a["bounds"]["width"] for a in areas) == 2500 and {a["bounds"]["height"] for a in areas} == {843}
    image = line_ready.rich_menu_image(done.rich_menu_id)
    assert image is not None
    with Image.open(io.BytesIO(image)) as picture:
        assert (picture.format, picture.size) == ("PNG", (2500, 843))
        assert len(picture.convert("RGB").getcolors(2500 * 843) or []) > 2  # tiles drawn, not a blank sheet
    assert done.replaced is None


def test_setting_it_again_replaces_and_deletes_the_one_before(db: Database, line_ready: LineEmulator) -> None:
    _liff(db)
    first = rich_menu.set_rich_menu(db, language="ja")
    second = rich_menu.set_rich_menu(db, language="en")
    assert second.replaced == first.rich_menu_id != second.rich_menu_id
    seen = line_ready.rich_menus()
    assert [m["richMenuId"] for m in seen["richmenus"]] == [second.rich_menu_id] == [seen["default"]]
    assert [a["action"]["label"] for a in seen["richmenus"][0]["areas"]] == [
        "My shifts", "Availability", "Cover calls", "My calendar"]
    assert _saved(db) == second.rich_menu_id


def test_lines_refusal_is_said_in_the_managers_words_and_changes_nothing(
        db: Database, line_ready: LineEmulator, monkeypatch: pytest.MonkeyPatch) -> None:
    _liff(db)
    before = rich_menu.set_rich_menu(db, language="ja")
    tall = io.BytesIO()
    Image.new("RGB", (2500, 1686), "white").save(tall, "PNG")
    monkeypatch.setattr(rich_menu, "menu_image", lambda labels, font_file=None: tall.getvalue())
    with pytest.raises(rich_menu.RichMenuRefused) as refused:
        rich_menu.set_rich_menu(db, language="ja")
    said = render(refused.value.text, "ja")
    assert "LINEがリッチメニューを受け付けなかったため、何も変更していません（画像のアップロード）" in said
    assert "HTTP 400" in said and "2500x1686" in said  # LINE's own reason, inside our sentence
    assert "uploading its picture" in str(refused.value)
    seen = line_ready.rich_menus()
    assert [m["richMenuId"] for m in seen["richmenus"]] == [before.rich_menu_id] == [seen["default"]]
    assert _saved(db) == before.rich_menu_id


def test_without_a_liff_id_or_line_it_refuses_before_calling_line(db: Database, emulator: LineEmulator,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValidationError) as no_liff:
        rich_menu.set_rich_menu(db, language="ja")
    assert no_liff.value.code == "rich_menu.no_liff_id"
    assert render(no_liff.value.text, "ja").startswith("先に講師ページのLIFF IDを設定してください")
    _liff(db)
    monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", emulator.base_url)  # but no token or channel saved
    with pytest.raises(ValidationError) as no_line:
        rich_menu.set_rich_menu(db, language="ja")
    assert no_line.value.code == "rich_menu.no_line"
    assert emulator.rich_menus() == {"default": None, "richmenus": []} and emulator.request_log() == []


def test_remove_deletes_the_menu_set_and_forgets_it(db: Database, line_ready: LineEmulator) -> None:
    _liff(db)
    done = rich_menu.set_rich_menu(db, language="ja")
    assert rich_menu.remove_rich_menu(db) == done.rich_menu_id
    assert line_ready.rich_menus() == {"default": None, "richmenus": []}
    assert _saved(db) is None
    assert rich_menu.remove_rich_menu(db) is None  # nothing set: nothing to do


def test_a_menu_already_deleted_at_line_is_simply_forgotten(db: Database, line_ready: LineEmulator) -> None:
    _liff(db)
    done = rich_menu.set_rich_menu(db, language="ja")
    from core.channels.line import LineClient
    from tests.linefixtures import TOKEN

    with LineClient(TOKEN, base_url=line_ready.base_url) as client:
        client.delete_rich_menu(done.rich_menu_id)  # as in LINE's console
    assert rich_menu.remove_rich_menu(db) == done.rich_menu_id and _saved(db) is None


def _cli(*argv: str) -> int:
    import main

    return main.main(list(argv))


def test_the_command_line_sets_and_removes_it(db: Database, line_ready: LineEmulator,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli("--lang", "ja", "line", "rich-menu", "set") != 0
    assert "先に講師ページのLIFF IDを設定してください" in capsys.readouterr().err
    _liff(db)
    assert _cli("--lang", "en", "line", "rich-menu", "set", "--language", "ja") == 0
    menu_id = _saved(db)
    assert menu_id is not None and f"The rich menu {menu_id} is under the chat" in capsys.readouterr().out
    assert line_ready.rich_menus()["richmenus"][0]["chatBarText"] == "メニュー"
    assert _cli("--lang", "ja", "line", "rich-menu", "set") == 0
    assert f"以前のリッチメニュー（{menu_id}）は削除しました" in capsys.readouterr().out
    assert _cli("--lang", "en", "line", "rich-menu", "remove") == 0
    assert "is deleted" in capsys.readouterr().out and line_ready.rich_menus()["richmenus"] == []
    assert _cli("--lang", "en", "line", "rich-menu", "remove") == 0
    assert "nothing to remove" in capsys.readouterr().out

