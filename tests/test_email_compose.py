"""E-mail text from the templates (pure) and its MIME form: subject, text, HTML, inline image, PDF."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from email import message_from_bytes
from email import policy as email_policy

from core.channels.email_draft import MailDraft, Part, message_id, render
from core.messages import email_text, texts
from tests.smtpfixtures import body

FACTS = texts.ShiftFacts("本校", dt.date(2026, 12, 3), dt.time(16), dt.time(21), False, "鍵当番")


def test_japanese_reminder_subject_text_and_html() -> None:
    templates = email_text.load_templates("ja")
    text = texts.reminder_text(FACTS, "ja", texts.load_templates("ja"))
    composed = email_text.compose(templates, subject_name="shift_reminder", message_text=text,
                                     fields=email_text.shift_fields(FACTS, "ja"), name="佐藤 花子")
    assert composed.subject == "【シフトのお知らせ】12月3日(木) 16:00〜21:00（本校）"
    assert composed.text.startswith("佐藤 花子 先生\n\n【シフトのお知らせ】本校\n12月3日(木) 16:00〜21:00\n鍵当番\n")
    assert "このメールは Shiftcast から自動で送信しています。" in composed.text
    assert "<p>佐藤 花子 先生</p>" in composed.html and "12月3日(木) 16:00〜21:00<br>" in composed.html


def test_english_subject_and_escaped_html() -> None:
    templates = email_text.load_templates("en")
    facts = texts.ShiftFacts("Main <school>", dt.date(2026, 12, 3), dt.time(22), dt.time(2), True, "")
    text = texts.reminder_text(facts, "en", texts.load_templates("en"))
    composed = email_text.compose(templates, subject_name="shift_reminder", message_text=text,
                                     fields=email_text.shift_fields(facts, "en"), name="Ann & Bob")
    assert composed.subject == "Shift reminder: Thu 3 Dec, 22:00–26:00 (Main <school>)"
    assert composed.text.startswith("Dear Ann & Bob,\n")
    assert "Ann &amp; Bob" in composed.html and "Main &lt;school&gt;" in composed.html and "<school>" not in composed.html


def test_publication_text_mentions_the_changes_only_for_an_update() -> None:
    templates = email_text.load_templates("ja")
    fields = email_text.month_fields("本校", 2026, 12, 1)
    assert "黄色" not in email_text.publication_text(templates, fields, revision=1, changed=0)
    assert "変更（3件）" in email_text.publication_text(templates, fields | {"revision": "2"}, revision=2, changed=3)


def test_a_copy_in_the_data_folder_wins(tmp_path) -> None:
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "email_subjects.txt").write_text("shift_reminder = Heads up, $name: $date\n", encoding="utf-8")
    templates = email_text.load_templates("en", tmp_path)
    composed = email_text.compose(templates, subject_name="shift_reminder", message_text="x",
                                     fields=email_text.shift_fields(FACTS, "en"), name="Ann")
    assert composed.subject == "Heads up, Ann: Thu 3 Dec"


def test_message_id_is_stable_per_delivery() -> None:
    first = message_id(42, "shift_reminder:shift:7:v2:email", "shifts@school.example.com")
    assert first == message_id(42, "shift_reminder:shift:7:v2:email", "shifts@school.example.com")
    assert first.startswith("<shiftcast-delivery-42-") and first.endswith("@school.example.com>")
    assert first != message_id(42, "shift_reminder:shift:7:v3:email", "shifts@school.example.com")


def test_mime_structure_with_inline_image_and_pdf() -> None:
    draft = MailDraft(to="hanako@example.com", to_name="佐藤 花子", from_address="shifts@school.example.com",
                      from_name="本校", subject="【シフト表】本校 2026年12月", text="本文\n",
                      html='<p>本文</p><img src="cid:roster@shiftcast">', message_id="<m1@school.example.com>",
                      inline=(Part(lambda: b"\x89PNG fake", "image", "png", "r.png", cid="roster@shiftcast"),),
                      attachments=(Part(lambda: b"%PDF-1.4 fake", "application", "pdf", "r.pdf"),))
    msg = message_from_bytes(render(draft, date=dt.datetime(2026, 12, 1, tzinfo=dt.UTC)), policy=email_policy.default)
    assert msg["Subject"] == "【シフト表】本校 2026年12月" and msg["Message-ID"] == "<m1@school.example.com>"
    assert msg["To"] == "佐藤 花子 <hanako@example.com>" and msg["Auto-Submitted"] == "auto-generated"
    assert msg.get_content_type() == "multipart/mixed"
    assert body(msg, "plain").replace("\r\n", "\n") == "本文\n"  # canonical CRLF on the wire
    image = next(p for p in msg.walk() if p.get_content_type() == "image/png")
    assert image["Content-ID"] == "<roster@shiftcast>" and image.get_content() == b"\x89PNG fake"
    [pdf] = list(msg.iter_attachments())
    assert pdf.get_content_type() == "application/pdf" and pdf.get_filename() == "r.pdf"


def test_shared_parts_are_encoded_once_and_arrive_intact() -> None:
    import os

    image, pdf = os.urandom(300_000), os.urandom(500_000)
    loads: list[str] = []

    def loader(name: str, data: bytes) -> Callable[[], bytes]:
        def load() -> bytes:
            loads.append(name)
            return data
        return load

    def draft(n: int) -> MailDraft:
        return MailDraft(to=f"t{n}@example.com", from_address="s@example.com", subject="s", text="t\n",
                         html="<p>h</p>", message_id=f"<m{n}@example.com>",
                         inline=(Part(loader("png", image), "image", "png", "r.png", cid="roster@shiftcast",
                                      shared="png:abc"),),
                         attachments=(Part(loader("pdf", pdf), "application", "pdf", "r.pdf", shared="pdf:abc"),))

    for n in range(3):
        msg = message_from_bytes(render(draft(n), date=dt.datetime(2026, 12, 1, tzinfo=dt.UTC)),
                                 policy=email_policy.default)
        assert next(p for p in msg.walk() if p.get_content_type() == "image/png").get_content() == image
        assert next(iter(msg.iter_attachments())).get_content() == pdf
    assert loads == ["png", "pdf"]
