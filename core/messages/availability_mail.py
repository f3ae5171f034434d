"""What a teacher reached by e-mail only receives when asked when they can work (シフト希望): the same
request as the LINE carousel, as text. An e-mail has no buttons and Shiftcast reads no mailbox, so the
teacher replies to the manager, who enters the answers (`shiftcast availability answer`, the
Availability dialog's Enter answers…). The days are listed one a line, as `12/5(金)`, so a reply that
writes ○, × or the hours after each day reads as it stands (core/roster/availability_text.py takes
the weekday in brackets). Pure: the request in, the subject's fields and the text out.
"""

from __future__ import annotations

from core.messages.availability_flex import Asked
from core.roster.availability_text import month_days
from core.texts import render, t
from core.texts.formats import month_text, weekday_short

REQUEST, REMINDER = "availability_request", "availability_reminder"  # their subjects in email_subjects.txt


def subject_name(asked: Asked) -> str:
    return REMINDER if asked.reminder else REQUEST


def fields(asked: Asked) -> dict[str, str]:
    """The subject's fields: $classroom, $month (December 2026 / 2026年12月) and $deadline."""
    language = asked.language
    return {"classroom": asked.classroom, "month": month_text(asked.year, asked.month, language),
            "deadline": render(t("availability.mail.deadline_short", deadline=asked.deadline), language)}


def text(asked: Asked) -> str:
    """The request: what is asked and by when, how to answer by reply, and the month's days, a line each."""
    language = asked.language
    lines = [render(t("availability.title", classroom=asked.classroom,
                      month=month_text(asked.year, asked.month, language)), language),
             render(t("availability.deadline", deadline=asked.deadline), language)]
    if asked.reminder:
        lines.append(render(t("availability.reminder_line"), language))
    lines += [render(t("availability.mail.how"), language), ""]
    lines += [f"{day.month}/{day.day}({weekday_short(day, language)})" for day in month_days(asked.year, asked.month)]
    return "\n".join(lines)
