"""The app's side of the relay (docs/relay.md): the Cloudflare Worker that keeps LINE's webhook events
and sends handed-over reminders while every PC sleeps.

signing (Shiftcast-HMAC, pure), client (the relay's HTTP API, each call signed), settings (its address
in the settings table, its key in the keyring), uploads (the LINE deliveries due soon as the requests the
sender would make, and the cancels of those that no longer go), sync (heartbeat, push, pull outcomes as
attempts and events into the app's own pipeline), codes (the pending pairing codes as salted hashes with
their replies), pages (the teachers' page documents that changed, core/pages), local (the bundled Worker run on this computer with wrangler dev). It sits above sending
and receiving, whose builders and event pipeline it uses, and may import them and every layer below;
setup and app may import it.
"""
