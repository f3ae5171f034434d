"""The `shiftcast` command: declared as a console script, and a start without Shiftcast's libraries
told in one line rather than a traceback."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from core.version import __version__

ROOT = Path(__file__).resolve().parent.parent


def test_the_shiftcast_script_is_declared_and_runs_main(capsys: pytest.CaptureFixture[str]) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["scripts"] == {"shiftcast": "main:main"}
    entry = importlib.metadata.EntryPoint(name="shiftcast", value=project["scripts"]["shiftcast"], group="console_scripts")
    with pytest.raises(SystemExit) as exited:
        entry.load()(["--version"])
    assert exited.value.code == 0 and capsys.readouterr().out.strip() == f"Shiftcast {__version__}"


def test_an_installed_shiftcast_has_the_script() -> None:
    try:
        installed = importlib.metadata.distribution("shiftcast")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("Shiftcast is not installed in this Python (make installs it)")
    declared = {e.name: e.value for e in installed.entry_points if e.group == "console_scripts"}
    if "shiftcast" not in declared:
        # Installed from a pyproject.toml before the script was declared: `make` installs again when
        # pyproject.toml changes. The declaration itself is held by the test above.
        pytest.skip("the installed metadata predates [project.scripts]; run make to install again")
    assert declared["shiftcast"] == "main:main"
    script = Path(sys.executable).parent / ("shiftcast.exe" if os.name == "nt" else "shiftcast")
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == f"Shiftcast {__version__}"


def _without_site_packages(*argv: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    """main.py under this Python with -S (no site-packages: none of Shiftcast's libraries) and -E."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": lang, "SHIFTCAST_HOME": str(ROOT / ".no-home")}
    return subprocess.run([sys.executable, "-S", "-E", "main.py", *argv], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.slow  # starts real interpreters
@pytest.mark.parametrize("argv", [("teachers",), ("import", "teachers", "x.csv"), ()])
def test_a_python_without_the_libraries_is_told_what_to_install(argv: tuple[str, ...]) -> None:
    done = _without_site_packages(*argv)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
    line = done.stderr.strip()
    assert line.startswith("shiftcast: ") and "make run" in line and "python -m pip install -e ." in line
    named = re.search(r"module (\S+) is missing", line)
    assert named is not None, line
    # The module named is one of the libraries (the first the verb imports), and truly missing there.
    assert subprocess.run([sys.executable, "-S", "-E", "-c", f"import {named[1]}"], capture_output=True,
                          timeout=60).returncode == 1
    assert importlib.util.find_spec(named[1]) is not None  # and installed with Shiftcast
    assert not (ROOT / ".no-home").exists()  # nothing was created on the way


@pytest.mark.slow  # starts a real interpreter
def test_the_missing_library_line_speaks_japanese() -> None:
    done = _without_site_packages("teachers", lang="ja_JP.UTF-8")
    assert done.returncode == 2 and "がありません" in done.stderr and "make run" in done.stderr


@pytest.mark.slow  # starts a real interpreter
def test_version_needs_no_library() -> None:
    done = _without_site_packages("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"Shiftcast {__version__}"


@pytest.mark.slow  # starts a real interpreter
def test_a_missing_library_of_an_extra_names_the_extra(tmp_path: Path) -> None:
    """psycopg comes with the postgres extra only: `pip install -e .` would not bring it, so the line
    names the extra. A stand-in psycopg on the path fails to import as a missing one does."""
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "psycopg.py").write_text("raise ModuleNotFoundError(\"No module named 'psycopg'\", name='psycopg')\n")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "PYTHONPATH": f"{fake}{os.pathsep}{ROOT}",
           "SHIFTCAST_HOME": str(tmp_path / "home"), "SHIFTCAST_DB_URL": "postgresql+psycopg://shiftcast@127.0.0.1:1/x"}
    done = subprocess.run([sys.executable, "main.py", "teachers"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == ("shiftcast: module psycopg is missing: it comes with Shiftcast's postgres extra. Run "
                                   "`python -m pip install -e '.[postgres]'` in Shiftcast's folder with the Python "
                                   "that runs it")
