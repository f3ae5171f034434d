"""What start-up imports: every CLI call, tray start and wake-up pays for it (docs/performance.md,
Start-up). Each check runs in a fresh interpreter, where sys.modules shows what an import loaded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _loaded_by(statement: str) -> set[str]:
    code = f"import json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def _tops(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


@pytest.mark.parametrize("module", ["core.sending.engine", "core.sending.sender", "core.app.demo",
                                    "core.publication.publish"])
def test_the_sending_stack_loads_no_drawing_keyring_or_emulator(module: str) -> None:
    # Pillow and holidays draw the month image, keyring reads a secret, the emulator serves the demo:
    # each is imported where it is used, not by every process that might use it.
    loaded = _loaded_by(f"import {module}")
    assert _tops(loaded) & {"PIL", "holidays", "keyring", "apscheduler", "alembic"} == set()
    assert {"core.emulator", "http.server"} & loaded == set()


def test_planning_once_loads_no_apscheduler(tmp_path: Path) -> None:
    # `main.py sender --until-idle` plans once through the Scheduler without starting APScheduler.
    loaded = _loaded_by(
        "from core.store.bootstrap import open_database\n"
        "from core.store.paths import data_paths\n"
        "from core.sending.scheduler import Scheduler\n"
        f"db = open_database(data_paths(__import__('pathlib').Path({str(tmp_path)!r})))\n"
        "Scheduler(db, wake_sender=lambda: None).run_plan()\n"
        "db.dispose()\n")
    assert "apscheduler" not in _tops(loaded)


def test_the_window_imports_its_first_area_only_and_no_engine() -> None:
    # The other areas are imported when first shown, the engine once the window is on screen
    # (ui/main_window.py, ui/app.py): neither is paid for before the window appears.
    loaded = _loaded_by("import ui.app, ui.main_window")
    assert "ui.shifts_view" not in loaded  # built by the window, not at import
    assert {"ui.publish_view", "ui.deliveries_view", "ui.settings_view", "core.sending.engine",
            "core.sending.scheduler"} & loaded == set()
