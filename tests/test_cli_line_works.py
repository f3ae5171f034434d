"""`shiftcast line-works credentials` and `line-works test`: the values saved as Settings saves them
(secrets from standard input, the key's PEM from --private-key, into the keyring and the settings), and
the LINE WORKS stand-in's answer on loopback in words."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from core.channels import line_works_credentials
from core.emulator.line_works import WorksStandIn
from core.store.db import Database
from tests import worksfixtures as wf
from tests.worksfixtures import credentials, works, works_pointed  # noqa: F401 - fixtures


def _run(monkeypatch: pytest.MonkeyPatch, *argv: str, stdin: str = "") -> int:
    import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return main.main(["--lang", "en", "line-works", *argv])


def test_credentials_are_saved_with_the_key_s_pem_and_the_secrets_from_standard_input(
        db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    key = wf.private_key_file(tmp_path)
    values = ["credentials", "--client-id", wf.CLIENT_ID, "--service-account", wf.SERVICE_ACCOUNT,
              "--bot-id", wf.BOT_ID, "--domain-id", "300012345"]
    assert _run(monkeypatch, *values, "--private-key", str(key), stdin=f"{wf.CLIENT_SECRET}\n{wf.BOT_SECRET}\n") == 0
    assert "LINE WORKS values saved" in capsys.readouterr().out
    assert line_works_credentials.load(db) == credentials(domain_id="300012345")
    assert _run(monkeypatch, *values[:2], "client-2", *values[3:], stdin="\n\n") == 0  # blank: the saved ones kept
    assert line_works_credentials.load(db) == credentials(client_id="client-2", domain_id="300012345")
    assert line_works_credentials.private_key_pem() == wf.key_pair()[0]


def test_a_file_that_is_no_key_is_refused_and_nothing_is_saved(
        db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("hello", encoding="utf-8")
    code = _run(monkeypatch, "credentials", "--client-id", wf.CLIENT_ID, "--service-account", wf.SERVICE_ACCOUNT,
                "--bot-id", wf.BOT_ID, "--private-key", str(other), stdin=f"{wf.CLIENT_SECRET}\n{wf.BOT_SECRET}\n")
    assert code != 0 and "is not a private key file" in capsys.readouterr().err
    assert line_works_credentials.load(db) is None


def test_test_says_line_works_s_answer_and_exits_1_when_refused(
        db: Database, works_pointed: WorksStandIn, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(monkeypatch, "test") == 1
    assert capsys.readouterr().err == "shiftcast: the test failed: save the LINE WORKS values first\n"
    line_works_credentials.save(db, credentials(client_secret="a-secret-the-console-never-gave"))
    assert _run(monkeypatch, "test") == 1
    said = capsys.readouterr().err
    assert said.startswith("shiftcast: the test failed: LINE WORKS refused the app's credentials (HTTP 401"), said
    line_works_credentials.save(db, credentials())
    assert _run(monkeypatch, "test") == 0
    assert capsys.readouterr().out.startswith("LINE WORKS gave Shiftcast an access token")
    assert (works_pointed.token_requests, works_pointed.tokens_issued) == (2, 1)
