from __future__ import annotations

import logging
from pathlib import Path

from core.logs import configure_logging, redact, secrets_registry


def test_redaction_rules() -> None:
    assert redact("Authorization: Bearer abc.DEF-123_x") == "Authorization: Bearer ***"
    assert "s3cr3t-value" not in redact('{"password": "s3cr3t-value"}')
    assert "hunter22" not in redact("access_token=hunter22&x=1")
    secrets_registry.add("tok-9f8e7d6c5b4a")
    assert redact("sent with tok-9f8e7d6c5b4a inside") == "sent with *** inside"
    assert redact("nothing secret here") == "nothing secret here"


def test_log_file_is_redacted_including_tracebacks(tmp_path: Path) -> None:
    path = configure_logging(tmp_path / "logs")
    secrets_registry.add("channel-token-0123456789")
    log = logging.getLogger("shiftcast.test")
    log.warning("header Authorization: Bearer %s", "zzzzzzzzzzzzzz")
    try:
        raise RuntimeError("failed with channel-token-0123456789")
    except RuntimeError:
        log.exception("boom")
    for handler in logging.getLogger().handlers:
        handler.flush()
    text = path.read_text(encoding="utf-8")
    assert "boom" in text and "Bearer ***" in text
    assert "zzzzzzzzzzzzzz" not in text and "channel-token-0123456789" not in text


def test_no_usable_keyring_gives_a_clear_message() -> None:
    import keyring
    import pytest
    from keyring.backends import fail

    from core.store import secrets

    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        with pytest.raises(secrets.SecretStoreError, match="SHIFTCAST_LINE_TOKEN"):
            secrets.line_token()
        with pytest.raises(secrets.SecretStoreError, match="Secret Service"):
            secrets.set_line_token("a-token-for-nobody")
    finally:
        keyring.set_keyring(previous)
