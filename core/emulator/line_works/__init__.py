"""A local stand-in for LINE WORKS API 2.0 over real HTTP, for tests and the demo.

    with WorksStandIn(WorksApp(client_id=…, client_secret=…, service_account=…, public_key=PEM,
                               bot_id=…, bot_secret=…)) as works:
        works.add_user("teacher@example.com")
        ...  # point the client at works.base_url (both the sign-in and the API address)

It plays LINE WORKS' side as its public reference describes it: the service account's token (the JWT's
RS256 signature checked with the app's public key, its issuer, subject and life), the bot's messages to a
member or a message room (token, bot ID, the ids in the path, the content's shape and lengths; an image
must name a file it took), the content upload (an upload URL and a file ID, the file sent there as
multipart/form-data with the bearer token), 429 over the per-minute rate limit, and callbacks signed with
the bot secret. It keeps every message and file it took.

Like the LINE emulator beside it, it imports only itself (and libraries): it must not share Shiftcast's
code with the client it checks.
"""

from __future__ import annotations

from core.emulator.line_works.server import Accepted, WorksApp, WorksStandIn

__all__ = ["Accepted", "WorksApp", "WorksStandIn"]
