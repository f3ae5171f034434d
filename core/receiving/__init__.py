"""Receiving from LINE: the webhook receiver and what happens to the events it records.

Modules: signature (LINE's x-line-signature, pure), events (the POST body → rows of webhook_event,
once per webhookEventId), handlers (the handler interface, and running handlers after commit),
follow (follow/unfollow of a known teacher: reachable or not, consent withdrawn on a block), groups
(a join proposes the group, with its name and member count; accept_group; a left classroom group
alerts), pairing (one-time codes, the add-friend link and QR code, the message handler that binds a
teacher's LINE user ID with their consent time and replies; standard_handlers, every handler at once),
acknowledge (了解 postbacks mark a delivery acknowledged once), page (the teachers' page's answers
the relay brings back as events, each done as its chat counterpart), server (the Starlette app on uvicorn,
on loopback; every standard handler unless told otherwise), guard (a deadline for a request's headers
and a cap on connections, so slow clients cannot starve it), address (the public HTTPS address LINE
calls: a Cloudflare quick tunnel, the owner's own address, or loopback).

A layer above sending: it may import the store, the roster, the outbox, the channels, planning (the
e-mail fallback), alerts and the teachers' page's documents (core/pages); setup and app, which start it for the screens, import it. It never
imports Qt, ui or cli.
"""
