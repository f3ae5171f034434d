"""Shiftcast entry point: parse arguments, pick a mode, hand off. Nothing else lives here."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from core.startup import pause_collector, resume_collector


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    pause_collector()  # until start-up ends (core/startup.py)
    try:
        from cli import commands

        try:
            args = commands.parse_args(argv)
        except commands.UsageError as exc:
            return commands.fail_usage(exc)
        if args.command in (None, *commands.SCREEN_MODES):
            from ui.shell.app import run_gui

            return run_gui(args)
        return commands.run(args)
    except ModuleNotFoundError as error:
        from cli import dependencies, words

        missing = dependencies.missing_library(error)
        if missing is None:
            raise
        words.start(argv)
        return dependencies.report(missing)
    finally:
        resume_collector()


if __name__ == "__main__":
    sys.exit(main())
