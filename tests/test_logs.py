from __future__ import annotations

import datetime as dt
import io
import logging
from pathlib import Path

from core.logs import FoldRepeats, RepeatFolder, configure_logging, redact, secrets_registry
from tests.linefixtures import FakeClock


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


def test_a_repeated_line_is_written_once_per_window_with_its_count() -> None:
    folder = RepeatFolder(window=60.0)
    assert folder.decide("accept failed", 0.0) == 0
    assert [folder.decide("accept failed", t / 10) for t in range(1, 600)] == [None] * 599
    assert folder.decide("another line", 30.0) == 0  # other lines are not held back
    assert folder.decide("accept failed", 60.0) == 599
    assert folder.decide("accept failed", 119.9) is None
    assert folder.decide("accept failed", 500.0) == 1


def test_a_burst_of_tracebacks_becomes_two_lines_in_the_log(tmp_path: Path) -> None:
    """3,000 identical errors with their tracebacks in one burst, as a flood of refused connections
    logs them: one traceback is written, and the next after the window says how many were held."""
    clock = FakeClock(dt.datetime(2026, 12, 1, tzinfo=dt.UTC))
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(FoldRepeats(window=60.0, clock=lambda: clock.now.timestamp()))
    log = logging.getLogger("shiftcast.test.repeats")
    log.addHandler(handler)
    log.propagate = False
    try:
        for _ in range(3000):
            try:
                raise OSError(24, "Too many open files")
            except OSError:
                log.exception("socket.accept() out of system resource")
            clock.advance(seconds=0.01)
        log.warning("a different line")
        clock.advance(seconds=60)
        log.error("socket.accept() out of system resource")  # no traceback: another kind of line
        try:
            raise OSError(24, "Too many open files")
        except OSError:
            log.exception("socket.accept() out of system resource")
    finally:
        log.removeHandler(handler)
        log.propagate = True
    text = stream.getvalue()
    assert text.count("Traceback") == 2
    assert text.count("socket.accept() out of system resource") == 3
    assert "socket.accept() out of system resource (repeated 2999 times)" in text
    assert "a different line" in text
    assert len(text.splitlines()) < 20


def test_a_new_log_file_gets_the_first_of_each_line_again(tmp_path: Path) -> None:
    """One process may write to several data folders' logs (tests, the demo): a line held back as a
    repeat in the first file is still written once in the next."""
    log = logging.getLogger("shiftcast.test.files")
    for name in ("a", "b"):
        path = configure_logging(tmp_path / name)
        log.error("the disk is full")
        for handler in logging.getLogger().handlers:
            handler.flush()
        assert path.read_text(encoding="utf-8").count("the disk is full") == 1
