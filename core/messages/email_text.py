"""E-mail text for teachers from editable templates: subject, plain text and HTML. Pure: facts in, text out.

The message itself is the same text LINE carries (core.messages.texts renders it); e-mail wraps it in a
layout with the teacher's name, and takes its subject from `email_subjects.txt`, which can name the
date and times, so each teacher's inbox shows at a glance what the mail is about.
"""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from string import Template

from core.messages import texts
from core.resources import resource
from core.roster import clock
from core.texts import formats

FILES = {"text": "email.txt", "html": "email.html", "publication": "email_publication.txt",
         "subjects": "email_subjects.txt"}
ACCENT = "#1B7F5B"
CORRECTION_ACCENT = "#C0392B"
SUBJECT_LIMIT = 200


@dataclass(frozen=True)
class EmailTemplates:
    language: str
    subjects: Mapping[str, str]
    text_layout: str
    html_layout: str
    publication: str


@dataclass(frozen=True)
class Composed:
    subject: str
    text: str
    html: str


def load_templates(language: str, override_dir: Path | None = None) -> EmailTemplates:
    """A language's e-mail templates; a copy in `<override_dir>/<language>/` wins over the bundled one."""
    language = language if language in texts.LANGUAGES else "ja"
    found: dict[str, str] = {}
    for key, name in FILES.items():
        candidates = [resource("templates", language, name)]
        if override_dir is not None:
            candidates.insert(0, override_dir / language / name)
        found[key] = next(p for p in candidates if p.is_file()).read_text(encoding="utf-8")
    return EmailTemplates(language, parse_subjects(found["subjects"]), found["text"], found["html"],
                          found["publication"])


def parse_subjects(text: str) -> dict[str, str]:
    """`name = template` per line; blank lines and # comments are skipped."""
    out = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, sep, template = line.partition("=")
        if sep:
            out[name.strip()] = template.strip()
    return out


def shift_fields(facts: texts.ShiftFacts, language: str) -> dict[str, str]:
    """Per-recipient fields about one shift, for subjects and layouts."""
    day = facts.local_date
    date = formats.day_short(day, "en" if language == "en" else "ja")
    return {"classroom": facts.classroom, "date": date, "start": clock.format_wall_time(facts.start),
            "end": clock.format_wall_time(facts.end, next_day=facts.ends_next_day),
            "when": texts.when(facts, language)}


def month_fields(classroom: str, year: int, month: int, revision: int) -> dict[str, str]:
    return {"classroom": classroom, "year": str(year), "month": str(month), "revision": str(revision),
            "month_name": f"{dt.date(year, month, 1):%B}"}


def publication_text(templates: EmailTemplates, fields: Mapping[str, str], *, revision: int, changed: int) -> str:
    if revision <= 1:
        update = ""
    elif templates.language == "en":
        update = (f"This is revision {revision}: 1 change since the last one is framed in yellow." if changed == 1
                  else f"This is revision {revision}: {changed} changes since the last one are framed in yellow.")
    else:
        update = f"第{revision}版です。前回からの変更（{changed}件）を黄色の枠で示しています。"
    return texts.render(templates.publication, {**fields, "update": update})


def compose(templates: EmailTemplates, *, subject_name: str, message_text: str, fields: Mapping[str, str],
            name: str, accent: str = ACCENT, images: Sequence[tuple[str, str]] = ()) -> Composed:
    """Subject from its template, the text in the layout, and the same in HTML (every value escaped);
    `images`: the inline pictures' content IDs and alternative texts, shown after the text."""
    values = {**fields, "name": name}
    subject = texts.render(templates.subjects.get(subject_name, "$classroom"), values)
    subject = " ".join(subject.split())[:SUBJECT_LIMIT]  # one line: no header folding surprises
    text = fill_layout(templates.text_layout, {**values, "message": message_text})
    lines = message_text.splitlines() or [""]
    body = "<p>" + "<br>\n".join(html.escape(line) for line in lines[1:]) + "</p>" if lines[1:] else ""
    image = "".join(f'<p><img src="cid:{html.escape(cid)}" alt="{html.escape(alt)}" '
                    f'style="max-width:100%;height:auto;border:1px solid #dee2e6"></p>' for cid, alt in images)
    escaped = {k: html.escape(v) for k, v in values.items()}
    page = Template(templates.html_layout).safe_substitute(
        {**escaped, "subject": html.escape(subject), "title": html.escape(lines[0]), "body": body, "image": image,
         "accent": accent})
    return Composed(subject, text, page)


def fill_layout(template: str, values: Mapping[str, str]) -> str:
    """Like texts.render, but keeps the layout's blank lines (paragraphs); only a line that an empty
    value left empty disappears."""
    out = []
    for line in template.splitlines():
        filled = Template(line).safe_substitute(values).rstrip()
        if line.strip() and not filled.strip():
            continue
        out.append(filled)
    return "\n".join(out).strip("\n") + "\n"
