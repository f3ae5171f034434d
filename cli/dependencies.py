"""A start without Shiftcast's libraries: one line naming what is missing and how to install it.

`python3 main.py` with a Python that never ran `make` (the system's, or a venv not activated) fails at
its first import of SQLAlchemy or PySide6, deep inside a verb or the window. A traceback there tells a
manager nothing; the line printed instead names the module and the one command that installs them
all. A library of an optional extra (psycopg, for a PostgreSQL server) names the extra instead, since
installing Shiftcast alone does not bring it. This module imports only the standard library and
core.texts, so it works where the libraries are missing.
"""

from __future__ import annotations

import sys

from cli import words
from cli.verbs import EXIT_USAGE
from core.texts import t

# Shiftcast's own packages: a missing one of these is a broken checkout, not a missing install.
FIRST_PARTY = frozenset({"core", "cli", "ui", "main", "tests"})
# Libraries only an extra of pyproject.toml installs: module → the extra's name.
EXTRAS = {"psycopg": "postgres"}


def missing_library(error: ModuleNotFoundError) -> str | None:
    """The top-level name of the third-party module that could not be imported, or None when the
    missing module is Shiftcast's own or the standard library's (pip cannot install those)."""
    top = (error.name or "").partition(".")[0]
    if not top or top in FIRST_PARTY or top in sys.stdlib_module_names:
        return None
    return top


def report(module: str) -> int:
    """Say which module is missing, in the run's language, on one line; the exit status of bad usage."""
    extra = EXTRAS.get(module)
    text = (t("cli.missing_extra", module=module, extra=extra) if extra is not None
            else t("cli.missing_library", module=module, python=sys.executable))
    print(f"shiftcast: {words.say(text)}", file=sys.stderr)
    return EXIT_USAGE
