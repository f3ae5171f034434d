"""The shape of the code: core is layered packages with no import cycles, never imports Qt, ui or cli;
main.py stays thin. docs/architecture.md draws the same map."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Bottom to top: a unit may import itself and the units below it, never one above it. The texts (the
# message catalog, dates per language) import nothing of Shiftcast; the foundation modules import only
# the texts, never each other. The emulator stands apart: it imports only itself, and only the
# demo (app) and the front ends start it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("texts",),
    ("errors", "version", "resources", "logs", "startup", "addresses", "child_environment"),
    ("drafting",),  # the draft month's solver: pure, no database
    ("store",),
    ("roster",),
    ("messages",),
    ("outbox",),
    ("channels",),
    ("kinds",),
    ("planning",),
    # the teachers' page's documents, read from the roster, the planning and the outbox; beside them each
    # teacher's calendar, whose address a person document carries and whose text is one of the documents
    ("pages", "calendar"),
    ("publication",),
    ("alerts",),
    ("sending",),
    ("receiving",),
    ("relay",),
    ("setup",),
    ("app",),
)
LAYER_OF = {unit: i for i, units in enumerate(LAYERS) for unit in units}
EMULATOR = "emulator"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    found = {}
    for top in ("core", "cli"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" not in path.parts:
                found[_module_name(path)] = path
    return found


MODULES = _modules()


def _imports(path: Path) -> set[str]:
    """Every Shiftcast module `path` imports, at any depth of the file (functions and TYPE_CHECKING too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in MODULES else node.module)
    return found


def _top_names(path: Path) -> set[str]:
    return {name.split(".")[0] for name in _imports(path)}


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[0] if parts[0] != "core" or len(parts) == 1 else parts[1]


def test_every_core_unit_has_a_place_in_the_layers() -> None:
    units = {_unit(m) for m in MODULES if m.startswith("core.")}
    assert units - set(LAYER_OF) - {EMULATOR} == set()
    assert len(units) >= 12


def test_every_package_says_what_it_owns_and_what_it_may_import() -> None:
    for init in sorted((ROOT / "core").glob("*/__init__.py")) + [ROOT / "cli" / "__init__.py"]:
        if "migrations" in init.parts:
            continue
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc) > 120 and "import" in doc, init


def test_core_imports_go_down_the_layers_only() -> None:
    offenders = []
    for module, path in MODULES.items():
        if not module.startswith("core."):
            continue
        here = _unit(module)
        for target in _imports(path):
            if not target.startswith(("core.", "cli")) and target != "core":
                continue
            there = _unit(target) if target != "core" else "core"
            if target.startswith("cli") or there == here:
                if target.startswith("cli"):
                    offenders.append(f"{module} -> {target} (core never imports the CLI)")
                continue
            if here == EMULATOR or there == EMULATOR:
                if here == EMULATOR or LAYER_OF.get(here, -1) < LAYER_OF["app"]:
                    offenders.append(f"{module} -> {target} (the emulator stands apart)")
                continue
            if there not in LAYER_OF or LAYER_OF[there] > LAYER_OF[here] or (
                    LAYER_OF[there] == LAYER_OF[here] and LAYER_OF[here] == LAYER_OF["errors"]):
                offenders.append(f"{module} -> {target}")
    assert offenders == []


def test_no_import_cycles_between_modules() -> None:
    graph = {m: {t for t in _imports(p) if t in MODULES and t != m} for m, p in MODULES.items()}
    # A package's own __init__ is imported by every module inside it; it is no edge of a cycle.
    graph = {m: {t for t in ts if not m.startswith(t + ".")} for m, ts in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in graph:
        if module not in index:
            visit(module)
    assert cycles == []


def test_the_layer_check_catches_an_upward_import(tmp_path: Path) -> None:
    # The checks above must be able to fail: a store module importing the sender is an offence.
    bad = tmp_path / "bad.py"
    bad.write_text("from core.sending.sender import Sender\n", encoding="utf-8")
    target = next(iter(_imports(bad)))
    assert _unit(target) == "sending" and LAYER_OF[_unit(target)] > LAYER_OF["store"]


def test_core_never_imports_qt_ui_or_cli() -> None:
    files = sorted((ROOT / "core").rglob("*.py"))
    assert len(files) > 10
    offenders = {
        str(f.relative_to(ROOT)): sorted(bad)
        for f in files
        if (bad := _top_names(f) & {"PySide6", "shiboken6", "PyQt5", "PyQt6", "ui", "cli"})
    }
    assert offenders == {}


def test_cli_never_imports_qt_or_ui() -> None:
    offenders = {str(p): sorted(bad) for p in sorted((ROOT / "cli").rglob("*.py"))
                 if (bad := _top_names(p) & {"PySide6", "shiboken6", "ui"})}
    assert offenders == {}


def test_core_imports_without_qt_loaded() -> None:
    code = (
        "import sys, pkgutil, importlib, core\n"
        "for m in pkgutil.walk_packages(core.__path__, 'core.'):\n"
        "    if not m.name.startswith('core.store.migrations'): importlib.import_module(m.name)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'ui', 'cli')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_the_address_rule_lives_once() -> None:
    # HTTPS anywhere, plain HTTP to this computer only: core/addresses.py. The emulator stands apart
    # (it imports only itself) and checks the address it binds to.
    deciding = {path.relative_to(ROOT).as_posix() for folder in ("core", "cli", "ui") for path in (ROOT / folder).rglob("*.py")
                if ".is_loopback" in path.read_text(encoding="utf-8")}
    assert deciding == {"core/addresses.py", "core/emulator/server.py"}


def test_main_only_parses_and_hands_off() -> None:
    source = (ROOT / "main.py").read_text(encoding="utf-8")
    assert len(source.splitlines()) < 40
    assert _top_names(ROOT / "main.py") <= {"__future__", "sys", "collections", "core", "cli", "ui"}


def test_design_card_top_level() -> None:
    for name in ("pyproject.toml", "main.py", "core", "cli", "ui", "resources", "tests", "packaging", "README.md",
                 "Makefile", "docs", ".ci/run"):
        assert (ROOT / name).exists(), name


# What a ui module may take from core.store.db: the handle screens pass around, and the two functions
# that put a database that cannot be opened into the manager's words. Everything else there is how
# queries are made, which is core's business.
UI_FROM_STORE_DB = {"Database", "sqlite_file_of", "storage_problem"}


def _store_reaches(path: Path) -> list[tuple[int, str]]:
    """(line, name) wherever `path` reaches past core's query functions into the store: SQLAlchemy
    itself, the ORM models, or core.store.db beyond UI_FROM_STORE_DB. At any depth of the file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
            if node.module == "core.store.db":
                names = [f"core.store.db.{a.name}" for a in node.names if a.name not in UI_FROM_STORE_DB]
            elif node.module == "core.store":
                names = [f"core.store.{a.name}" for a in node.names]
        else:
            continue
        found += [(node.lineno, name) for name in names
                  if name.split(".")[0] == "sqlalchemy" or name.startswith(("core.store.models", "core.store.db"))]
    return found


def test_ui_reads_through_core_never_through_the_store() -> None:
    files = sorted((ROOT / "ui").rglob("*.py"))
    assert len(files) > 40
    assert [f"{path.relative_to(ROOT).as_posix()}:{line} {name}"
            for path in files for line, name in _store_reaches(path)] == []


def test_the_ui_store_check_catches_each_way_in(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import sqlalchemy.orm\nfrom sqlalchemy import select\nfrom core.store.models import Teacher\n"
                   "from core.store import models, db, hooks\nfrom core.store.db import Database, BulkStatement\n"
                   "def later():\n    from core.store.db import insert_unless_exists\n", encoding="utf-8")
    assert _store_reaches(bad) == [
        (1, "sqlalchemy.orm"), (2, "sqlalchemy"), (3, "core.store.models"), (4, "core.store.models"),
        (4, "core.store.db"), (5, "core.store.db.BulkStatement"), (7, "core.store.db.insert_unless_exists")]


# Screens change data through core operations that take the Database, open their own transaction and
# answer with frozen values or the changes they made: no ui module opens a session, passes one on, or
# names one. These folders still do, and are being moved onto core operations; each leaves this list
# as it is converted, and the list ends empty.
SESSION_NAMES = {"session", "Session", "sessionmaker", "scoped_session"}


def _receiver_is_a_database(node: ast.expr) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    return name.lower().endswith(("db", "database"))


def _session_uses(path: Path) -> list[tuple[int, str]]:
    """(line, what) wherever `path` opens a database scope (`.read()` / `.write()` on a database, or any
    argument-less `.read()` / `.write()` a `with` enters), imports SQLAlchemy, or names a session."""
    found: list[tuple[int, str]] = []
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    entered = {id(item.context_expr) for node in ast.walk(tree) if isinstance(node, ast.With | ast.AsyncWith)
               for item in node.items}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("read", "write")
                and not node.args and not node.keywords
                and (id(node) in entered or _receiver_is_a_database(node.func.value))):
            found.append((node.lineno, f".{node.func.attr}()"))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "sqlalchemy"]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "sqlalchemy":
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Name) and node.id in SESSION_NAMES:
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute) and node.attr in SESSION_NAMES:
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.arg) and node.arg in SESSION_NAMES:
            found.append((node.lineno, node.arg))
        elif isinstance(node, ast.alias) and (node.asname or node.name).split(".")[-1] in SESSION_NAMES:
            found.append((node.lineno, node.name))
    return sorted(set(found))


def test_ui_opens_no_database_session() -> None:
    files = sorted((ROOT / "ui").rglob("*.py"))
    assert len(files) > 40
    offenders = [f"{path.relative_to(ROOT).as_posix()}:{line} {what}" for path in files
                 for line, what in _session_uses(path)]
    assert offenders == []


def test_the_ui_session_check_catches_each_way_in(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from sqlalchemy.orm import Session\n"
        "import sqlalchemy\n"
        "def load(ctx, db, database, source, scope):\n"
        "    with ctx.db.read() as s:\n"
        "        pass\n"
        "    with db.write():\n"
        "        pass\n"
        "    database.read()\n"
        "    with scope.write():\n"
        "        pass\n"
        "    source.read()\n"  # a file: not a database
        "    run(lambda session: session.flush())\n"
        "    ctx.session\n", encoding="utf-8")
    assert _session_uses(bad) == [
        (1, "Session"), (1, "sqlalchemy.orm"), (2, "sqlalchemy"), (4, ".read()"), (6, ".write()"), (8, ".read()"),
        (9, ".write()"), (12, "session"), (13, "session")]


# The ui packages form no import cycle: ui/services holds what every screen is given and shares, the shell
# (the app's entry, window and tray) imports the feature packages, and a feature never imports the shell.
# This pair still imports each other and is being taken apart; nothing may join it.
def _ui_package_imports() -> dict[str, set[str]]:
    """ui package → the other ui packages its modules import, at any depth of a file (TYPE_CHECKING too)."""
    graph: dict[str, set[str]] = {}
    for path in sorted((ROOT / "ui").rglob("*.py")):
        parts = path.relative_to(ROOT / "ui").parts
        if len(parts) < 2:
            continue
        here = parts[0]
        graph.setdefault(here, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            graph[here] |= {name.split(".")[1] for name in names
                            if name.startswith("ui.") and name.split(".")[1] != here}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """Every set of nodes that reach each other (strongly connected, more than one)."""
    reach = {node: set(graph.get(node, ())) for node in graph}
    changed = True
    while changed:
        changed = False
        for seen in reach.values():
            more = set().union(*(reach.get(n, set()) for n in seen)) - seen
            if more:
                seen |= more
                changed = True
    found = {frozenset({node} | {other for other in reach[node] if node in reach.get(other, set())})
             for node in graph if node in reach[node]}
    return sorted((c for c in found if len(c) > 1), key=sorted)


def test_ui_packages_form_no_import_cycle() -> None:
    graph = _ui_package_imports()
    assert {"services", "common", "shell", "shifts"} <= set(graph)
    assert _cycles(graph) == []


def test_features_never_import_the_shell() -> None:
    graph = _ui_package_imports()
    assert sorted(p for p, targets in graph.items() if "shell" in targets) == []
    assert "shell" not in graph["services"] and "shell" not in graph["common"]


def test_the_cycle_check_finds_a_cycle_of_packages() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert _cycles(graph) == [frozenset({"a", "b", "c"})]
