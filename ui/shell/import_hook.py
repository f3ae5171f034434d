"""PySide's import hook, made to read a module's file instead of asking the module.

Once Qt is loaded, PySide looks at every module imported afterwards to learn whether it uses
PySide6, with `inspect.getsource(module)`. That asks the module for `__wrapped__`, and a module
with a `__getattr__` of its own runs it — in the middle of its package's import. pydantic's does
an import there, which fails when the package is half imported: the Cloudflare SDK (which uses
pydantic), imported lazily on a background task, raised ImportError and the window showed an
apology for a relay check at start. Reading the file answers the same question without touching
the module (and is quicker: every later import pays for it).
"""

from __future__ import annotations

import logging
import sys
from types import ModuleType

log = logging.getLogger(__name__)

_NAMES = ("PySide6.support.feature", "shibokensupport.feature")


def _uses_pyside(module: ModuleType) -> bool:
    # vars(), not getattr: a missing attribute must not reach the module's own __getattr__.
    path = vars(module).get("__file__")
    if not isinstance(path, str) or not path.endswith(".py"):
        return False  # built in, compiled or frozen: inspect finds no source for these either
    try:
        with open(path, "rb") as source:
            return b"PySide6" in source.read()
    except OSError:
        return False


def read_module_files() -> bool:
    """Put `_uses_pyside` in place of PySide's check; False where this PySide has no such hook."""
    found = False
    for name in _NAMES:  # one module under two names, or two copies: each gets it
        feature = sys.modules.get(name)
        if feature is not None and hasattr(feature, "_mod_uses_pyside"):
            feature._mod_uses_pyside = _uses_pyside  # type: ignore[attr-defined]
            found = True
    if not found:
        log.info("PySide's feature hook was not found; modules are inspected as PySide does")
    return found
