"""Shiftcast core: everything that is not a screen. Never imports Qt, ui or cli.

Packages, bottom to top; each may import only those below it (tests/test_layout.py holds the order):
foundation modules (errors, version, resources, logs, startup, addresses) → store → roster → messages →
outbox → channels → planning → publication → alerts → sending → setup → app. The emulator stands apart.
"""
