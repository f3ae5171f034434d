"""`python -m core.emulator`: see core/emulator/cli.py."""

from __future__ import annotations

from core.emulator.cli import main

if __name__ == "__main__":  # imported by tools that walk packages; only run when executed
    raise SystemExit(main())
