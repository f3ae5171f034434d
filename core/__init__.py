"""Shiftcast core: everything that is not a screen. Never imports Qt."""
