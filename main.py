"""Shiftcast entry point: parse arguments, pick a mode, hand off. Nothing else lives here."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from core import cli


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = cli.parse_args(argv)
    except cli.UsageError as exc:
        return cli.fail_usage(exc)
    if args.command in (None, *cli.SCREEN_MODES):
        from ui.app import run_gui

        return run_gui(args)
    return cli.run(args)


if __name__ == "__main__":
    sys.exit(main())
