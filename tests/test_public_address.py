"""The receiver's public address: a Cloudflare quick tunnel driven through fake `cloudflared` scripts
(one that prints its address, one that prints nothing and exits, one that hangs, none at all), the
owner's own HTTPS address, and loopback. Nothing here waits out a real timeout: the tunnel's
deadlines run on a clock the test advances."""

from __future__ import annotations

import stat
import threading
from pathlib import Path

import pytest

from core.receiving.address import (
    DOWNLOAD_PAGE,
    AddressError,
    AddressProblem,
    LoopbackAddress,
    OwnAddress,
    QuickTunnel,
    endpoint,
    find_cloudflared,
)
from tests.waiting import wait_until

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="fake cloudflared shell scripts; processes looked up in /proc")
URL = "https://quiet-river-1234.trycloudflare.com"


class StepClock:
    """A monotonic clock that moves `step` seconds each time it is read: deadlines pass without waiting."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self.lock = threading.Lock()

    def __call__(self) -> float:
        with self.lock:
            self.now += self.step
            return self.now


def _script(folder: Path, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "cloudflared"
    path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


# The lines cloudflared really prints (to stderr), shortened; the arguments are echoed for the test.
PRINTS_URL = f"""echo "$@" > "$(dirname "$0")/args"
echo "$$" > "$(dirname "$0")/pid"
echo "2026-12-01T09:00:00Z INF Requesting new quick Tunnel on trycloudflare.com..." >&2
echo "2026-12-01T09:00:01Z INF +--------------------------------------------------------+" >&2
echo "2026-12-01T09:00:01Z INF |  Your quick Tunnel has been created! Visit it at:      |" >&2
echo "2026-12-01T09:00:01Z INF |  {URL}                |" >&2
echo "2026-12-01T09:00:02Z INF Registered tunnel connection connIndex=0 location=nrt01" >&2
sleep 600 &
wait
"""


def _gone(group: int) -> bool:
    """No live process is left in the process group (a zombie nobody reaped yet does not count)."""
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_file.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            return False
    return True


def test_the_tunnel_is_found_on_path_gives_its_address_and_stops(tmp_path: Path) -> None:
    fake = _script(tmp_path / "bin", PRINTS_URL)
    assert find_cloudflared(search_path=str(fake.parent), beside=[]) == fake
    tunnel = QuickTunnel(search_path=str(fake.parent), beside=[])
    base = tunnel.start(8765)
    try:
        assert base == URL
        assert endpoint(base) == f"{URL}/line/webhook"
        assert (fake.parent / "args").read_text().split() == [
            "tunnel", "--no-autoupdate", "--url", "http://127.0.0.1:8765"]
        pid = int((fake.parent / "pid").read_text())
        assert not _gone(pid)
    finally:
        tunnel.stop()
    # The script and the `sleep` it started: the whole process group. stop() reaps the script; the
    # signalled `sleep` ends on its own, which a busy machine gets to a moment later.
    assert wait_until(lambda: _gone(pid))
    tunnel.stop()  # twice is harmless


def test_a_bundled_cloudflared_beside_the_app_is_found(tmp_path: Path) -> None:
    fake = _script(tmp_path / "app", PRINTS_URL)
    assert find_cloudflared(search_path=str(tmp_path / "empty"), beside=[tmp_path / "none", fake.parent]) == fake


def test_a_missing_cloudflared_says_what_to_install(tmp_path: Path) -> None:
    tunnel = QuickTunnel(search_path=str(tmp_path / "empty"), beside=[tmp_path / "none"])
    with pytest.raises(AddressError) as missing:
        tunnel.start(8765)
    assert missing.value.problem is AddressProblem.NOT_INSTALLED
    assert DOWNLOAD_PAGE in str(missing.value) and "cloudflared" in str(missing.value)


@pytest.mark.parametrize(("body", "code", "output"), [
    ("exit 0\n", 0, ""),  # silent
    ("echo 'failed to request quick Tunnel' >&2\nexit 3\n", 3, "failed to request quick Tunnel"),
])
def test_a_cloudflared_that_exits_without_an_address_is_reported(tmp_path: Path, body: str, code: int,
                                                                 output: str) -> None:
    fake = _script(tmp_path / "bin", body)
    tunnel = QuickTunnel(fake, clock=StepClock(0.001), url_timeout=1e6)  # only its exit can end the wait
    with pytest.raises(AddressError) as exited:
        tunnel.start(8765)
    assert exited.value.problem is AddressProblem.EXITED
    assert f"exit code {code}" in str(exited.value) and exited.value.output == output


def test_a_tunnel_stopped_from_another_thread_while_it_waits_ends_its_start(tmp_path: Path) -> None:
    fake = _script(tmp_path / "bin", 'echo "$$" > "$(dirname "$0")/pid"\nwhile :; do sleep 1; done\n')
    tunnel = QuickTunnel(fake, url_timeout=600.0)  # only stop() can end this wait
    raised: list[BaseException] = []
    starter = threading.Thread(target=lambda: _catch(raised, lambda: tunnel.start(8765)))
    starter.start()
    pid_file = fake.parent / "pid"
    pause = threading.Event()
    for _ in range(6000):  # the signal: the fake runs
        if pid_file.exists() and pid_file.read_text().strip():
            break
        pause.wait(0.01)
    tunnel.stop()
    starter.join(30)
    assert not starter.is_alive() and isinstance(raised[0], AddressError)
    assert wait_until(lambda: _gone(int(pid_file.read_text())))
    with pytest.raises(AddressError):  # a stopped tunnel stays stopped
        tunnel.start(8765)


def _catch(into: list[BaseException], fn) -> None:
    try:
        fn()
    except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
        into.append(exc)


@pytest.mark.slow  # waits out a hanging child's timeout
def test_a_hanging_cloudflared_times_out_and_is_killed(tmp_path: Path) -> None:
    fake = _script(tmp_path / "bin", 'echo "$$" > "$(dirname "$0")/pid"\n'
                                     "trap '' TERM\n"  # ignores SIGTERM: only SIGKILL ends it
                                     "while :; do sleep 1; done\n")
    tunnel = QuickTunnel(fake, clock=StepClock(5.0), url_timeout=45.0, stop_timeout=0.2)
    with pytest.raises(AddressError) as timed_out:
        tunnel.start(8765)
    assert timed_out.value.problem is AddressProblem.TIMEOUT and "45 seconds" in str(timed_out.value)
    pid = int((fake.parent / "pid").read_text())
    assert wait_until(lambda: _gone(pid))


def test_an_address_without_its_connection_is_still_used_after_the_wait(tmp_path: Path) -> None:
    body = PRINTS_URL.replace("Registered tunnel connection", "Retrying connection")
    fake = _script(tmp_path / "bin", body)
    tunnel = QuickTunnel(fake, clock=StepClock(1.0), register_timeout=5.0)
    try:
        assert tunnel.start(8765) == URL
    finally:
        tunnel.stop()


def test_the_owners_address_is_https_short_and_joined_with_the_path() -> None:
    own = OwnAddress(" https://school.example.jp/shiftcast/ ")
    assert own.start(8765) == "https://school.example.jp/shiftcast"
    assert endpoint(own.start(8765)) == "https://school.example.jp/shiftcast/line/webhook"
    own.stop()
    for bad in ("http://school.example.jp", "school.example.jp", "https://", "https://x.jp/?a=1",
                "https://user@x.jp", "https://x.jp/" + "a" * 480):
        with pytest.raises(AddressError) as refused:
            OwnAddress(bad)
        assert refused.value.problem is AddressProblem.INVALID, bad


def test_loopback_is_the_receivers_own_address() -> None:
    assert LoopbackAddress().start(8765) == "http://127.0.0.1:8765"

