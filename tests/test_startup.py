"""What start-up imports: every CLI call, tray start and wake-up pays for it (docs/performance.md,
Start-up). Each check runs in a fresh interpreter, where sys.modules shows what an import loaded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every check starts a fresh interpreter

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
    # (ui/shell/main_window.py, ui/shell/app.py): neither is paid for before the window appears.
    loaded = _loaded_by("import ui.shell.app, ui.shell.main_window")
    assert "ui.shifts.view" not in loaded  # built by the window, not at import
    assert {"ui.publish.view", "ui.deliveries.view", "ui.settings.view", "core.sending.engine",
            "core.sending.scheduler"} & loaded == set()


def test_a_verb_on_sqlite_loads_neither_alembic_nor_the_postgresql_dialect(tmp_path: Path) -> None:
    # `teachers --json` on a database at head: a version check, no Alembic, and no PostgreSQL dialect
    # (its import alone costs 30-50 ms; core/store/models.py says why the model names SQLite's index
    # condition only).
    home = tmp_path / "home"
    subprocess.run([sys.executable, "main.py", "--home", str(home), "teachers"], cwd=ROOT, check=True,
                   capture_output=True, timeout=60)  # creates the database and migrates it to head
    loaded = _loaded_by(
        "import main\n"
        f"main.main(['--home', {str(home)!r}, 'teachers', '--json'])\n")
    assert "core.roster.rules" in loaded  # the verb did run
    assert {"alembic", "psycopg"} & _tops(loaded) == set()
    assert not {m for m in loaded if m.startswith("sqlalchemy.dialects.postgresql")}


def _collector_after(statement: str) -> dict[str, bool | int]:
    code = ("import gc, json\n"
            f"{statement}\n"
            "print(json.dumps({'enabled': gc.isenabled(), 'frozen': gc.get_freeze_count()}))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    state: dict[str, bool | int] = json.loads(done.stdout.strip().splitlines()[-1])
    return state


def test_start_up_pauses_the_collector_and_every_way_out_resumes_it(tmp_path: Path) -> None:
    paused = _collector_after("from core.startup import pause_collector\npause_collector()")
    assert paused == {"enabled": False, "frozen": 0}
    resumed = _collector_after("from core.startup import pause_collector, resume_collector\n"
                               "pause_collector()\nimport sqlalchemy.orm\nresume_collector()")
    assert resumed["enabled"] is True
    assert resumed["frozen"] > 10_000  # start-up's objects are out of the collector's sight
    untouched = _collector_after("from core.startup import resume_collector\nresume_collector()")
    assert untouched == {"enabled": True, "frozen": 0}  # nothing was paused: nothing to freeze
    # A verb runs with the collector on; so does whatever follows a usage error.
    verb = _collector_after(
        "import main\n"
        "seen = []\n"
        "import cli.commands as c\n"
        "c.COMMANDS['teachers'] = lambda db, args, paths: seen.append(gc.isenabled()) or 0\n"
        f"assert main.main(['--home', {str(tmp_path / 'home')!r}, 'teachers']) == 0\n"
        "assert seen == [True], seen")
    assert verb["enabled"] is True
    usage = _collector_after("import main\nassert main.main(['no-such-verb']) == 2")
    assert usage["enabled"] is True
    # The sender ends start-up itself, past its imports: a one-off drain before it sends ...
    drain = _collector_after(
        "import main, types\n"
        "from core.sending.sender import Sender\n"
        "seen = []\n"
        "Sender.run_until_idle = lambda self: seen.append(gc.isenabled()) or types.SimpleNamespace()\n"
        f"assert main.main(['--home', {str(tmp_path / 'home')!r}, 'sender', '--until-idle']) == 0\n"
        "assert seen == [True], seen")
    assert drain["enabled"] is True
    # ... and the long-running sender once its loop runs.
    running = _collector_after(
        "import threading, types\n"
        "from core.startup import pause_collector\n"
        "from cli.sending import _send_until_stopped\n"
        "ready, stop = threading.Event(), threading.Event()\n"
        "loop = types.SimpleNamespace(ready=ready, stats=None)\n"
        "engine = types.SimpleNamespace(start=lambda: ready.set() or True, sender=loop, stop=lambda: None,\n"
        "                               paths=types.SimpleNamespace(home='h'))\n"
        "threading.Timer(0, stop.set).start()\n"
        "pause_collector()\n"
        "assert _send_until_stopped(engine, stop, []) == 0\n")
    assert running["enabled"] is True
    # The window's start-up ends once its first loads have landed (ui/shell/app.py schedules this);
    # from then on its UI thread collects, never the automatic collector (tests/test_ui_gc.py).
    window = _collector_after("from core.startup import pause_collector\npause_collector()\n"
                              "from PySide6.QtCore import QCoreApplication\napp = QCoreApplication([])\n"
                              "from ui.shell.gc_tuning import tune_for_interactivity\ntune_for_interactivity(app)")
    assert window["enabled"] is False and window["frozen"] > 10_000
