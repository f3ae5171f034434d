"""Whole numbers typed on the command line, checked while the arguments are parsed.

argparse's `type=int` takes any number of digits; a delivery id or a limit of twenty digits then
reached SQLite or the socket layer as an OverflowError. Each number has its range here instead, and
one out of it is a usage error naming the value and the range.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from cli import words

ROW_ID_MAX = 2**63 - 1  # a database row id is a signed 64-bit integer in SQLite and PostgreSQL


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse `type` for a whole number from `low` to `high`."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(words.line("cli.not_a_number", value=text)) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(words.line("cli.number_range", value=text, low=low, high=high))
        return value

    return parse


ROW_ID = whole_number(1, ROW_ID_MAX)
PORT = whole_number(1, 65535)
