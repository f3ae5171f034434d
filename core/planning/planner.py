"""A planning run: every registered kind that plans itself (`plan` in core/kinds/registry.py) is given
one planning context (core/planning/context.py) and enqueues what is due of it; the run's report says
what was planned, with the dry run's words. Idempotent: run it any number of times and it creates
nothing new, because every delivery has a dedup key (kind + subject + version, + channel when not LINE).

What each kind plans is its own module's to say (the shift reminder and correction: core/planning/
reminders.py and corrections.py; a publication's e-mail copies: core/planning/mailed_publication.py);
this loop knows none of them, so a new kind plans itself without a change here.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from core.kinds import registry as kinds
from core.planning.context import HORIZON, PlannedDelivery, PlanningContext, PlanReport

__all__ = ["HORIZON", "PlanReport", "PlannedDelivery", "plan"]


def plan(session: Session, *, now: dt.datetime, horizon: dt.timedelta = HORIZON) -> PlanReport:
    context = PlanningContext(session, now=now, horizon=horizon)
    made: list[int] = []
    for kind in kinds.kinds():
        if kind.plan is not None:
            made.extend(kind.plan(context))
    context.report.made_by_kinds(made)
    return context.report
