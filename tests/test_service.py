"""The always-on sender service (packaging/service/): the compose file, the image definition and the systemd
unit say what the service needs, and the secrets they name reach the sender from files."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from sqlalchemy.engine import make_url

from core.store import secrets
from core.store.db import DB_PASSWORD_CREDENTIAL, Database

ROOT = Path(__file__).resolve().parent.parent
SERVICE = ROOT / "packaging" / "service"


def _unit() -> dict[str, list[str]]:
    """The unit's settings, every value of a key kept (LoadCredential appears twice)."""
    found: dict[str, list[str]] = {}
    for line in (SERVICE / "shiftcast-sender.service").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "[")) and "=" in line:
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


def test_compose_starts_postgresql_and_the_sender_with_secrets_from_files() -> None:
    compose = yaml.safe_load((SERVICE / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert set(services) == {"db", "sender"}
    db, sender = services["db"], services["sender"]
    assert db["image"].startswith("postgres:") and "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert db["environment"]["POSTGRES_PASSWORD_FILE"] == "/run/secrets/db_password"
    assert sender["depends_on"]["db"]["condition"] == "service_healthy"
    env = sender["environment"]
    url = make_url(env["SHIFTCAST_DB_URL"])
    assert url.get_backend_name() == "postgresql" and url.host == "db" and url.password is None
    assert env["SHIFTCAST_DB_PASSWORD_FILE"] == "/run/secrets/db_password"
    assert env["SHIFTCAST_LINE_TOKEN_FILE"] == "/run/secrets/line_token"
    assert not {"SHIFTCAST_LINE_TOKEN", "POSTGRES_PASSWORD"} & set(env)  # no secret in the environment
    assert set(sender["secrets"]) == {"db_password", "line_token"} <= set(compose["secrets"])
    assert sender["healthcheck"]["test"] == ["CMD", "python", "/app/main.py", "health"]
    assert sender["stop_signal"] == "SIGTERM"
    assert (SERVICE / sender["build"]["context"] / sender["build"]["dockerfile"]).resolve() == SERVICE / "Dockerfile"


def test_the_image_runs_the_sender_as_a_non_root_user_with_a_health_check() -> None:
    lines = [line.strip() for line in (SERVICE / "Dockerfile").read_text(encoding="utf-8").splitlines()]
    instructions = [line for line in lines if line and not line.startswith("#")]
    assert instructions[0] == "FROM python:3.12-slim"
    assert any(line.startswith("RUN pip install") and '".[postgres]"' in line for line in instructions)
    user = next(i for i, line in enumerate(instructions) if line.startswith("USER "))
    assert instructions[user].split()[1] not in ("root", "0")
    cmd = max(i for i, line in enumerate(instructions) if line.startswith("CMD "))  # the last CMD is the one that runs
    assert user < cmd and instructions[cmd] == 'CMD ["python", "/app/main.py", "sender"]'
    health = " ".join(lines[next(i for i, line in enumerate(lines) if line.startswith("HEALTHCHECK")):][:2])
    assert '"/app/main.py", "health"' in health


def test_the_unit_takes_its_secrets_from_files_logs_to_the_journal_and_restarts_on_failure() -> None:
    unit = _unit()
    assert unit["Restart"] == ["on-failure"] and unit["KillSignal"] == ["SIGTERM"]
    assert unit["StandardOutput"] == ["journal"] and unit["StandardError"] == ["journal"]
    assert unit["EnvironmentFile"] == ["/etc/shiftcast/sender.env"]
    assert sorted(c.split(":")[0] for c in unit["LoadCredential"]) == [DB_PASSWORD_CREDENTIAL, secrets.LINE_TOKEN_CREDENTIAL]
    [command] = unit["ExecStart"]
    assert command.endswith("main.py sender") and "TOKEN" not in command.upper() and "@" not in command
    assert unit["User"] == ["shiftcast"]
    example = (SERVICE / "sender.env.example").read_text(encoding="utf-8")
    assert "SHIFTCAST_DB_URL=" in example and "TOKEN" not in example and make_url(
        example.split("SHIFTCAST_DB_URL=")[1].split()[0]).password is None


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    # The unit names where the service is installed; here those are this checkout and its Python.
    text = (SERVICE / "shiftcast-sender.service").read_text(encoding="utf-8")
    text = text.replace("/opt/shiftcast/.venv/bin/python", sys.executable).replace("/opt/shiftcast/main.py",
                                                                                   str(ROOT / "main.py"))
    unit = tmp_path / "shiftcast-sender.service"
    unit.write_text(text, encoding="utf-8")
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "shiftcast-sender.service" not in done.stderr, done.stderr


def test_the_token_comes_from_a_named_file_or_a_systemd_credential(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    token_file = tmp_path / "line_token"
    token_file.write_text("from-a-docker-secret\n", encoding="utf-8")
    monkeypatch.setenv(secrets.LINE_TOKEN_FILE_ENV, str(token_file))
    assert secrets.line_token() == "from-a-docker-secret"
    monkeypatch.delenv(secrets.LINE_TOKEN_FILE_ENV)
    credentials = tmp_path / "credentials"
    credentials.mkdir()
    (credentials / secrets.LINE_TOKEN_CREDENTIAL).write_text("from-systemd", encoding="utf-8")
    monkeypatch.setenv(secrets.CREDENTIALS_DIRECTORY_ENV, str(credentials))
    assert secrets.line_token() == "from-systemd"
    monkeypatch.setenv(secrets.LINE_TOKEN_FILE_ENV, str(tmp_path / "missing"))
    with pytest.raises(secrets.SecretStoreError, match="cannot read the secret file"):
        secrets.line_token()


def test_a_server_password_comes_from_a_file_and_never_shows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    password = tmp_path / "db_password"
    password.write_text("s3cret-pw\n", encoding="utf-8")
    monkeypatch.setenv("SHIFTCAST_DB_PASSWORD_FILE", str(password))
    db = Database("postgresql+psycopg://shiftcast@db.invalid:5432/shiftcast")
    try:
        assert db.engine.url.password == "s3cret-pw"
        assert "s3cret-pw" not in str(db.engine.url) and "s3cret-pw" not in db.url
    finally:
        db.dispose()
    given = Database("postgresql+psycopg://shiftcast:inline@db.invalid/shiftcast")  # a password in the URL wins
    try:
        assert given.engine.url.password == "inline"
    finally:
        given.dispose()
