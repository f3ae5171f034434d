"""No sentence for a person is built outside the catalog (core/texts/catalog.py, and the command line's
own, cli/texts.py) in core or the CLI, and each message lives in the catalog of those who say it.

Scanned: every construction of the project's errors (ShiftcastError and its subclasses, found in the
code; each positional argument, as an error may take a kind before its message), of CSV and copy problems
and of alert conditions, and every `print` and prompt (`input`, `getpass`) of the CLI. Each must pass
a `t("code", …)` (or a variable holding one), never a string literal, an f-string, a concatenation or
a `.format`. A new module (core/receiving/…, core/setup/…) is held to it the moment it is merged.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TypeGuard

from cli import texts as cli_texts
from core.texts.catalog import CATALOG

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("core", "cli")
# The catalog itself, the emulator (LINE's stand-in speaks LINE's English to the app, not to a
# person) and the migrations (run once, logged) are not scanned.
SKIPPED = ("core/texts/", "core/emulator/", "core/store/migrations/")
# Constructions whose argument at this position is a sentence for a person.
SENTENCE_ARGUMENTS = {"RowProblem": (1,), "CopyProblem": (1,), "Condition": (2, 3), "LineApiError": (1,),
                      "CannotBuild": (1,), "Verdict": (2,), "Decision": (2,)}
# Why a delivery was not sent, as its rows keep it (deliveries.last_error_message, delivery_attempts
# .error_message): passed by these names to a call, a dict or an assignment, it must be a catalog message.
ERROR_COLUMNS = {"last_error_message", "error_message"}
WORD = re.compile(r"[A-Za-z]{3,}")
# A print's own words allowed as they are: the program's name before its message.
PRINT_WORDS = {"shiftcast"}

HOW_TO_FIX = """
These sites build a sentence for a person outside the message catalog:
{sites}

Convert each one: give the sentence a stable code in core/texts/catalog.py (words only the command
line says: cli/texts.py), with its English and its Japanese (resources/i18n/glossary.md for the words) and named parameters, then pass the code and the
values instead of the words:

    raise ValidationError(f"no teacher named {{name!r}}")          # before
    "roster.unknown_teacher": ("unknown teacher '{{name}}'",       # core/texts/catalog.py
                               "「{{name}}」という講師は登録されていません。"),
    raise ValidationError(t("roster.unknown_teacher", name=name))  # after (from core.texts import t)

Values stay typed (a date as a date, a count as an int named count/…_count), so each language writes
them its own way; a count that changes the English words is a Plural. In the CLI, print
words.line("code", …) or words.say(text) (cli/words.py). tests/test_texts_catalog.py then checks the
new entry in both languages.
"""


def _files() -> Iterator[Path]:
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            if not str(path.relative_to(ROOT)).replace("\\", "/").startswith(SKIPPED):
                yield path


def _trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8"), filename=str(path)) for path in _files()}


def _name(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


def error_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """ShiftcastError and every class that derives from it, by name, across core and cli."""
    found = {"ShiftcastError"}
    bases = {node.name: {_name(b) for b in node.bases} for tree in trees.values()
             for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    while True:
        more = {name for name, parents in bases.items() if parents & found} - found
        if not more:
            return found
        found |= more


def is_sentence(node: ast.expr) -> bool:
    """A string built here: a literal with words, an f-string, a concatenation, a .format or a % of one."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(WORD.search(node.value))
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
        return is_sentence(node.left) or is_sentence(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("format", "join"):
        return is_sentence(node.func.value)
    return False


def _printed_words(node: ast.expr) -> Iterator[str]:
    """The literal words of a printed expression, leaving out what the catalog renders and dict keys."""
    if isinstance(node, ast.Call) and _name(node.func) in ("t", "line", "say", "dumps"):
        return
    if isinstance(node, ast.Subscript):
        yield from _printed_words(node.value)
        return
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
        return
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.expr) and not isinstance(child, ast.FormattedValue | ast.JoinedStr):
            yield from _printed_words(child)
        elif isinstance(child, ast.FormattedValue):
            yield from _printed_words(child.value)
        elif isinstance(child, ast.JoinedStr):
            yield from _printed_words(child)


def _stores_an_error_sentence(node: ast.AST) -> TypeGuard[ast.Dict | ast.Assign | ast.AnnAssign]:
    """`{"error_message": "…"}` or `delivery.last_error_message = f"…"`: a delivery's error in words."""
    if isinstance(node, ast.Dict):
        return any(isinstance(k, ast.Constant) and k.value in ERROR_COLUMNS and is_sentence(v)
                   for k, v in zip(node.keys, node.values, strict=True))
    if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return any(isinstance(t, ast.Attribute) and t.attr in ERROR_COLUMNS for t in targets) and is_sentence(node.value)
    return False


def offences(trees: dict[Path, ast.Module]) -> list[str]:
    errors = error_classes(trees)
    found = []
    for path, tree in trees.items():
        where = path.relative_to(ROOT)
        for node in ast.walk(tree):
            if _stores_an_error_sentence(node):
                found.append(f"  {where}:{node.lineno}: {ast.unparse(node)[:100]}")
            if not isinstance(node, ast.Call):
                continue
            name = _name(node.func)
            # An error's message may follow a kind (AddressError(AddressProblem.INVALID, …)): every argument.
            positions = range(len(node.args)) if name in errors else SENTENCE_ARGUMENTS.get(name or "", ())
            arguments = [node.args[i] for i in positions if i < len(node.args)]
            if name == "Condition":
                arguments += [k.value for k in node.keywords if k.arg in ("title", "detail")]
            if name in ("Verdict", "Decision"):
                arguments += [k.value for k in node.keywords if k.arg == "message"]
            arguments += [k.value for k in node.keywords if k.arg in ERROR_COLUMNS]
            if any(is_sentence(a) for a in arguments):
                found.append(f"  {where}:{node.lineno}: {ast.unparse(node)[:100]}")
            if name in ("print", "input", "getpass") and path.parts[len(ROOT.parts)] == "cli":
                literal = " ".join(w for a in node.args for w in _printed_words(a))
                if any(word.lower() not in PRINT_WORDS for word in WORD.findall(literal)):
                    found.append(f"  {where}:{node.lineno}: {ast.unparse(node)[:100]}")
    return found


def test_no_sentence_is_built_outside_the_catalog() -> None:
    trees = _trees()
    assert len(trees) > 80 and len(error_classes(trees)) >= 10
    found = offences(trees)
    assert not found, HOW_TO_FIX.format(sites="\n".join(found))


def test_the_scan_finds_each_kind_of_site(tmp_path: Path) -> None:
    source = '''
class ReceiverError(ShiftcastError): pass
class HookError(ReceiverError): pass
def f(name, line, n):
    raise ValidationError(f"no teacher named {name!r}")
    raise HookError("the webhook said no")
    raise NotFoundError("no shift with id " + str(n))
    raise ValidationError("{} is busy".format(name))
    problems.append(RowProblem(line, "duplicate row"))
    Condition(kind, "", "LINE is down", detail="try later")
    raise ValidationError(t("roster.unknown_teacher", name=name))
    raise ValidationError(message)
    RowProblem(line, t("csv.duplicate_row"))
    raise HookError(Kind.INVALID, f"{name!r} is not an https:// address")
    raise HookError(Kind.INVALID, t("address.not_https", value=name), output=name)
'''
    tree = ast.parse(source)
    fake = {ROOT / "core" / "receiving" / "new_module.py": tree}
    found = offences(fake | {ROOT / "core" / "errors.py": _trees()[ROOT / "core" / "errors.py"]})
    assert sorted(int(line.split(":")[1]) for line in found) == [5, 6, 7, 8, 9, 10, 14]


def test_the_scan_reads_cli_prints(tmp_path: Path) -> None:
    source = '''
print(f"imported {what}: {n} added")
print("saved in the keyring")
print(words.line("cli.wrote", path=p))
print(f"shiftcast: {words.say(exc.text)}", file=sys.stderr)
print(json.dumps(rows, ensure_ascii=False, indent=2))
print(f"{r['id']:>5}  {r['title']}")
token = getpass.getpass("LINE channel access token: ")
name = input(words.line("cli.prompt.line_token"))
'''
    found = offences({ROOT / "cli" / "new_verbs.py": ast.parse(source)})
    assert [line.split(":")[1] for line in found] == ["2", "3", "8"]


def test_the_scan_finds_delivery_errors_written_in_words() -> None:
    source = '''
def f(session, delivery, code, result):
    outbox.transition(session, 1, status=FAILED, last_error_message="the image upload failed")
    outbox.transition(session, 1, status=FAILED, last_error_message=policy.stored_error(text))
    outbox.record_attempts(session, [{"delivery_id": 1, "error_message": f"HTTP {code}: gone"}])
    outbox.record_attempts(session, [{"delivery_id": 1, "error_message": policy.stored_error(text)}])
    delivery.last_error_message = "LINE said no " + code
    delivery.last_error_message = policy.stored_error(t("send_error.TIMEOUT", said=said))
    raise CannotBuild("IMAGE_MISSING", f"the image of revision {n} is missing")
    raise CannotBuild("IMAGE_MISSING", t("send_error.IMAGE_MISSING", revision=n))
    return Verdict(Outcome.RETRY, ErrorCode.TIMEOUT, "no answer before the timeout")
    return Verdict(Outcome.RETRY, ErrorCode.TIMEOUT, message="connection failed")
    return Verdict(Outcome.RETRY, ErrorCode.TIMEOUT, error_text(code, result))
'''
    found = offences({ROOT / "core" / "sending" / "new_module.py": ast.parse(source)})
    assert sorted(int(line.split(":")[1]) for line in found) == [3, 5, 7, 9, 11, 12]


# The catalogs themselves name every code; they are not who says it.
CATALOG_FILES = ("core/texts/catalog.py", "cli/texts.py")
CODE = re.compile(r"[a-z][a-z0-9_]*(\.[A-Za-z0-9_]+)+")


def said_in(tops: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """The message codes the code under `tops` names: whole (`t("cli.wrote")`) and by their start
    (`t(f"cli.what.{what}")`, every code that starts so)."""
    whole: set[str] = set()
    starts: set[str] = set()
    for top in tops:
        for path in sorted((ROOT / top).rglob("*.py")):
            if path.relative_to(ROOT).as_posix() in CATALOG_FILES:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.fullmatch(node.value):
                    whole.add(node.value)
                elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                    start = str(node.values[0].value)
                    if start.endswith(".") and CODE.fullmatch(start[:-1]):
                        starts.add(start)
    return whole, starts


def _says(said: tuple[set[str], set[str]], code: str) -> bool:
    whole, starts = said
    return code in whole or any(code.startswith(start) for start in starts)


def misplaced_codes(core: Mapping[str, object], cli: Mapping[str, object], by_core: tuple[set[str], set[str]],
                    by_cli: tuple[set[str], set[str]]) -> list[str]:
    """A code in the wrong catalog: core's said only by the command line, or the command line's said by
    core or the window (which never load cli/texts.py, so `t()` would fail there), or said by no one."""
    found = [f"  {code}: only the command line says it; move it to cli/texts.py"
             for code in core if _says(by_cli, code) and not _says(by_core, code)]
    found += [f"  {code}: core or the window says it; it belongs in core/texts/catalog.py"
              for code in cli if _says(by_core, code)]
    found += [f"  {code}: nothing says it" for code in cli if not _says(by_cli, code)]
    return found


def test_each_message_lives_in_the_catalog_of_those_who_say_it() -> None:
    by_core = said_in(("core", "ui"))
    by_cli = said_in(("cli",))
    assert len(by_cli[0]) > 50 and "cli.what." in by_cli[1]
    found = misplaced_codes(CATALOG, cli_texts.CATALOG, by_core, by_cli)
    assert not found, "\n".join(found)


def test_the_placement_check_names_each_kind_of_misplaced_code() -> None:
    core = {"roster.shared": "", "cli.only_here": "", "cli.dynamic.one": ""}
    cli = {"cli.said_by_core": "", "cli.forgotten": "", "cli.fine": ""}
    by_core: tuple[set[str], set[str]] = ({"roster.shared", "cli.said_by_core"}, set())
    by_cli = ({"roster.shared", "cli.only_here", "cli.fine", "cli.said_by_core"}, {"cli.dynamic."})
    found = misplaced_codes(core, cli, by_core, by_cli)
    assert [line.split(":")[0].strip() for line in found] == [
        "cli.only_here", "cli.dynamic.one", "cli.said_by_core", "cli.forgotten"]
