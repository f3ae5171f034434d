"""Importing a large teachers file: time and peak memory of `import teachers` as its own process.

The file is made here, in the benchmark, never in a test: each row a new teacher with a LINE ID and
LINE consent (what a chain's export holds), about 50 bytes a row, so 383,133 rows are the 19 MB
that once took 492 s and 270 MB. The import runs as `main.py import teachers` in a process of its own
on an empty data folder, so its peak resident memory is the import's: the child's own VmHWM, read by
the child as it exits (the child's `ru_maxrss` would not do: Linux carries the parent's peak over the
fork into it, and the parent has just made the file).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FULL_ROWS = 383_133
PEAK_FILE = "BENCH_PEAK_FILE"
# main.py as it runs, writing its own peak resident memory (kB) to $BENCH_PEAK_FILE as it exits.
_WITH_PEAK = ("import atexit, os, runpy, sys\n"
              "def peak():\n"
              "    status = open('/proc/self/status').read()\n"
              "    open(os.environ['BENCH_PEAK_FILE'], 'w').write(status.split('VmHWM:')[1].split()[0])\n"
              "atexit.register(peak)\n"
              "sys.argv = sys.argv[1:]\n"
              "runpy.run_path('main.py', run_name='__main__')\n")


def teachers_csv(rows: int) -> bytes:
    """`rows` new teachers, each with a name, a LINE ID and LINE consent."""
    lines = ["name,line_user_id,line_opt_in"]
    lines += [f"講師{n:06d},U{n:032x},yes" for n in range(1, rows + 1)]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _import(folder: Path, csv_file: Path) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHIFTCAST_")}
    env |= {"SHIFTCAST_HOME": str(folder / "Shiftcast"), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    assert subprocess.run([sys.executable, "main.py", "add-classroom", "本校"], cwd=ROOT, env=env,
                          capture_output=True).returncode == 0  # the database made and migrated, outside the timing
    peak_file = folder / "peak-kb"
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _WITH_PEAK, "main.py", "import", "teachers", str(csv_file)],
                          cwd=ROOT, env=env | {PEAK_FILE: str(peak_file)}, capture_output=True, text=True)
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        raise RuntimeError(f"import failed: {done.stderr.strip()[-500:]}")
    return {"seconds": round(seconds, 1), "peak_rss_mb": round(int(peak_file.read_text()) / 1024, 1),
            "said": done.stdout.strip().splitlines()[-1:]}


def measure(rows: int = FULL_ROWS) -> dict[str, Any]:
    """Import `rows` new teachers into an empty data folder; the file's size, the time and the peak memory."""
    with tempfile.TemporaryDirectory(prefix="shiftcast-import-") as root:
        folder = Path(root)
        csv_file = folder / "teachers.csv"
        csv_file.write_bytes(teachers_csv(rows))
        figures = _import(folder, csv_file)
        return {"rows": rows, "file_mb": round(csv_file.stat().st_size / 1e6, 1), **figures,
                "rows_per_s": round(rows / figures["seconds"]) if figures["seconds"] else None}


if __name__ == "__main__":
    import json

    print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else FULL_ROWS)))
