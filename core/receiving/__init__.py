"""Receiving from LINE: the webhook receiver and what happens to the events it records.

Modules: signature (LINE's x-line-signature, pure), events (the POST body → rows of webhook_event,
once per webhookEventId), handlers (the handler interface, and running handlers after commit),
follow (follow/unfollow of a known teacher), server (the Starlette app on uvicorn, on loopback).

A layer above sending: it may import the store, the roster, the outbox, the channels, planning (the
e-mail fallback) and alerts; setup and app, which start it for the screens, import it. It never
imports Qt, ui or cli.
"""
