"""Shiftcast desktop UI (PySide6), one package per area: shell (the app, its window and tray), common
(what every area shares), shifts, publish, deliveries, settings, connect_line, teachers and demo.
Depends on core, reading through its query functions; core never depends on it."""

import PySide6.QtCore  # noqa: F401 - loads PySide's import hook, which the next line corrects

from ui.shell.import_hook import read_module_files

read_module_files()  # before any module is imported lazily behind the window (ui/shell/import_hook.py says why)
