"""No keyring on Linux: what is missing is found on the session bus itself and said with what to install
(core/store/keyring_check.py), in the keyring's error, in Settings and in `doctor`. The keyring is a
genuinely failing backend here (keyring's own fail.Keyring, what it picks where nothing is found), and
the session bus a real dbus-daemon with no Secret Service on it."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail

import main
from core.store import keyring_check, secrets
from core.texts import render

needs_dbus = pytest.mark.skipif(shutil.which("dbus-daemon") is None, reason="dbus-daemon is not installed here")

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:dir={folder}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/>
</policy></busconfig>
"""


@pytest.fixture
def session_bus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A desktop's session bus with nothing on it: a real dbus-daemon, its address in the environment."""
    config = tmp_path / "session.conf"
    config.write_text(BUS_CONFIG.format(folder=tmp_path), encoding="utf-8")
    daemon = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--print-address", "--nofork"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert daemon.stdout is not None
        address = daemon.stdout.readline().strip()  # printed once it listens
        assert address.startswith("unix:"), address
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        yield address
    finally:
        daemon.terminate()
        daemon.wait(timeout=30)


@pytest.fixture
def no_keyring() -> None:
    keyring.set_keyring(fail.Keyring())  # the autouse memory_keyring fixture puts its own back


def failure(name: str = secrets.LINE_TOKEN, env: str | None = secrets.LINE_TOKEN_ENV) -> secrets.SecretStoreError:
    with pytest.raises(secrets.SecretStoreError) as caught:
        secrets.get_secret(name, env=env)
    return caught.value


@needs_dbus
def test_keyrings_own_choice_fails_where_the_bus_has_no_secret_service(session_bus: str) -> None:
    from keyring.backends import SecretService

    with pytest.raises(Exception):  # noqa: B017 - keyring says "not viable" with whatever the bus said
        _ = SecretService.Keyring.priority
    assert keyring_check.diagnose("linux") is keyring_check.Missing.SECRET_SERVICE


@needs_dbus
def test_the_problem_names_the_package_to_install_and_how_to_check(session_bus: str, no_keyring: None) -> None:
    said = failure().text
    english, japanese = render(said, "en"), render(said, "ja")
    for text in (english, japanese):
        assert "gnome-keyring" in text and "kwalletmanager" in text
        assert "busctl --user list | grep org.freedesktop.secrets" in text
        assert secrets.LINE_TOKEN_ENV in text
    assert "インストール" in japanese and "keyring" not in japanese.replace("gnome-keyring", "")


@needs_dbus
def test_with_a_secret_service_on_the_bus_the_keyrings_own_reason_stands(session_bus: str) -> None:
    from jeepney.bus_messages import message_bus
    from jeepney.io.blocking import open_dbus_connection

    with open_dbus_connection(bus="SESSION") as provider:  # stands where gnome-keyring-daemon would
        provider.send_and_get_reply(message_bus.RequestName(keyring_check.SECRET_SERVICE), timeout=10)
        assert keyring_check.diagnose("linux") is keyring_check.Missing.UNKNOWN


def test_without_a_session_bus_it_says_to_start_from_the_desktop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  no_keyring: None) -> None:
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path / 'nobody-listens'}")
    said = failure(secrets.LINE_CHANNEL_SECRET, env=None).text
    assert "D-Bus" in render(said, "en") and "ssh" in render(said, "en")
    assert "デスクトップのセッションから" in render(said, "ja")
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS")  # an ssh login has none at all
    assert keyring_check.diagnose("linux") is keyring_check.Missing.SESSION_BUS


def test_other_systems_keep_the_keyring_librarys_reason() -> None:
    assert keyring_check.diagnose("win32") is keyring_check.Missing.UNKNOWN


@needs_dbus
def test_doctor_names_what_is_missing_and_the_package(capsys: pytest.CaptureFixture[str], db, session_bus: str,
                                                      no_keyring: None) -> None:
    assert "SHIFTCAST_LINE_TOKEN" not in os.environ
    main.main(["--lang", "ja", "doctor"])
    out = capsys.readouterr().out
    [line] = [line for line in out.splitlines() if "キーリング" in line and line.startswith("[要対応]")]
    assert "Secret Service がありません" in line and "gnome-keyring" in line and "busctl --user list" in line
