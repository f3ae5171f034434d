"""ui/shell/import_hook.py: a package whose module has a __getattr__ imports cleanly behind the window."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from core.child_environment import child_environment

ROOT = Path(__file__).resolve().parent.parent

# pydantic's shape, small: errors.py has a module __getattr__ that imports from the module that is
# importing errors.py; PySide's check, asking the module for __wrapped__, runs it half-way.
PACKAGE = {
    "__init__.py": "",
    "_validators.py": "from halfway.errors import Problem\n\ndef import_string():\n    return Problem\n",
    "errors.py": ("class Problem(Exception):\n    pass\n\n\ndef __getattr__(name):\n"
                  "    if name == '__path__':\n        raise AttributeError(name)\n"
                  "    from halfway._validators import import_string  # noqa: F401\n    raise AttributeError(name)\n"),
}

PROGRAM = """
import threading
import ui  # what every window process imports first
from PySide6.QtWidgets import QApplication
app = QApplication([])
seen = []

def work():
    import halfway._validators
    seen.append(halfway._validators.import_string().__name__)

task = threading.Thread(target=work)
task.start()
task.join()
print(seen)
"""


def test_a_module_with_its_own_getattr_imports_on_a_background_thread(tmp_path: Path) -> None:
    package = tmp_path / "halfway"
    package.mkdir()
    for name, text in PACKAGE.items():
        (package / name).write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=child_environment(given={"QT_QPA_PLATFORM": "offscreen",
                                                       "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}"}),
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "['Problem']"


def test_the_hook_is_found_in_this_pyside() -> None:
    from ui.shell import import_hook

    assert import_hook.read_module_files()  # a PySide without the hook would make the first test pass for nothing
