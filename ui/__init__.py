"""Shiftcast desktop UI (PySide6). Depends on core; core never depends on it."""
