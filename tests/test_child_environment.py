"""The programs Shiftcast starts see none of its secrets: stand-in `cloudflared`, `pg_dump` and
`fc-match` scripts, first on PATH, write the environment they were given to a file, and the secret
variables set in this process are not in it; what each program needs is."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from core.child_environment import child_environment
from core.publication import fonts
from core.receiving.address import QuickTunnel
from core.store import migrate
from core.store.db import Database

pytestmark = pytest.mark.skipif(not Path("/bin/sh").exists(), reason="stand-in programs are shell scripts")
URL = "https://quiet-river-1234.trycloudflare.com"
SECRETS = {
    "SHIFTCAST_LINE_TOKEN": "line-token-must-not-leak",
    "SHIFTCAST_LINE_CHANNEL_SECRET": "channel-secret-must-not-leak",
    "SHIFTCAST_SMTP_PASSWORD": "smtp-password-must-not-leak",
    "SHIFTCAST_LINE_ACK_KEY": "ack-key-must-not-leak",
    "SHIFTCAST_DB_URL": "postgresql+psycopg://shiftcast:db-password-must-not-leak@127.0.0.1:9/shiftcast",
}
# Writes its environment (NUL-separated, as /proc/self/environ) beside itself, then does its part.
WRITES_ENV = 'env -0 > "$(dirname "$0")/environment"\n'


def _stand_in(folder: Path, name: str, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n" + WRITES_ENV + body, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def _seen(folder: Path) -> dict[str, str]:
    text = (folder / "environment").read_text(encoding="utf-8")
    return dict(entry.split("=", 1) for entry in text.split("\0") if "=" in entry)


def _no_secret_in(seen: dict[str, str]) -> None:
    leaked = sorted(name for name in seen if name.startswith("SHIFTCAST_"))
    assert leaked == []
    for value in SECRETS.values():
        assert not any(value in text or "must-not-leak" in text for text in seen.values())


@pytest.fixture
def tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder first on PATH, and the secrets in this process's environment as a headless box has them."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PATH", f"{folder}:/usr/bin:/bin")
    monkeypatch.setenv("LC_TIME", "ja_JP.UTF-8")
    monkeypatch.setenv("https_proxy", "http://proxy.invalid:3128")
    return folder


def test_cloudflared_sees_no_secret_but_its_path_locale_and_proxy(tools: Path) -> None:
    _stand_in(tools, "cloudflared", f"""echo "INF |  {URL}  |" >&2
echo "INF Registered tunnel connection connIndex=0" >&2
sleep 600 &
wait
""")
    tunnel = QuickTunnel(beside=[])  # found on PATH, as for a manager who installed it
    try:
        assert tunnel.start(8765) == URL
    finally:
        tunnel.stop()
    seen = _seen(tools)
    _no_secret_in(seen)
    assert seen["PATH"].startswith(str(tools)) and seen["LC_TIME"] == "ja_JP.UTF-8"
    assert seen["https_proxy"] == "http://proxy.invalid:3128"


def test_pg_dump_is_given_the_password_alone_not_the_url_nor_the_other_secrets(
        tools: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _stand_in(tools, "pg_dump", "exit 0\n")
    monkeypatch.setenv("PGSSLMODE", "verify-full")  # libpq's own settings still reach it
    db = Database("postgresql+psycopg://shiftcast:server-pw@127.0.0.1:9/shiftcast")  # never connected
    try:
        migrate.dump_postgresql(db, tmp_path / "backups", "0008_senders")
    finally:
        db.dispose()
    seen = _seen(tools)
    _no_secret_in(seen)
    assert seen["PGPASSWORD"] == "server-pw" and seen["PGSSLMODE"] == "verify-full"


def test_fc_match_sees_no_secret(tools: Path) -> None:
    _stand_in(tools, "fc-match", "echo /fonts/NotoSansCJK-Regular.ttc\n")
    assert fonts._fontconfig_candidates() == ["/fonts/NotoSansCJK-Regular.ttc"]
    _no_secret_in(_seen(tools))


def test_the_allow_list_keeps_what_a_program_needs_and_adds_what_it_is_given() -> None:
    source = {"PATH": "/bin", "Path": "/win", "SystemRoot": "C:\\Windows", "LC_ALL": "C", "PGSSLMODE": "require",
              "SHIFTCAST_LINE_TOKEN": "t", "AWS_SECRET_ACCESS_KEY": "k", "PGPASSWORD": "old"}
    assert child_environment(source=source) == {"PATH": "/bin", "Path": "/win", "SystemRoot": "C:\\Windows",
                                                "LC_ALL": "C"}
    assert child_environment(source=source, prefixes=["PG"], given={"PGPASSWORD": "new"}) == {
        "PATH": "/bin", "Path": "/win", "SystemRoot": "C:\\Windows", "LC_ALL": "C", "PGSSLMODE": "require",
        "PGPASSWORD": "new"}
