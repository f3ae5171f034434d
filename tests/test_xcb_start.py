"""The window from source on a real X display (Xvfb, a small window manager, Qt's xcb plugin).

Qt's xcb platform plugin loads a dozen system libraries that the offscreen platform of the rest of the
suite never touches; one missing (libxcb-icccm4, libxcb-keysyms1, …) aborts `make run` on a fresh
machine. CI installs exactly the README's list and runs this, so a list that is short fails CI.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNDER_CI = os.environ.get("CI", "").lower() == "true"
XVFB = shutil.which("Xvfb")
WINDOW_MANAGER = shutil.which("matchbox-window-manager")

_display_here = pytest.mark.skipif(XVFB is None and not UNDER_CI, reason="no Xvfb on this machine (CI always runs it)")


def needs_display(test):
    """An X server, a window manager and the window, as processes: slow (`make test`, not `make check`)."""
    return pytest.mark.slow(_display_here(test))


@pytest.fixture
def display() -> Iterator[str]:
    assert XVFB is not None, "Xvfb is missing: .ci/run installs the xvfb package"
    read_end, write_end = os.pipe()
    # -displayfd: Xvfb picks a free display and writes its number once it accepts clients.
    server = subprocess.Popen([XVFB, "-displayfd", str(write_end), "-screen", "0", "1366x768x24", "-nolisten", "tcp"],
                              pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(write_end)
    with os.fdopen(read_end) as ready:
        number = ready.readline().strip()
    if not number:
        server.kill()
        raise AssertionError(f"Xvfb did not start: {server.communicate(timeout=30)[1].decode()[-500:]}")
    name = f":{number}"
    manager = None
    if WINDOW_MANAGER is not None:
        manager = subprocess.Popen([WINDOW_MANAGER, "-use_titlebar", "yes"], env=os.environ | {"DISPLAY": name},
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elif UNDER_CI:
        server.kill()
        raise AssertionError("matchbox-window-manager is missing: .ci/run installs it")
    try:
        yield name
    finally:
        for process in (manager, server):
            if process is not None:
                process.terminate()
                process.wait(timeout=30)


@needs_display
def test_the_window_starts_from_source_through_the_xcb_plugin(display: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SHIFTCAST_", "QT_"))}
    env |= {"DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "SHIFTCAST_HOME": str(tmp_path / "home"),
            "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring", "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    # --smoke prints one JSON line once the whole window is shown, then quits: the signal waited for.
    done = subprocess.run([sys.executable, "main.py", "--smoke"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Could not load the Qt platform plugin" not in done.stderr
    [line] = [line for line in done.stdout.splitlines() if line.startswith("{")]
    result = json.loads(line)
    assert result["smoke"] == "ok" and result["tabs"] >= 4, result


@needs_display
def test_a_missing_xcb_library_fails_the_start(display: str, tmp_path: Path) -> None:
    """The check above can fail: with libxcb-icccm4 unloadable the xcb plugin does not start."""
    broken = tmp_path / "lib"
    broken.mkdir()
    (broken / "libxcb-icccm.so.4").write_bytes(b"")  # found first, and not a library
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SHIFTCAST_", "QT_"))}
    env |= {"DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "SHIFTCAST_HOME": str(tmp_path / "home"),
            "LD_LIBRARY_PATH": str(broken), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    done = subprocess.run([sys.executable, "main.py", "--smoke"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode != 0 and '"smoke": "ok"' not in done.stdout


def _words(text: str) -> list[str]:
    return [w for w in text.replace("\\\n", " ").split() if w != "\\"]


def test_the_readme_and_ci_install_the_same_system_packages() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("apt-get install -y", 1)[1].split("```", 1)[0]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    listed = ci.split("readme_packages=(", 1)[1].split(")", 1)[0]
    assert _words(block) == _words(listed)
    assert {"libxcb-icccm4", "libxcb-keysyms1", "libxcb-cursor0"} <= set(_words(listed))
