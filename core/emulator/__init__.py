"""A local LINE Messaging API emulator over real HTTP, for tests and the demo mode.

    with LineEmulator(token="test-token") as emu:
        emu.add_user("U" + "0" * 32, "Hanako")
        ...  # point the LINE client at emu.base_url

Modules: exchange (what handlers are given and answer), asgi (the ASGI application uvicorn serves),
app (routing), line_api (LINE's endpoints), control_api (/_emulator/), validation (body rules), retrykeys, quota, ratelimit, faults, state, records, responses,
server (LineEmulator), cli (serve_forever), loadcheck (throughput measurement); and the other
direction: webhooks (endpoint rules, signing, event shapes), simulate (users and groups acting on the
bot, each a signed webhook POST), tokens (stateless channel access tokens); and for the teachers' page:
id_tokens (LIFF ID tokens, LINE Login's verify), liff (the LIFF SDK stand-in), rich_menus.

It imports only itself: it plays LINE's side, so it must not share Shiftcast's code with the client
it checks. The demo (core.app), the front ends and the tests start it.
"""

from __future__ import annotations

from core.emulator.cli import serve_forever
from core.emulator.faults import FaultPlan
from core.emulator.records import InboxMessage, RequestRecord
from core.emulator.server import LineEmulator

__all__ = ["FaultPlan", "InboxMessage", "LineEmulator", "RequestRecord", "serve_forever"]
