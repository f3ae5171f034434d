"""The kinds of message Shiftcast sends, one module each (shift_reminder, shift_correction,
shift_publication, teacher_month, alert, cover_call, cover_assigned, cover_declined, availability_request,
unacknowledged_nudge): its key and label, its subject, its send-time rules, what it says — one
channel-neutral message (`compose`, core/messages/message.py) that each channel's driver renders,
and an override only for what one channel alone has —, its cancel reasons and forecast words,
whether it tells a teacher a shift. Importing this
package registers them (core/kinds/registry.py); a kind from elsewhere calls `register_kind` itself.
The kinds sit here, above everything their builders use: planning, publication, alerts and the
sending layer's shared checks (core/sending/send_checks.py).
"""

from __future__ import annotations

from core.kinds.registry import register_kind
from core.sending.kinds import (
    alert,
    availability_request,
    cover_assigned,
    cover_call,
    cover_declined,
    shift_correction,
    shift_publication,
    shift_reminder,
    teacher_month,
    unacknowledged_nudge,
)

BUILT_IN = (shift_reminder.KIND, shift_correction.KIND, shift_publication.KIND, teacher_month.KIND, alert.KIND,
            cover_call.KIND, cover_assigned.KIND, cover_declined.KIND, availability_request.KIND, unacknowledged_nudge.KIND)

for _kind in BUILT_IN:
    register_kind(_kind)
