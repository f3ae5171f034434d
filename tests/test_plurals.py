"""English plurals: no "(s)" in what Shiftcast says (the window, the command line, core's texts), and
the window's "%n messages" says "1 message" through shiftcast_en.ts."""

from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

from core.resources import resource
from ui.common import i18n

ROOT = Path(__file__).resolve().parent.parent
# LINE's own words, which the emulator answers with exactly as LINE does (tests compare them).
LINES_OWN = {"The request body has {len(details)} error(s)"}


def _strings(path: Path) -> Iterator[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parts = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in parts:
            yield node.lineno, node.value
        elif isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(str(part.value) if isinstance(part, ast.Constant)
                                       else "{" + ast.unparse(part.value) + "}"
                                       for part in node.values if isinstance(part, ast.Constant | ast.FormattedValue))


def test_no_string_says_s_in_brackets() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}: {text!r}"
             for folder in ("ui", "cli", "core") for path in sorted((ROOT / folder).rglob("*.py"))
             for line, text in _strings(path) if re.search(r"[a-z]\(s\)", text) and text not in LINES_OWN]
    assert found == []


def _numerus(ts: str) -> dict[str, list[str]]:
    root = ET.parse(resource("i18n", ts)).getroot()
    return {m.findtext("source") or "": [f.text or "" for f in m.iter("numerusform")]
            for m in root.iter("message") if m.get("numerus") == "yes"}


def test_every_plural_of_the_window_has_its_english_singular() -> None:
    english, japanese = _numerus("shiftcast_en.ts"), _numerus("shiftcast_ja.ts")
    assert set(english) == set(japanese)
    for source, (one, other) in english.items():
        assert one and one != source and other == source, source


@pytest.fixture
def english(qapp: QApplication, tmp_path: Path) -> Iterator[None]:
    assert i18n.install(qapp, "en", tmp_path) == "en"
    yield


def test_the_english_window_says_one_message_and_two_messages(english: None) -> None:
    assert QCoreApplication.translate("PublishView", "%n messages", "", 1) == "1 message"
    assert QCoreApplication.translate("PublishView", "%n messages", "", 2) == "2 messages"
    assert QCoreApplication.translate("AvailabilityDialog", "Asked %n teachers.", "", 1) == "Asked 1 teacher."
