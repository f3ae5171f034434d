"""What adding a channel or a message kind costs, counted in files (docs/architecture.md, "Adding a
channel" and "Adding a message kind").

- A channel from outside core (the tests' Chat channel, tests/chat_channel.py) is one module and one
  `register_channel` call: no file of core, the command line or the window names it, and it builds no
  message of its own — it renders the message every kind composes.
- A channel inside core (LINE WORKS) is its driver's modules (core/channels/line_works*.py), one
  registration line and its catalog texts. Its set-up — where the manager types its values (Settings,
  the `line-works` verbs, the keyring's and settings' names), the readiness check's questions and the
  receiver's route for its callback — are screens and verbs around it, counted here too; no kind, no
  planning, no outbox, no message, no roster and no sending module names it.
- A message kind (tests/shift_note_kind.py, tests/briefing_kind.py) is one module: it names no channel
  and overrides none, and tests/test_new_kind.py sends it on LINE, by e-mail and on Chat.

The count reads code, not prose: names, attributes, imports and string values, leaving docstrings and
comments aside (they may say where a channel is used).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from core.channels import registry
from core.kinds import registry as kinds
from tests import briefing_kind, chat_channel, shift_note_kind

ROOT = Path(__file__).resolve().parent.parent
FRONTS = ("core", "cli", "ui")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def code_lines(path: Path, pattern: re.Pattern[str]) -> list[int]:
    """The lines of `path` whose code (not its docstrings or comments) names what `pattern` matches."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    lines: set[int] = set()
    for node in ast.walk(tree):
        words: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            words = [node.value]
        elif isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.alias):
            words = [node.name, node.asname or ""]
        elif isinstance(node, ast.ImportFrom):
            words = [node.module or ""]
        if any(pattern.search(word) for word in words):
            lines.add(getattr(node, "lineno", 0))
    return sorted(lines)


def files_naming(pattern: re.Pattern[str]) -> dict[str, list[int]]:
    out = {}
    for top in FRONTS:
        for path in sorted((ROOT / top).rglob("*.py")):
            if found := code_lines(path, pattern):
                out[path.relative_to(ROOT).as_posix()] = found
    return out


# ----- a channel from outside core -----


def test_a_channel_from_the_tests_is_one_module_and_one_registration() -> None:
    assert files_naming(re.compile(r"\bchat_channel\b|\bChatDriver\b")) == {}
    undo = registry.register_channel(chat_channel.ChatDriver())
    try:
        assert registry.driver(chat_channel.KEY).key == chat_channel.KEY
    finally:
        undo()
    assert not registry.registered(chat_channel.KEY)


def test_the_chat_channel_builds_no_kind_s_message_and_no_kind_names_it() -> None:
    source = Path(chat_channel.__file__)
    imported = {node.module for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
                if isinstance(node, ast.ImportFrom) and node.module}
    assert not [m for m in imported if m.startswith(("core.sending", "core.kinds", "core.planning"))]
    assert callable(getattr(chat_channel.ChatDriver, "render", None))
    assert all(chat_channel.KEY not in kind.overrides for kind in kinds.kinds())


# ----- a channel inside core: LINE WORKS -----

LINE_WORKS = re.compile(r"line[ _]?works", re.IGNORECASE)
# The channel: its driver and what the driver is made of.
WORKS_CHANNEL = {"core/channels/line_works.py", "core/channels/line_works_client.py",
                 "core/channels/line_works_credentials.py", "core/channels/line_works_ids.py",
                 "core/channels/line_works_rooms.py"}
WORKS_REGISTRATION = "core/channels/registry.py"
WORKS_TEXTS = {"core/texts/catalog.py", "cli/texts.py", "cli/words.py"}
# What is around it, not part of sending: where its values are typed and kept, the readiness check's
# questions, the receiver's route for its callback, the stand-in the tests and the demo talk to.
WORKS_SET_UP = {"core/setup/line_works.py", "core/setup/readiness.py", "core/store/secrets.py",
                "core/store/setting_keys.py", "core/receiving/line_works_callback.py", "core/receiving/server.py",
                "cli/line_works.py", "cli/commands.py", "cli/webhook.py", "ui/settings/line_works.py", "ui/settings/view.py",
                "ui/settings/classrooms.py", "ui/readiness/panel.py",
                "ui/shell/screenshots.py"}  # the documentation's picture of its Settings section
WORKS_STAND_IN = "core/emulator/line_works/"
# The layers that plan, build, send and record every channel's messages.
SENDING_LAYERS = ("core/kinds/", "core/sending/", "core/planning/", "core/outbox/", "core/messages/",
                  "core/roster/", "core/publication/", "core/store/models.py", "core/store/migrations/")


def _works_files() -> dict[str, list[int]]:
    return {path: lines for path, lines in files_naming(LINE_WORKS).items()
            if not path.startswith(WORKS_STAND_IN) and not path.startswith("core/app/") and
            not path.startswith("ui/demo/")}


def test_line_works_touches_no_kind_and_no_layer_that_sends() -> None:
    touching = sorted(path for path in files_naming(LINE_WORKS) if path.startswith(SENDING_LAYERS))
    assert touching == []


def test_line_works_is_its_driver_one_registration_line_and_texts_and_its_set_up() -> None:
    found = _works_files()
    assert set(found) - WORKS_CHANNEL - {WORKS_REGISTRATION} - WORKS_TEXTS - WORKS_SET_UP == set()
    assert set(found) >= WORKS_CHANNEL
    registry_source = (ROOT / WORKS_REGISTRATION).read_text(encoding="utf-8").splitlines()
    registration = [registry_source[n - 1].strip() for n in found[WORKS_REGISTRATION]]
    assert registration == ["from core.channels import email, line, line_works, webhook",
                            "register_channel(line_works.DRIVER)"]


def test_line_works_words_are_its_own_entries_not_shared_ones_changed() -> None:
    from core.texts.catalog import CATALOG

    saying_it = {code for code, (english, _) in CATALOG.items() if "LINE WORKS" in str(english)}
    assert saying_it
    own = re.compile(r"line_works|\.works_", re.IGNORECASE)  # its own codes: "line_works.…", "readiness.receiving.works_ok"
    assert sorted(code for code in saying_it if not own.search(code)) == []


# ----- a message kind -----


CHANNEL_NAMES = re.compile(r"^(line|email|webhook|line_works|chat)$|^Channel$")


def test_a_kind_is_one_module_that_names_no_channel_and_overrides_none() -> None:
    kind = shift_note_kind.KIND
    assert code_lines(Path(shift_note_kind.__file__), CHANNEL_NAMES) == []
    assert dict(kind.overrides) == {} and kind.compose is not None
    assert files_naming(re.compile(re.escape(kind.key))) == {}  # nothing in core, the CLI or the window


def test_a_kind_that_plans_through_the_context_names_no_channel() -> None:
    assert code_lines(Path(briefing_kind.__file__), CHANNEL_NAMES) == []
    assert files_naming(re.compile(re.escape(briefing_kind.KIND.key))) == {}
