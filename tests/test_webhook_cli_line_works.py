"""`main.py webhook` for a classroom on LINE WORKS alone: with no LINE channel secret it starts all the
same when LINE WORKS is set up, says where LINE WORKS' callback is received, refuses what LINE's path
is sent, and takes LINE WORKS' signed callback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from core.channels import line_works_credentials
from core.emulator.line_works import WorksStandIn
from core.receiving import line_works_callback
from core.store import secrets
from core.store.db import Database
from core.store.paths import DataPaths
from tests.test_sender_processes import _Output
from tests.test_webhook_cli import ROOT, STARTUP, _free_port
from tests.worksfixtures import BOT_SECRET, CLIENT_SECRET, credentials, key_pair, works  # noqa: F401

pytestmark = pytest.mark.slow  # a real process


def test_without_a_line_secret_it_receives_line_works_callbacks(paths: DataPaths, db: Database, tmp_path: Path,
                                                                works: WorksStandIn) -> None:
    line_works_credentials.save(db, credentials())  # the ids in the settings; the secrets below, from the environment
    key_file = tmp_path / "private.key"
    key_file.write_text(key_pair()[0])
    key_file.chmod(0o600)
    env = {k: v for k, v in os.environ.items() if k != secrets.LINE_CHANNEL_SECRET_ENV} | {
        "SHIFTCAST_HOME": str(paths.home), "SHIFTCAST_DB_URL": paths.database_url(),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
        secrets.LINE_WORKS_CLIENT_SECRET_ENV: CLIENT_SECRET, secrets.LINE_WORKS_BOT_SECRET_ENV: BOT_SECRET,
        secrets.LINE_WORKS_PRIVATE_KEY_FILE_ENV: str(key_file)}
    port = _free_port()
    process = subprocess.Popen([sys.executable, "main.py", "--lang", "en", "webhook", "--port", str(port)], cwd=ROOT,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    output = _Output(process)
    try:
        callback = f"http://127.0.0.1:{port}{line_works_callback.PATH}"
        assert output.wait_for(f"receiving LINE WORKS callbacks on {callback}", STARTUP), output.stderr
        line = urllib.request.Request(f"http://127.0.0.1:{port}/line/webhook", data=b'{"events":[]}', method="POST",
                                      headers={"X-Line-Signature": "c2lnbmVk"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(line, timeout=STARTUP)
        assert refused.value.code == 401
        works.callback_url = callback
        assert works.post_callback({"type": "message", "source": {"userId": "teacher001@example.com"},
                                    "content": {"type": "text", "text": "hello"}}) == 200
        assert works.post_callback({"type": "message"}, signature="AAAA") == 401
    finally:
        stopped = _stop(process)
        output.close()
    assert stopped == 0  # SIGTERM ends it cleanly
    assert "receiving LINE webhooks on" not in output.stdout


def _stop(process: subprocess.Popen[bytes]) -> int:
    """SIGTERM, then (if it does not end) kill: its exit code (negative when it had to be killed)."""
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(60)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait(30)
