"""The Japanese translation: every message translated, and the compiled file really changes the UI."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from core.resources import resource
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.common import i18n
from ui.services.context import AppContext
from ui.shell.main_window import MainWindow

TS = resource("i18n", "shiftcast_ja.ts")
PLACEHOLDER = re.compile(r"\{\d+\}")
MNEMONIC = re.compile(r"(?<!&)&(?!&)\S")  # "&File"; "&&" is a literal ampersand


def _messages() -> list[tuple[str, ET.Element]]:
    root = ET.parse(TS).getroot()
    return [(context.findtext("name") or "", message)
            for context in root.iter("context") for message in context.iter("message")]


def _translations(message: ET.Element) -> list[str]:
    translation = message.find("translation")
    assert translation is not None
    forms = translation.findall("numerusform")
    return [form.text or "" for form in forms] if forms else [translation.text or ""]


def test_the_ts_file_declares_its_languages() -> None:
    root = ET.parse(TS).getroot()
    assert root.get("language") == "ja_JP"
    assert root.get("sourcelanguage") == "en"
    assert _messages(), "no messages: run resources/i18n/update.sh"


def _problems(context: str, message: ET.Element) -> list[str]:
    source = message.findtext("source") or ""
    where = f"{context}: {source!r}"
    translation = message.find("translation")
    if translation is None or translation.get("type") in ("unfinished", "obsolete", "vanished"):
        return [f"{where} is not translated (finished)"]
    problems = []
    for text in _translations(message):
        if not text.strip():
            problems.append(f"{where} has an empty translation")
        elif sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(source)):
            problems.append(f"{where}: placeholders differ in {text!r}")
        elif "%n" in source and "%n" not in text:
            problems.append(f"{where}: %n missing in {text!r}")
        elif MNEMONIC.search(source) and not MNEMONIC.search(text):
            problems.append(f"{where}: keyboard accelerator missing in {text!r} (e.g. ファイル(&F))")
    return problems


def test_every_message_is_translated_with_its_placeholders() -> None:
    problems = [p for context, message in _messages() for p in _problems(context, message)]
    assert not problems, "fix these in resources/i18n/shiftcast_ja.ts:\n" + "\n".join(problems)


@pytest.fixture
def japanese(qapp: QApplication, tmp_path: Path) -> Iterator[Path]:
    """Japanese installed on the application for one test; English again afterwards."""
    qm = i18n.compiled("ja", tmp_path)
    assert qm is not None and qm.is_file(), "lrelease could not compile shiftcast_ja.ts"
    try:
        assert i18n.install(qapp, "ja", tmp_path) == "ja"
        yield qm
    finally:
        i18n.install(qapp, "en", tmp_path)


def test_the_main_window_speaks_japanese(qtbot, ctx: AppContext, japanese: Path) -> None:
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    try:
        titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
        assert titles == ["シフト", "公開", "配信状況", "設定"]
        menus = [action.text() for action in window.menuBar().actions()]
        assert menus[:2] == ["ファイル(&F)", "ヘルプ(&H)"]
    finally:
        settle(qtbot, ctx)


def test_english_is_back_after_removing_the_translator(qtbot, ctx: AppContext, qapp: QApplication, tmp_path: Path) -> None:
    i18n.install(qapp, "ja", tmp_path)
    i18n.install(qapp, "en", tmp_path)
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    try:
        assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == ["Shifts", "Publish", "Deliveries", "Settings"]
    finally:
        settle(qtbot, ctx)
