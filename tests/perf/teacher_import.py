"""Importing a large teachers file: time and peak memory of `import teachers` as its own process.

The file is made here, in the benchmark, never in a test: each row a new teacher with a LINE ID and
LINE consent (what a chain's export holds), about 50 bytes a row, so 383,133 rows are the 19 MB
that once took 492 s and 270 MB. The import runs as `main.py import teachers` in a process of its own
on an empty data folder, so its peak resident memory is the import's (`ru_maxrss` of the child).
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
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        began = time.perf_counter()
        child = subprocess.Popen([sys.executable, "main.py", "import", "teachers", str(csv_file)], cwd=ROOT, env=env,
                                 stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own peak, not the largest of all children
        seconds = time.perf_counter() - began
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        said, problem = out.read().decode(), err.read().decode()
    if child.returncode != 0:
        raise RuntimeError(f"import failed: {problem.strip()[-500:]}")
    return {"seconds": round(seconds, 1), "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
            "said": said.strip().splitlines()[-1:]}


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
