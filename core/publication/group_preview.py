"""What publishing a month now would send, as one picture: the Publish area's preview.

The LINE group receives the month in the form the sender will choose (core/sending/kinds/
shift_publication.py): with an image host (core/publication/image_hosts.py: the manager's bucket,
or the relay while one is attached) the portrait pages for phones, without one Flex carousels of a card
a week, drawn here as a phone shows them; while the teachers' page is ready and the manager chose it, the
announcement with its button to the page (core/pages/month_message.py). A classroom without its LINE
group yet is shown what the group will get once it is chosen (the month waits for it:
core/planning/group_waiting.py), said so.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from core.errors import ShiftcastError
from core.messages import month_flex
from core.pages import month_message
from core.publication import flex_picture, image_hosts, month_pages
from core.publication import publish as publication
from core.roster import rules
from core.roster.month import MonthRoster
from core.texts import Text, t
from core.texts.formats import Language


@dataclass(frozen=True)
class Preview:
    png: bytes
    form: Text  # which form goes to the group, and when, said above the picture


def month_facts(month: MonthRoster) -> month_flex.MonthFacts:
    """The month as Flex would say it, drafts and changes as the preview shows them."""
    language: Language = "en" if month.language == "en" else "ja"
    return month_flex.MonthFacts(month.classroom, month.year, month.month, month.revision, month.cells,
                                 month.changed, language)


def flex_messages(month: MonthRoster) -> list[dict[str, Any]]:
    try:
        return month_flex.group_messages(month_facts(month))
    except month_flex.MonthTooLarge as exc:
        raise ShiftcastError(t("send_error.MONTH_TOO_LARGE", count=exc.messages)) from None


def preview(session: Session, classroom_id: int, year: int, month: int, *, now: dt.datetime) -> Preview:
    view = publication.preview_month(session, classroom_id, year, month, now=now)
    room = rules.get_classroom(session, classroom_id)
    button = month_message.for_group(session, classroom=view.classroom, classroom_id=classroom_id,
                                     language=month_facts(view).language, year=year, month=month,
                                     revision=view.revision, changed=len(view.changed))
    route = image_hosts.route(session)
    if button is not None:
        form, png = t("publish.preview.button"), flex_picture.picture([button])
    elif route is not None:
        form = t("publish.preview.pages_relay") if route == "relay" else t("publish.preview.pages")
        png = month_pages.side_by_side(month_pages.render_pages(view))
    else:
        form, png = t("publish.preview.flex"), flex_picture.picture(flex_messages(view))
    if not room.line_group_id:
        form = t("publish.preview.later", form=form)
    return Preview(png, form)
