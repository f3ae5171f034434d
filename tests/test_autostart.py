"""Start at login: the generated Windows value, LaunchAgent and XDG entry, and the Linux writer for real."""

from __future__ import annotations

import plistlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core.app import autostart

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------------------------------------------------------
# What to start
# ---------------------------------------------------------------------------------------------------------------
def test_command_from_a_source_checkout_runs_main_py_in_tray_mode() -> None:
    cmd = autostart.command_for_this_app()
    assert cmd[0] == sys.executable
    assert Path(cmd[1]).is_absolute() and Path(cmd[1]) == ROOT / "main.py" and Path(cmd[1]).is_file()
    assert cmd[2:] == ["tray"]


def test_command_when_packaged_is_the_executable_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", "/opt/shiftcast/shiftcast")
    assert autostart.command_for_this_app() == ["/opt/shiftcast/shiftcast", "tray"]


@pytest.mark.parametrize("bad", [[], [""], ["/bin/app\n", "tray"], ["app", "a\rb"]])
def test_a_command_must_be_one_line_with_an_executable(bad: list[str]) -> None:
    for make in (autostart.windows_run_value, autostart.launch_agent_plist, autostart.xdg_desktop_entry):
        with pytest.raises(ValueError):
            make(bad)


# ---------------------------------------------------------------------------------------------------------------
# Windows: the Run value (data only; the registry writer is exercised on Windows below)
# ---------------------------------------------------------------------------------------------------------------
def test_windows_value_quotes_the_executable_always() -> None:
    assert autostart.windows_run_value([r"C:\Program Files\Shiftcast\Shiftcast.exe", "tray"]) == (
        r'"C:\Program Files\Shiftcast\Shiftcast.exe" tray'
    )
    assert autostart.windows_run_value([r"C:\Apps\Shiftcast.exe", "tray"]) == r'"C:\Apps\Shiftcast.exe" tray'
    assert autostart.windows_run_value([r"C:\Apps\Shiftcast.exe"]) == r'"C:\Apps\Shiftcast.exe"'


def test_windows_value_matches_what_the_installer_writes() -> None:
    iss = (ROOT / "packaging" / "windows" / "shiftcast.iss").read_text(encoding="utf-8")
    # The installer writes """{app}\Shiftcast.exe"" tray" (Inno doubles quotes inside a quoted string).
    assert 'ValueData: """{app}\\Shiftcast.exe"" tray"' in iss
    value = autostart.windows_run_value([r"C:\Users\花子\AppData\Local\Programs\Shiftcast\Shiftcast.exe", "tray"])
    assert value == '"C:\\Users\\花子\\AppData\\Local\\Programs\\Shiftcast\\Shiftcast.exe" tray'


def test_windows_value_quotes_source_checkout_paths_with_spaces() -> None:
    value = autostart.windows_run_value(
        [r"C:\Python 3.12\pythonw.exe", r"C:\Users\Hanako Sato\shiftcast\main.py", "tray"])
    assert value == r'"C:\Python 3.12\pythonw.exe" "C:\Users\Hanako Sato\shiftcast\main.py" tray'


def test_windows_value_rejects_a_quote_in_the_executable() -> None:
    with pytest.raises(ValueError):
        autostart.windows_run_value(['C:\\a"b.exe', "tray"])


@pytest.mark.skipif(not sys.platform.startswith("win"), reason="the registry exists on Windows only")
def test_windows_registry_round_trip() -> None:  # pragma: no cover - Windows CI
    if sys.platform != "win32":  # as the mark says (and mypy checks the rest for Windows)
        pytest.skip("the registry exists on Windows only")
    import winreg

    key = r"Software\ShiftcastTests\Run"
    try:
        assert not autostart.windows_is_enabled(key)
        autostart.windows_enable([r"C:\Program Files\Shiftcast\Shiftcast.exe", "tray"], key)
        assert autostart.windows_is_enabled(key)
        with winreg.OpenKey(winreg.HKEY_CURRENT_USER, key) as k:
            assert winreg.QueryValueEx(k, "Shiftcast")[0] == r'"C:\Program Files\Shiftcast\Shiftcast.exe" tray'
        autostart.windows_disable(key)
        autostart.windows_disable(key)  # twice is fine
        assert not autostart.windows_is_enabled(key)
    finally:
        winreg.DeleteKey(winreg.HKEY_CURRENT_USER, key)


# ---------------------------------------------------------------------------------------------------------------
# macOS: the LaunchAgent (data, and the file writer pointed at a temporary home)
# ---------------------------------------------------------------------------------------------------------------
def test_launch_agent_plist_round_trips_through_plistlib() -> None:
    cmd = ["/Applications/Shiftcast.app/Contents/MacOS/Shiftcast", "tray"]
    data = plistlib.loads(autostart.launch_agent_plist(cmd))
    assert data["Label"] == autostart.LAUNCH_AGENT_LABEL == "app.shiftcast.Shiftcast"
    assert data["ProgramArguments"] == cmd
    assert data["RunAtLoad"] is True
    assert data["KeepAlive"] is False
    assert data["LimitLoadToSessionType"] == "Aqua"


def test_launch_agent_keeps_unusual_paths_exactly() -> None:
    cmd = ["/Users/hanako/Applications/Shift & cast <1>/Shiftcast.app/Contents/MacOS/Shiftcast", "tray"]
    raw = autostart.launch_agent_plist(cmd)
    assert b"&amp;" in raw and b"&lt;1&gt;" in raw
    assert plistlib.loads(raw)["ProgramArguments"] == cmd


def test_launch_agent_label_is_the_app_bundle_identifier() -> None:
    spec = (ROOT / "packaging" / "shiftcast.spec").read_text(encoding="utf-8")
    assert f'BUNDLE_ID = "{autostart.LAUNCH_AGENT_LABEL}"' in spec


def test_launch_agent_writer_in_a_temporary_home(tmp_path: Path) -> None:
    cmd = ["/Applications/Shiftcast.app/Contents/MacOS/Shiftcast", "tray"]
    assert not autostart.launch_agent_is_enabled(tmp_path)
    path = autostart.launch_agent_enable(cmd, tmp_path)
    assert path == tmp_path / "Library" / "LaunchAgents" / "app.shiftcast.Shiftcast.plist"
    assert autostart.launch_agent_is_enabled(tmp_path)
    assert plistlib.loads(path.read_bytes())["ProgramArguments"] == cmd
    autostart.launch_agent_disable(tmp_path)
    autostart.launch_agent_disable(tmp_path)
    assert not autostart.launch_agent_is_enabled(tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a plist")
    assert not autostart.launch_agent_is_enabled(tmp_path)


# ---------------------------------------------------------------------------------------------------------------
# Linux (XDG): the desktop entry, and enable/disable/is_enabled for real
# ---------------------------------------------------------------------------------------------------------------
def _entry(text: str) -> dict[str, str]:
    lines = text.splitlines()
    assert lines[0] == "[Desktop Entry]"
    return dict(line.split("=", 1) for line in lines[1:] if line)


def _unescape_string(value: str) -> str:
    out, i = [], 0
    while i < len(value):
        if value[i] == "\\" and i + 1 < len(value):
            out.append({"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\"}.get(value[i + 1], "\\" + value[i + 1]))
            i += 2
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def _split_exec(value: str) -> list[str]:
    """The reading side of the Desktop Entry spec's Exec rules (string escapes, then quoting, then %%)."""
    text = _unescape_string(value)
    args, current, i, quoted, has_arg = [], [], 0, False, False
    while i < len(text):
        c = text[i]
        if quoted:
            if c == "\\" and i + 1 < len(text) and text[i + 1] in '"`$\\':
                current.append(text[i + 1])
                i += 1
            elif c == '"':
                quoted = False
            else:
                current.append(c)
        elif c == '"':
            quoted, has_arg = True, True
        elif c == " ":
            if current or has_arg:
                args.append("".join(current))
            current, has_arg = [], False
        else:
            current.append(c)
        i += 1
    assert not quoted, "unterminated quote"
    if current or has_arg:
        args.append("".join(current))
    for a in args:
        assert "%" not in a.replace("%%", ""), f"field code left in {a!r}"
    return [a.replace("%%", "%") for a in args]


@pytest.mark.parametrize("cmd", [
    ["/opt/shiftcast/shiftcast", "tray"],
    ["/home/hanako/My Apps/shiftcast/shiftcast", "tray"],
    ["/usr/bin/python3", "/home/u/src/shift\"cast\"/main.py", "tray"],
    ["/home/u/$HOME/a`b`/100%/back\\slash/シフト/shiftcast", "tray"],
])
def test_xdg_entry_exec_round_trips(cmd: list[str]) -> None:
    entry = _entry(autostart.xdg_desktop_entry(cmd))
    assert _split_exec(entry["Exec"]) == cmd
    assert _unescape_string(entry["TryExec"]) == cmd[0]
    assert entry["Type"] == "Application"
    assert entry["Name"] == "Shiftcast"
    assert entry["Terminal"] == "false"
    assert entry.get("Hidden", "false") == "false"


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-utils is not installed")
def test_xdg_entry_passes_desktop_file_validate(tmp_path: Path) -> None:
    for i, cmd in enumerate([["/opt/shiftcast/shiftcast", "tray"], ["/home/u/My Apps/$x/100%/shiftcast", "tray"]]):
        path = tmp_path / f"entry{i}.desktop"
        path.write_text(autostart.xdg_desktop_entry(cmd), encoding="utf-8")
        done = subprocess.run(["desktop-file-validate", str(path)], capture_output=True, text=True)
        assert done.returncode == 0 and "error" not in done.stdout, done.stdout + done.stderr


def test_xdg_writer_in_a_temporary_config_home(tmp_path: Path) -> None:
    cmd = ["/opt/shiftcast/shiftcast", "tray"]
    assert not autostart.xdg_is_enabled(tmp_path)
    path = autostart.xdg_enable(cmd, tmp_path)
    assert path == tmp_path / "autostart" / "shiftcast.desktop"
    assert autostart.xdg_is_enabled(tmp_path)
    assert _split_exec(_entry(path.read_text(encoding="utf-8"))["Exec"]) == cmd
    assert [p.name for p in path.parent.iterdir()] == ["shiftcast.desktop"]  # no temporary file left behind
    autostart.xdg_disable(tmp_path)
    autostart.xdg_disable(tmp_path)
    assert not autostart.xdg_is_enabled(tmp_path)


def test_xdg_entry_turned_off_by_the_desktop_counts_as_disabled(tmp_path: Path) -> None:
    path = autostart.xdg_enable(["/opt/shiftcast/shiftcast", "tray"], tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace("X-GNOME-Autostart-enabled=true",
                                                             "X-GNOME-Autostart-enabled=false"), encoding="utf-8")
    assert not autostart.xdg_is_enabled(tmp_path)
    path.write_text("[Desktop Entry]\nType=Application\nExec=x\nHidden=true\n", encoding="utf-8")
    assert not autostart.xdg_is_enabled(tmp_path)


def test_xdg_config_home_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    assert autostart.xdg_autostart_file() == tmp_path / "cfg" / "autostart" / "shiftcast.desktop"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert autostart.xdg_autostart_file() == tmp_path / "home" / ".config" / "autostart" / "shiftcast.desktop"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert autostart.xdg_autostart_file() == tmp_path / "home" / ".config" / "autostart" / "shiftcast.desktop"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG autostart folder is the Linux mechanism")
def test_enable_disable_is_enabled_for_real_on_linux(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    target = tmp_path / "config" / "autostart" / "shiftcast.desktop"
    assert not autostart.is_enabled()
    autostart.enable(autostart.command_for_this_app())
    assert autostart.is_enabled() and target.is_file()
    assert _split_exec(_entry(target.read_text(encoding="utf-8"))["Exec"]) == autostart.command_for_this_app()
    autostart.enable(["/opt/shiftcast/shiftcast", "tray"])  # enabling again replaces the command
    assert _split_exec(_entry(target.read_text(encoding="utf-8"))["Exec"]) == ["/opt/shiftcast/shiftcast", "tray"]
    autostart.disable()
    assert not autostart.is_enabled() and not target.exists()
    autostart.disable()  # already off: nothing to do
    autostart.enable(["/opt/shiftcast/shiftcast", "tray"], base=tmp_path / "other")
    assert autostart.is_enabled(base=tmp_path / "other") and not autostart.is_enabled()


@pytest.mark.skipif(sys.platform.startswith("win"), reason="Windows writes the registry, not a folder")
def test_a_folder_that_cannot_be_written_is_a_user_facing_error(tmp_path: Path) -> None:
    (tmp_path / "autostart").write_text("a file where the folder should be", encoding="utf-8")
    (tmp_path / "Library").write_text("a file where the folder should be", encoding="utf-8")
    with pytest.raises(autostart.AutostartError):
        autostart.enable(["/opt/shiftcast/shiftcast", "tray"], base=tmp_path)
    assert not autostart.is_enabled(base=tmp_path)
