"""Start at login: Shiftcast's `tray` mode, started by the OS when the user logs in.

- Windows: the value "Shiftcast" under HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run (the installer's
  "start at login" task writes the same value, so the app and the installer agree on what "enabled" means).
- macOS: a LaunchAgent, ~/Library/LaunchAgents/app.shiftcast.Shiftcast.plist, with RunAtLoad.
- Linux and other XDG desktops: $XDG_CONFIG_HOME/autostart/shiftcast.desktop (default ~/.config).

The contents are made by pure functions (`windows_run_value`, `launch_agent_plist`, `xdg_desktop_entry`); the
writers are thin and take the folder to write in, so tests point them at a temporary folder. No Qt here.
"""

from __future__ import annotations

import os
import plistlib
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from core.errors import ShiftcastError
from core.texts import t

APP_NAME = "Shiftcast"
TRAY_MODE = "tray"

WINDOWS_RUN_KEY = r"Software\Microsoft\Windows\CurrentVersion\Run"
WINDOWS_VALUE_NAME = APP_NAME
LAUNCH_AGENT_LABEL = "app.shiftcast.Shiftcast"  # the bundle identifier of the macOS app
XDG_FILE_NAME = "shiftcast.desktop"


class AutostartError(ShiftcastError):
    """The OS refused to change the start-at-login setting (message is meant for the user)."""


# --------------------------------------------------------------------------------------------------------------
# What to start
# --------------------------------------------------------------------------------------------------------------
def command_for_this_app() -> list[str]:
    """The command that starts this installation in tray mode.

    Packaged (PyInstaller sets sys.frozen): the app's own executable. From a source checkout: this Python
    interpreter with the absolute path of main.py.
    """
    if getattr(sys, "frozen", False):
        return [sys.executable, TRAY_MODE]
    main = Path(__file__).resolve().parents[2] / "main.py"
    return [sys.executable, str(main), TRAY_MODE]


def _check(cmd: Sequence[str]) -> list[str]:
    command = [str(part) for part in cmd]
    if not command or not command[0]:
        raise ValueError("the start-at-login command needs at least the executable")
    if any("\n" in part or "\r" in part or "\0" in part for part in command):
        raise ValueError("the start-at-login command cannot contain line breaks or NUL characters")
    return command


# --------------------------------------------------------------------------------------------------------------
# Pure generators
# --------------------------------------------------------------------------------------------------------------
def windows_run_value(cmd: Sequence[str]) -> str:
    """The Run value's data: the executable always in double quotes, the arguments quoted as
    CommandLineToArgvW expects (e.g. `"C:\\Program Files\\Shiftcast\\Shiftcast.exe" tray`)."""
    command = _check(cmd)
    exe = command[0]
    if '"' in exe:
        raise ValueError("a Windows path cannot contain a double quote")
    rest = subprocess.list2cmdline(command[1:])
    return f'"{exe}"' + (f" {rest}" if rest else "")


def launch_agent_plist(cmd: Sequence[str]) -> bytes:
    """A LaunchAgent property list (XML) that starts the command once at login."""
    payload = {
        "Label": LAUNCH_AGENT_LABEL,
        "ProgramArguments": _check(cmd),
        "RunAtLoad": True,
        "KeepAlive": False,  # quitting from the tray menu must stay quit
        "ProcessType": "Interactive",
        "LimitLoadToSessionType": "Aqua",  # only in a graphical login, never over ssh
    }
    return plistlib.dumps(payload, fmt=plistlib.FMT_XML, sort_keys=False)


_EXEC_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`=")  # characters that force quoting (Desktop Entry spec, "Exec")
_EXEC_ESCAPED_IN_QUOTES = set('"`$\\')


def _exec_argument(arg: str) -> str:
    if arg and not any(c in _EXEC_RESERVED for c in arg):
        quoted = arg
    else:
        quoted = '"' + "".join("\\" + c if c in _EXEC_ESCAPED_IN_QUOTES else c for c in arg) + '"'
    return quoted.replace("%", "%%")  # a lone % would be a field code


def _desktop_string(value: str) -> str:
    """The escapes of a Desktop Entry string value, applied after the Exec quoting rule."""
    return value.replace("\\", "\\\\").replace("\t", "\\t")


def xdg_desktop_entry(cmd: Sequence[str]) -> str:
    """An XDG autostart desktop entry (freedesktop.org Desktop Entry Specification)."""
    command = _check(cmd)
    exec_line = " ".join(_exec_argument(arg) for arg in command)
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.0",
        f"Name={APP_NAME}",
        "Comment=Sends shift reminders in the background",
        "Comment[ja]=シフトのリマインダーをバックグラウンドで送信します",
        f"TryExec={_desktop_string(command[0])}",  # skipped quietly once the app is uninstalled
        f"Exec={_desktop_string(exec_line)}",
        "Icon=shiftcast",
        "Terminal=false",
        "NoDisplay=true",
        "X-GNOME-Autostart-enabled=true",
        "",
    ])


# --------------------------------------------------------------------------------------------------------------
# Thin writers, one per OS; each takes the folder (or registry key) it works in
# --------------------------------------------------------------------------------------------------------------
def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def xdg_config_home() -> Path:
    configured = os.environ.get("XDG_CONFIG_HOME", "").strip()
    # The spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
    if configured and Path(configured).is_absolute():
        return Path(configured)
    return Path.home() / ".config"


def xdg_autostart_file(config_home: Path | None = None) -> Path:
    return (config_home if config_home is not None else xdg_config_home()) / "autostart" / XDG_FILE_NAME


def xdg_enable(cmd: Sequence[str], config_home: Path | None = None) -> Path:
    path = xdg_autostart_file(config_home)
    _write_atomically(path, xdg_desktop_entry(cmd).encode("utf-8"))
    return path


def xdg_disable(config_home: Path | None = None) -> None:
    xdg_autostart_file(config_home).unlink(missing_ok=True)


def xdg_is_enabled(config_home: Path | None = None) -> bool:
    path = xdg_autostart_file(config_home)
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, UnicodeDecodeError):
        return False
    keys = dict(line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#"))
    return keys.get("Hidden", "false").strip() != "true" and keys.get("X-GNOME-Autostart-enabled", "true").strip() != "false"


def launch_agent_file(home: Path | None = None) -> Path:
    return (home if home is not None else Path.home()) / "Library" / "LaunchAgents" / f"{LAUNCH_AGENT_LABEL}.plist"


def launch_agent_enable(cmd: Sequence[str], home: Path | None = None) -> Path:
    path = launch_agent_file(home)
    _write_atomically(path, launch_agent_plist(cmd))
    return path


def launch_agent_disable(home: Path | None = None) -> None:
    launch_agent_file(home).unlink(missing_ok=True)


def launch_agent_is_enabled(home: Path | None = None) -> bool:
    try:
        data = plistlib.loads(launch_agent_file(home).read_bytes())
    except (FileNotFoundError, NotADirectoryError, plistlib.InvalidFileException, ValueError):
        return False
    return bool(data.get("RunAtLoad")) and not data.get("Disabled", False)


def windows_enable(cmd: Sequence[str], key_path: str = WINDOWS_RUN_KEY) -> None:
    if sys.platform != "win32":  # the registry exists only there (and mypy checks the rest for Windows)
        raise AutostartError(t("autostart.windows_only"))
    import winreg

    value = windows_run_value(cmd)
    try:
        with winreg.CreateKeyEx(winreg.HKEY_CURRENT_USER, key_path, 0, winreg.KEY_SET_VALUE) as key:
            winreg.SetValueEx(key, WINDOWS_VALUE_NAME, 0, winreg.REG_SZ, value)
    except OSError as exc:
        raise AutostartError(t("autostart.windows_save", detail=str(exc.strerror or exc))) from exc


def windows_disable(key_path: str = WINDOWS_RUN_KEY) -> None:
    if sys.platform != "win32":  # the registry exists only there (and mypy checks the rest for Windows)
        raise AutostartError(t("autostart.windows_only"))
    import winreg

    try:
        with winreg.OpenKey(winreg.HKEY_CURRENT_USER, key_path, 0, winreg.KEY_SET_VALUE) as key:
            winreg.DeleteValue(key, WINDOWS_VALUE_NAME)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise AutostartError(t("autostart.windows_remove", detail=str(exc.strerror or exc))) from exc


def windows_is_enabled(key_path: str = WINDOWS_RUN_KEY) -> bool:
    if sys.platform != "win32":  # the registry exists only there (and mypy checks the rest for Windows)
        raise AutostartError(t("autostart.windows_only"))
    import winreg

    try:
        with winreg.OpenKey(winreg.HKEY_CURRENT_USER, key_path, 0, winreg.KEY_QUERY_VALUE) as key:
            value, _kind = winreg.QueryValueEx(key, WINDOWS_VALUE_NAME)
    except OSError:
        return False
    return bool(str(value).strip())


# --------------------------------------------------------------------------------------------------------------
# The API the app uses
# --------------------------------------------------------------------------------------------------------------
def _system() -> str:
    if sys.platform.startswith("win"):
        return "windows"
    if sys.platform == "darwin":
        return "macos"
    return "xdg"


def enable(executable_command: list[str], *, base: Path | None = None) -> None:
    """Start `executable_command` at login (normally `command_for_this_app()`). `base` replaces the user's
    home (macOS) or XDG config folder (Linux) — for tests; it is ignored on Windows."""
    try:
        kind = _system()
        if kind == "windows":
            windows_enable(executable_command)
        elif kind == "macos":
            launch_agent_enable(executable_command, base)
        else:
            xdg_enable(executable_command, base)
    except OSError as exc:
        raise AutostartError(t("autostart.save", detail=str(exc.strerror or exc))) from exc


def disable(*, base: Path | None = None) -> None:
    try:
        kind = _system()
        if kind == "windows":
            windows_disable()
        elif kind == "macos":
            launch_agent_disable(base)
        else:
            xdg_disable(base)
    except OSError as exc:
        raise AutostartError(t("autostart.remove", detail=str(exc.strerror or exc))) from exc


def is_enabled(*, base: Path | None = None) -> bool:
    kind = _system()
    if kind == "windows":
        return windows_is_enabled()
    if kind == "macos":
        return launch_agent_is_enabled(base)
    return xdg_is_enabled(base)


def enabled_or_unknown() -> bool | None:
    """`is_enabled`, or None when this computer cannot say (a readiness check must not fail on it)."""
    try:
        return is_enabled()
    except (AutostartError, OSError):
        return None
