"""The verbs that open screens (the window, the tray, the demo, the screenshots): only their arguments
live here; main.py hands them to ui/app.py, so the command line runs none of them."""

from __future__ import annotations

from pathlib import Path

from cli.verbs import Subcommands, Verb

SCREEN_MODES = {"gui", "tray", "demo", "screenshots"}


def add_parsers(sub: Subcommands) -> None:
    sub.add_parser("gui", help="open the window (the default)")
    sub.add_parser("tray", help="start in the system tray only (used when starting at login)")
    sub.add_parser("demo", help="try Shiftcast with sample data and the built-in LINE simulator")
    shots = sub.add_parser("screenshots", help="save a PNG of every main view and dialog (demo data)")
    shots.add_argument("--out", required=True, type=Path)


COMMANDS: dict[str, Verb] = {}
