"""The teachers' page: what the app hands the relay for the LIFF page (docs/teachers_page.md).

entry (one document as the relay takes it) and addresses (the page's LIFF URLs), fixed for every part of the
page; documents (every person and classroom document), person, manager and classroom (each document's
content), shift_facts (what changed since a teacher was told, 了解 and its data, a reminder's failure),
months (the months shown and when the relay forgets them), jsontext (the one way a document is written,
and its fingerprint), status (whether the page is ready) and buttons (its link in messages). It reads the
roster, the planning's rule of what a teacher was told, the outbox and the store, and may import those and
every layer below; sending, receiving, relay, setup and app may import it.
"""
