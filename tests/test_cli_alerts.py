"""`main.py alerts` and `main.py smtp-password`, in process."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest

import main
from core import alerts
from core.channels import email as email_channel
from core.store.bootstrap import open_database
from core.store.paths import DataPaths


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_alerts_lists_open_and_recent_incidents(capsys: pytest.CaptureFixture[str], paths: DataPaths) -> None:
    code, out, _ = run(capsys, "alerts", "--json")
    assert code == 0 and json.loads(out) == []
    db = open_database(paths)
    now = dt.datetime.now(dt.UTC)
    with db.write() as s:
        alerts.open_incident(s, alerts.quota_exhausted(), now=now - dt.timedelta(hours=2))
        alerts.sync(s, [alerts.dead_letters(2)], now=now)  # opens this one, clears the quota incident
    db.dispose()
    code, out, _ = run(capsys, "alerts", "--json")
    rows = json.loads(out)
    assert [(r["kind"], r["open"]) for r in rows] == [("dead_letter", True), ("quota_exhausted", False)]
    code, out, _ = run(capsys, "alerts")
    assert code == 0 and "OPEN" in out and "1 open, 2 in the last 7 days" in out


def test_smtp_password_goes_to_the_keyring(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(email_channel.PASSWORD_ENV, raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO("s3cret\n"))
    code, out, _ = run(capsys, "smtp-password")
    assert code == 0 and "keyring" in out and email_channel.smtp_password() == "s3cret"
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    code, _, err = run(capsys, "smtp-password")
    assert code == 1 and "no password" in err
