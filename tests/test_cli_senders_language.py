"""`main.py senders` and `main.py health` speak the run's language, so do the prompts for a secret typed at
the keyboard, and a secret file's problem carries a code: a Japanese manager reads Japanese, English stays
as it was."""

from __future__ import annotations

import datetime as dt
import getpass
import io
from pathlib import Path

import pytest

import main
from core.sending import presence
from core.store import secrets
from core.store.db import Database
from core.texts import render


def _three_senders(db: Database) -> None:
    real_now = dt.datetime.now(dt.UTC)
    with db.write() as s:
        presence.register(s, "box-a:10:aaaa", home="/srv/shiftcast", app="sender", now=real_now, host="box-a", pid=10)
        presence.register(s, "box-b:11:bbbb", home="/srv/other", app="tray", host="box-b", pid=11,
                          now=real_now - presence.STALE_AFTER - dt.timedelta(seconds=5))
        presence.register(s, "box-c:12:cccc", home="/srv/third", app="window", host="box-c", pid=12,
                          now=real_now - dt.timedelta(hours=1))
        presence.stopped(s, "box-c:12:cccc", now=real_now - dt.timedelta(minutes=30))


def test_senders_in_japanese(db: Database, capsys: pytest.CaptureFixture[str]) -> None:
    assert main.main(["--lang", "ja", "senders"]) == 0
    assert capsys.readouterr().out.strip() == "このデータベースから送信した送信プロセスはまだありません。"
    _three_senders(db)
    assert main.main(["--lang", "ja", "senders"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("box-a pid 10（sender、/srv/shiftcast）: ") and lines[0].endswith(" から送信中")
    assert "応答なし（" in lines[1] and "秒間ハートビートがありません）" in lines[1]
    assert lines[2].startswith("box-c pid 12（window、/srv/third）: ") and lines[2].endswith(" に停止")
    assert main.main(["--lang", "en", "senders"]) == 0
    assert "sending since" in capsys.readouterr().out


def test_health_in_japanese(db: Database, capsys: pytest.CaptureFixture[str]) -> None:
    assert main.main(["--lang", "ja", "health"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("異常: データベースは応答していますが、") and "ハートビートがありません。" in err


def test_a_secret_file_problem_is_told_in_japanese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "line_token"
    empty.write_text("\n", encoding="utf-8")
    monkeypatch.setenv(secrets.LINE_TOKEN_FILE_ENV, str(empty))
    with pytest.raises(secrets.SecretStoreError) as refused:
        secrets.line_token()
    assert str(refused.value) == f"the secret file {empty} ({secrets.LINE_TOKEN_FILE_ENV}) is empty"
    assert render(refused.value.text, "ja") == f"シークレットファイル {empty}（{secrets.LINE_TOKEN_FILE_ENV}）が空です。"
    monkeypatch.setenv(secrets.LINE_TOKEN_FILE_ENV, str(tmp_path / "missing"))
    with pytest.raises(secrets.SecretStoreError) as unreadable:
        secrets.line_token()
    assert unreadable.value.code == "keyring.secret_file_unreadable"
    assert render(unreadable.value.text, "ja").startswith(f"シークレットファイル {tmp_path / 'missing'}（")


class _Keyboard(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("lang", "prompt"), [("ja", "LINEのチャネルアクセストークン: "),
                                              ("en", "LINE channel access token: ")])
def test_the_token_prompt_speaks_the_run_language(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                                  lang: str, prompt: str) -> None:
    asked: list[str] = []
    monkeypatch.setattr("sys.stdin", _Keyboard(""))

    def typed(words: str = "") -> str:
        asked.append(words)
        return "a-token"

    monkeypatch.setattr(getpass, "getpass", typed)
    assert main.main(["--lang", lang, "line-token"]) == 0
    assert asked == [prompt]
    assert secrets.line_token() == "a-token"
    capsys.readouterr()
