"""Shiftcast desktop UI (PySide6), one package per area: shell (the app, its window and tray), common
(what every area shares), shifts, publish, deliveries, settings, connect_line, teachers and demo.
Depends on core, reading through its query functions; core never depends on it."""
