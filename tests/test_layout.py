"""The shape of the code: core never imports Qt or ui; main.py stays thin."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_core_never_imports_qt_or_ui() -> None:
    files = sorted((ROOT / "core").rglob("*.py"))
    assert len(files) > 10
    offenders = {
        str(f.relative_to(ROOT)): sorted(bad)
        for f in files
        if (bad := _imports(f) & {"PySide6", "shiboken6", "PyQt5", "PyQt6", "ui"})
    }
    assert offenders == {}


def test_core_imports_without_qt_loaded() -> None:
    import subprocess
    import sys

    code = (
        "import sys, pkgutil, importlib, core\n"
        "for m in pkgutil.walk_packages(core.__path__, 'core.'):\n"
        "    if not m.name.startswith('core.migrations'): importlib.import_module(m.name)\n"
        "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'ui'))]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_main_only_parses_and_hands_off() -> None:
    source = (ROOT / "main.py").read_text(encoding="utf-8")
    assert len(source.splitlines()) < 40
    assert _imports(ROOT / "main.py") <= {"__future__", "sys", "collections", "core", "ui"}


def test_design_card_top_level() -> None:
    for name in ("pyproject.toml", "main.py", "core", "ui", "resources", "tests", "packaging", "README.md", "Makefile", "docs", ".ci/run"):
        assert (ROOT / name).exists(), name
