"""The teachers' page: what the app hands the relay for the LIFF page (docs/teachers_page.md).

It owns the documents handed over (entry), the page's addresses, whether the page is ready (status)
and its buttons in messages (buttons). It may import texts, the foundation, store, roster and messages;
sending and the relay sync build on it.
"""
