"""A refused setting value is told in the manager's language: the setting's label and its rule come from
the catalog, so a Japanese manager reads both in Japanese, and the English stays as it was."""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import ValidationError
from core.store import setting_keys as keys
from core.store import settings
from core.store.db import Database
from core.store.settings import Declared
from core.texts import render


def _refusal(declared: Declared[Any], value: Any) -> ValidationError:
    with pytest.raises(ValidationError) as refused:
        declared.check(value)
    return refused.value


@pytest.mark.parametrize(("declared", "value", "english", "japanese"), [
    (keys.SMTP_PORT, 70000, "the mail server's port must be a whole number from 1 to 65535, not 70000",
     "メールサーバーのポート番号の値 70000 は使えません。1〜65535の整数で指定してください。"),
    (keys.SMTP_SECURITY, "ssl", "the mail server's security must be one of starttls, tls, none, not 'ssl'",
     "メールサーバーの暗号化方式の値 'ssl' は使えません。starttls、tls、none のいずれかで指定してください。"),
    (keys.ALERTS_WEBHOOK_URL, "http://example.com/hook",
     "the webhook address must be an https:// address (plain http:// only to this computer), "
     "not 'http://example.com/hook'",
     "Webhookのアドレスの値 'http://example.com/hook' は使えません。"
     "https:// のアドレス（http:// はこのコンピューター宛てのみ）で指定してください。"),
    (keys.ALERTS_EMAIL, "not an address", "the manager's e-mail address must be an e-mail address, not 'not an address'",
     "管理者のメールアドレスの値 'not an address' は使えません。メールアドレスで指定してください。"),
    (keys.SENDER_HTTP_TIMEOUT_SECONDS, 0, "the LINE request timeout in seconds must be a number above 0 and at most 600, "
     "not 0", "LINEへのリクエストのタイムアウト（秒）の値 0 は使えません。0より大きく600以下の数値で指定してください。"),
    # A value longer than any real one is shown by its start and its length (core/texts/message.py).
    (keys.HOSTING_BUCKET, "x" * 256, f"the bucket must be text of at most 255 characters, not '{'x' * 59}… (258 characters)",
     f"バケットの値 '{'x' * 59}…（258文字） は使えません。255文字以内の文字列で指定してください。"),
    (keys.LINE_ACK_BUTTON, "yes", "whether LINE reminders carry a 了解 button must be yes or no, not 'yes'",
     "LINEのリマインダーに了解ボタンを付けるかどうかの値 'yes' は使えません。yes か no のどちらかで指定してください。"),
])
def test_a_refused_value_names_the_setting_and_its_rule_in_each_language(
        declared: Declared[Any], value: Any, english: str, japanese: str) -> None:
    refused = _refusal(declared, value)
    assert refused.code == "setting.refused"
    assert str(refused) == english
    assert refused.render("ja") == japanese


def test_a_family_member_speaks_japanese_too() -> None:
    refused = _refusal(keys.LINE_GROUP_MEMBERS.of(3), -1)
    assert refused.render("ja") == "LINEグループのメンバー数の値 -1 は使えません。0以上の整数で指定してください。"


def test_a_hand_edited_value_is_told_in_japanese_with_its_key(db: Database) -> None:
    with db.write() as s:
        settings.put(s, keys.SMTP_PORT.name, "five")
    with db.read() as s, pytest.raises(ValidationError) as refused:
        keys.SMTP_PORT.read(s)
    assert render(refused.value.text, "ja") == (
        "保存されている設定 smtp.port（「five」）は使えません: "
        "メールサーバーのポート番号の値 'five' は使えません。1〜65535の整数で指定してください。")


def test_every_setting_has_a_japanese_label() -> None:
    members = [family.of(1) for family in keys.FAMILIES]
    for declared in [*keys.DECLARED, *members]:
        label = render(declared.label, "ja")
        assert label and label != str(declared.label), declared.name
