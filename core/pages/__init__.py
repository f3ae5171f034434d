"""The teachers' page: what the app hands the relay for the LIFF page (docs/teachers_page.md)."""
