"""`main.py --home X …` keeps everything under X: every path comes from the one DataPaths the front end
builds, and nothing in core looks the default data folder up on its own."""

from __future__ import annotations

import ast
import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from PIL import Image
from sqlalchemy import select

from core.emulator import LineEmulator
from core.outbox import queue
from core.publication import month_pages
from core.publication.image_store import ImageStore
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus, Publication, ShiftStatus
from core.store.paths import DataPaths, data_paths
from tests import factories as f
from tests.linefixtures import TOKEN, user_id
from tests.s3server import SECRET_KEY, hosted, s3_endpoint  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
GROUP = "C" + "2" * 32
ROOM = "本校"
REMINDER_TEMPLATE = "【X のお知らせ】$classroom $when (from the chosen folder)"


@pytest.fixture
def paths(tmp_path: Path) -> DataPaths:
    """The folder given with --home: not the default one (SHIFTCAST_HOME, set by conftest to tmp/home)."""
    return data_paths(tmp_path / "chosen home")


@pytest.fixture
def default_folder(_isolated_home: Path) -> Path:
    assert os.environ["SHIFTCAST_HOME"] == str(_isolated_home)
    return _isolated_home


def _main(home: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "main.py", "--home", str(home), *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=180,
                          env=os.environ | {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"} | (env or {}))


def _month(db: Database) -> tuple[str, int]:
    """A classroom with a LINE group and this month's shifts (drafts, and one confirmed shift two days
    ahead whose reminder is due now). Returns the month and the reminder's delivery id."""
    now = dt.datetime.now(dt.UTC)
    day = (now + dt.timedelta(days=2)).astimezone(ZoneInfo("Asia/Tokyo")).date()
    with db.write() as s:
        room = f.classroom(s, ROOM, line_group_id=GROUP)
        a, b = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        f.shift(s, room, b, day.replace(day=1), "09:00", "12:00", now=now)
        shift = f.shift(s, room, a, day, now=now, status=ShiftStatus.CONFIRMED)
        reminder, _ = queue.enqueue(
            s, kind=DeliveryKind.SHIFT_REMINDER,
            dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{shift.id}", shift.version), due_at=now,
            now=now, recipient=f.reach(a).line_user_id, teacher_id=a.id, classroom_id=room.id, subject_type="shift",
            subject_id=shift.id, subject_version=shift.version)
    return f"{day:%Y-%m}", reminder


@pytest.mark.slow  # real processes
def test_publish_and_render_write_only_under_the_home_they_are_given(db: Database, paths: DataPaths,
                                                                    default_folder: Path, tmp_path: Path) -> None:
    month, _ = _month(db)
    # No LINE credentials in this run: the month is published to go once LINE is connected.
    published = _main(paths.home, "publish", "--classroom", ROOM, "--month", month, "--when-ready")
    assert published.returncode == 0, published.stderr
    with db.read() as s:
        publication = s.scalars(select(Publication)).one()
    store = ImageStore(paths.images)
    assert store.path_for(publication.image_sha256, ".png").is_file()
    assert store.path_for(publication.preview_sha256, ".jpg").is_file()

    wall = tmp_path / "wall.png"
    rendered = _main(paths.home, "render", "--classroom", ROOM, "--month", month, "--out", str(wall))
    assert rendered.returncode == 0, rendered.stderr
    assert wall.read_bytes().startswith(b"\x89PNG")
    # `render` draws the wide grid for the wall; the pages for phones were stored under this home.
    with Image.open(wall) as drawn:
        assert drawn.width > drawn.height
    assert drawn.width != month_pages.PAGE_WIDTH
    assert publication.pages_json and all(store.path_for(p[k], ext).is_file() for p in json.loads(publication.pages_json)
                                          for k, ext in (("image", ".png"), ("preview", ".jpg")))

    assert (paths.logs / "shiftcast.log").is_file()
    assert not default_folder.exists(), sorted(default_folder.rglob("*"))


@pytest.mark.slow  # real processes
def test_sending_reads_images_and_templates_from_the_home_it_is_given(
        db: Database, paths: DataPaths, default_folder: Path, hosted: str) -> None:
    month, reminder = _month(db)
    (paths.home / "templates" / "ja").mkdir(parents=True)
    (paths.home / "templates" / "ja" / "shift_reminder.txt").write_text(REMINDER_TEMPLATE, encoding="utf-8")
    # LINE's token is given to the sender below, not to this run: publish it to go once LINE is connected.
    published = _main(paths.home, "publish", "--classroom", ROOM, "--month", month, "--when-ready")
    assert published.returncode == 0, published.stderr
    with LineEmulator(token=TOKEN, allow_loopback_media=True) as emulator:
        emulator.add_group(GROUP, f"{ROOM} 講師", [user_id(1), user_id(2)])
        emulator.add_user(user_id(1), "佐藤")
        sent = _main(paths.home, "sender", "--until-idle", env={
            "SHIFTCAST_LINE_TOKEN": TOKEN, "SHIFTCAST_LINE_API_BASE": emulator.base_url,
            "SHIFTCAST_HOSTING_SECRET": SECRET_KEY})
        assert sent.returncode == 0, sent.stderr
        with db.read() as s:
            outcomes = {d.id: (d.kind, d.status, d.last_error_code) for d in s.scalars(select(Delivery))}
        assert outcomes[reminder] == (DeliveryKind.SHIFT_REMINDER, DeliveryStatus.SENT, None)
        publication = [o for o in outcomes.values() if o[0] == DeliveryKind.SHIFT_PUBLICATION]
        assert publication == [(DeliveryKind.SHIFT_PUBLICATION, DeliveryStatus.SENT, None)]  # its images were found
        [text] = [m.message["altText"] for m in emulator.inbox(user_id(1))]  # a reminder is a Flex bubble
        assert text.startswith(f"【X のお知らせ】{ROOM} ") and text.endswith("(from the chosen folder)")
    assert not default_folder.exists(), sorted(default_folder.rglob("*"))


def test_only_the_data_paths_module_looks_up_the_default_folder() -> None:
    callers = []
    # data_folder.open_data_folder is how the front ends (cli/, ui/) open the folder they were given.
    allowed = {ROOT / "core" / "store" / "paths.py", ROOT / "core" / "store" / "data_folder.py"}
    for path in sorted((ROOT / "core").rglob("*.py")):
        if path in allowed:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        callers += [f"{path.relative_to(ROOT)}:{node.lineno}" for node in ast.walk(tree)
                    if isinstance(node, ast.Name | ast.Attribute)
                    and (node.id if isinstance(node, ast.Name) else node.attr) in ("default_home", "data_paths")]
    assert callers == []
