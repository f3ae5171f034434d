"""What a verb is to the command line, and the little every group of verbs shares.

Each topic module (roster, publish, sending, deliveries, …) is a `Topic`: it adds its own sub-commands
to the parser and names the function each runs. cli/commands.py only puts the topics together, so a
new verb touches its topic's module and nothing else.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from core.errors import ShiftcastError

# Parsing (and --help) imports this module: it must not load SQLAlchemy, so the store's types are
# named for the type checker only.
if TYPE_CHECKING:
    from core.store.db import Database
    from core.store.paths import DataPaths

EXIT_USAGE = 2
EXIT_FAILED = 1

# Every verb gets the process's one DataPaths: a verb that touches a file finds it there, never in the
# default data folder on its own.
Verb: TypeAlias = Callable[["Database", argparse.Namespace, "DataPaths"], int]
# A verb that runs before any database is opened (the emulator): it gets no database.
NoDatabaseVerb: TypeAlias = Callable[[None, argparse.Namespace, "DataPaths"], int]


class Subcommands(Protocol):
    """What a topic is given to add its sub-commands to: argparse's sub-parsers, of the CLI's parser class."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


class UsageError(ShiftcastError):
    """Arguments the parser, or a verb reading them, cannot use: told in one line, exit 2."""


class Topic(Protocol):
    """A group of verbs: a module with these names is one."""

    def add_parsers(self, sub: Subcommands) -> None: ...

    @property
    def COMMANDS(self) -> Mapping[str, Verb]: ...


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def print_json(value: Any) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2))


def file_only() -> dict[str, bool]:
    """`extra=` for a log line already said on the terminal in the manager's words."""
    from core.logs import FILE_ONLY  # the logging set-up is not needed to parse

    return FILE_ONLY
