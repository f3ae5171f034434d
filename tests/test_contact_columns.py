"""A teachers CSV file's contact columns, and the command line's teacher listing, are the registered
channels' (their drivers' `contact_columns`): a channel registered from outside core gets its column
in both, read under its own headings, with nothing in core changed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import main
from core.channels import registry
from core.roster import contacts, csv_files, rules
from core.roster.csv_files import CsvImportError
from core.store.db import Database
from core.texts import render
from tests.chat_channel import KEY, ChatDriver

ROOM = "http://127.0.0.1:9/hooks/teacher"


@pytest.fixture
def chat() -> Iterator[None]:
    undo = registry.register_channel(ChatDriver())
    try:
        yield
    finally:
        undo()


def _header(db: Database) -> list[str]:
    with db.read() as s:
        return csv_files.export_teachers(s).splitlines()[0].lstrip("\ufeff").split(",")


def test_the_built_in_channels_columns_are_as_before(db: Database) -> None:
    assert _header(db)[:7] == ["name", "reading", "line_user_id", "email", "line_works_id", "line_opt_in", "email_opt_in"]
    data = "氏名,ＬＩＮＥ　ＩＤ,メールアドレス,LINE通知,メール通知\n佐藤,U" + "a" * 32 + ",sato@example.com,はい,no\n"
    with db.write() as s:
        csv_files.import_teachers(s, data.encode("utf-8"))
    with db.read() as s:
        teacher = rules.teacher_by_name(s, "佐藤")
        line, mail = contacts.on(teacher.contacts, "line"), contacts.on(teacher.contacts, "email")
        assert line is not None and (line.address, line.agreed_at is not None) == ("U" + "a" * 32, True)
        assert mail is not None and (mail.address, mail.agreed_at) == ("sato@example.com", None)


def test_a_registered_channels_column_is_imported_and_exported(db: Database, chat: None) -> None:
    assert _header(db)[:8] == ["name", "reading", "line_user_id", "email", "line_works_id", "chat_url", "line_opt_in",
                              "email_opt_in"]
    with db.write() as s:
        result = csv_files.import_teachers(s, f"name,Chat URL\n佐藤,{ROOM}\n".encode())
        assert result.created == 1
    with db.read() as s:
        assert contacts.address_on(rules.teacher_by_name(s, "佐藤"), KEY) == ROOM
        exported = csv_files.export_teachers(s)
    assert f"佐藤,,,,,{ROOM},no,no," in exported
    with db.write() as s:  # its own export reads back as it was
        assert csv_files.import_teachers(s, exported.encode("utf-8-sig")).updated == 1
    with db.read() as s:
        assert contacts.address_on(rules.teacher_by_name(s, "佐藤"), KEY) == ROOM


def test_the_channels_rule_checks_its_column(db: Database, chat: None) -> None:
    with db.write() as s, pytest.raises(CsvImportError) as refused:
        csv_files.import_teachers(s, b"name,chat_url\n\xe4\xbd\x90\xe8\x97\xa4,http://example.com/hook\n")
    assert "not a chat webhook address" in str(refused.value)


def test_without_the_channel_its_column_is_unknown(db: Database) -> None:
    with db.write() as s, pytest.raises(CsvImportError) as refused:
        csv_files.import_teachers(s, f"name,chat_url\n佐藤,{ROOM}\n".encode())
    said = render(refused.value.problems[0].problem, "ja")
    assert "chat_url" in said and "LINEユーザーID" in said  # the known columns, a contact one by its Japanese heading


def test_a_column_another_channel_uses_is_refused() -> None:
    class Clashing(ChatDriver):
        contact_columns = (contacts.ContactColumn("email", ("メール",)),)

    with pytest.raises(ValueError, match="email"):
        registry.register_channel(Clashing())
    assert not registry.registered(KEY) and KEY not in contacts.COLUMNS


def test_the_command_line_lists_the_registered_columns(capsys: pytest.CaptureFixture[str], db: Database,
                                                       chat: None, tmp_path: Path) -> None:
    teachers = tmp_path / "teachers.csv"
    teachers.write_text(f"name,chat_url,line_opt_in\n佐藤,{ROOM},yes\n", encoding="utf-8")
    assert main.main(["import", "teachers", str(teachers)]) == 0
    capsys.readouterr()
    assert main.main(["teachers", "--json"]) == 0
    [listed] = json.loads(capsys.readouterr().out)
    assert (listed["chat_url"], listed["line_user_id"], listed["line_opt_in"], listed["email_opt_in"]) == (
        ROOM, None, True, False)
    assert main.main(["--lang", "ja", "teachers"]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert f"佐藤  -  -  -  {ROOM}  [LINE通知,在籍]" in line
