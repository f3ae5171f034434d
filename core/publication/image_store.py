"""Immutable, content-addressed image files in the data folder (`images/ab/abcdef….png`)."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path


class ImageStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def path_for(self, sha256: str, suffix: str) -> Path:
        return self.root / sha256[:2] / f"{sha256}{suffix}"

    def put(self, data: bytes, suffix: str) -> tuple[str, Path]:
        """Store bytes once; the same content always lands at the same path. Returns (sha256, path)."""
        digest = hashlib.sha256(data).hexdigest()
        path = self.path_for(digest, suffix)
        if path.exists() and path.stat().st_size == len(data):
            return digest, path
        path.parent.mkdir(parents=True, exist_ok=True)
        # Write beside, fsync, then rename: a crash never leaves a half-written image under its hash.
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".part")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return digest, path

    def get(self, sha256: str, suffix: str) -> bytes:
        return self.path_for(sha256, suffix).read_bytes()
