"""`shiftcast line-works credentials` and `line-works test`: the values saved as Settings saves them
(secrets from standard input, the key's PEM from --private-key), and LINE WORKS's answer in words."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from core.store.db import Database
from tests.works_standin import TokenServer, WorksCredentials, kept, server  # noqa: F401 - fixtures

PEM = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\n"


def _run(monkeypatch: pytest.MonkeyPatch, *argv: str, stdin: str = "") -> int:
    import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return main.main(["--lang", "en", "line-works", *argv])


def test_credentials_are_saved_with_the_key_s_pem_and_the_secrets_from_standard_input(
        db: Database, tmp_path: Path, kept: dict[str, WorksCredentials], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "private.key"
    key.write_text(PEM, encoding="ascii")
    values = ["credentials", "--client-id", "client-1", "--service-account", "a.serviceaccount@example",
              "--bot-id", "2000001", "--domain-id", "300012345"]
    assert _run(monkeypatch, *values, "--private-key", str(key), stdin="secret-1\nbot-secret-1\n") == 0
    assert "LINE WORKS values saved" in capsys.readouterr().out
    assert kept["saved"] == WorksCredentials("client-1", "secret-1", "a.serviceaccount@example", PEM, "2000001",
                                             "bot-secret-1", "300012345")
    assert _run(monkeypatch, *values[:2], "client-2", *values[3:], stdin="\n\n") == 0  # blank: the saved ones kept
    assert kept["saved"].client_id == "client-2" and kept["saved"].client_secret == "secret-1"
    assert kept["saved"].private_key == PEM


def test_a_file_that_is_no_key_is_refused_and_nothing_is_saved(
        db: Database, tmp_path: Path, kept: dict[str, WorksCredentials], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("hello", encoding="utf-8")
    code = _run(monkeypatch, "credentials", "--client-id", "c", "--service-account", "a", "--bot-id", "1",
                "--private-key", str(other), stdin="s\nb\n")
    assert code != 0 and "is not a private key file" in capsys.readouterr().err
    assert kept == {}


def test_test_says_line_works_s_answer_and_exits_1_when_refused(
        db: Database, kept: dict[str, WorksCredentials], server: TokenServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(monkeypatch, "test") == 1
    assert capsys.readouterr().err == "shiftcast: the test failed: save the LINE WORKS values first\n"
    kept["saved"] = WorksCredentials("client-1", "s", "a", PEM, "1", "b")
    server.answer = 401
    assert _run(monkeypatch, "test") == 1
    assert capsys.readouterr().err == (
        "shiftcast: the test failed: LINE WORKS refused the app: client authentication failed\n")
    server.answer = 200
    assert _run(monkeypatch, "test") == 0
    assert capsys.readouterr().out.startswith("LINE WORKS gave Shiftcast an access token")
