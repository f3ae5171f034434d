"""Checks of the frozen Linux release build, run by packaging/ci_check.sh after `make dist`.

    .venv/bin/python packaging/release_check.py [--dist dist] [--only NAME ...]

Every check prints one `PASS name: …` or `FAIL name: …` line (or `SKIP`), figures are printed as JSON lines
(`{"metric": …}`), and the exit status is 1 when any check failed. The checks run the frozen executable the way
a user would, in temporary data folders, against the local LINE emulator (started from the frozen app itself);
nothing is sent anywhere and no file outside the temporary folders is touched.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BUDGET_UNPACKED = 220 * 10**6  # bytes (decimal MB, the stricter reading); packaging/README.md says why 220 and 90
BUDGET_TARBALL = 90 * 10**6
TOKEN = "release-check-token"
TEACHER_ID = "U" + "5" * 32
CLASSROOM = "本校"
MiB = 1024 * 1024


def version() -> str:
    namespace: dict[str, str] = {}
    exec((ROOT / "core" / "version.py").read_text(encoding="utf-8"), namespace)
    return namespace["__version__"]


def metric(**values: object) -> None:
    print(json.dumps(values, ensure_ascii=False), flush=True)


class Failed(Exception):
    pass


def expect(condition: object, message: str) -> None:
    if not condition:
        raise Failed(message)


class Frozen:
    """The frozen app, run with a clean environment (no source tree on the path, offscreen Qt)."""

    def __init__(self, exe: Path) -> None:
        self.exe = exe

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("PYTHON", "SHIFTCAST_", "VIRTUAL_ENV", "QT_"))}
        env["QT_QPA_PLATFORM"] = "offscreen"
        env.update(extra)
        return env

    def run(self, *args: str, timeout: float = 120, env: dict[str, str] | None = None, stdin: str | None = None,
            check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([str(self.exe), *args], capture_output=True, text=True, timeout=timeout,
                              env=env or self.env(), input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL)
        if check and done.returncode != 0:
            raise Failed(f"`{' '.join(['shiftcast', *args])}` exited {done.returncode}: "
                         f"{(done.stderr or done.stdout).strip()[-1500:]}")
        if "Traceback (most recent call last)" in done.stderr:
            raise Failed(f"`{' '.join(['shiftcast', *args])}` printed a traceback: {done.stderr.strip()[-1500:]}")
        return done


# ---------------------------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------------------------
class Release:
    def __init__(self, dist: Path, work: Path) -> None:
        self.dist = dist
        self.work = work
        self.version = version()
        self.bundle = dist / "shiftcast"
        self.internal = self.bundle / "_internal"
        self.frozen = Frozen(self.bundle / "shiftcast")
        self.tarball = dist / f"shiftcast-{self.version}-linux-{os.uname().machine}.tar.gz"
        debs = sorted(dist.glob(f"shiftcast_{self.version}_*.deb"))
        self.deb = debs[0] if debs else dist / f"shiftcast_{self.version}_amd64.deb"

    def home(self, name: str) -> Path:
        path = self.work / name
        path.mkdir(parents=True, exist_ok=True)
        return path

    # -- contents ------------------------------------------------------------------------------------------------
    def check_layout(self) -> str:
        expect(self.frozen.exe.is_file() and os.access(self.frozen.exe, os.X_OK), f"no executable {self.frozen.exe}")
        must = [
            "resources/icons/shiftcast.png", "resources/icons/shiftcast.ico",
            "core/store/migrations/env.py", "core/store/migrations/script.py.mako", "core/emulator/liff_sdk.js",
            "tzdata/zoneinfo/Asia/Tokyo", "holidays/locale/ja/LC_MESSAGES/JP.mo",
            "PySide6/Qt/plugins/platforms/libqoffscreen.so", "PySide6/Qt/plugins/platforms/libqxcb.so",
            "PySide6/Qt/plugins/imageformats/libqjpeg.so", "PySide6/Qt/plugins/imageformats/libqico.so",
            "PySide6/Qt/translations/qtbase_ja.qm",
        ]
        for template in sorted((ROOT / "resources" / "templates").rglob("*.txt")):
            must.append(str(template.relative_to(ROOT)))
        for migration in sorted((ROOT / "core" / "store" / "migrations" / "versions").glob("*.py")):
            must.append(str(migration.relative_to(ROOT)))
        for ts in sorted((ROOT / "resources" / "i18n").glob("*.ts")):
            must.append(f"resources/i18n/{ts.stem}.qm")
        missing = [m for m in must if not (self.internal / m).exists()]
        expect(not missing, f"missing from the bundle: {missing}")
        entry_points = list(self.internal.glob("keyring-*.dist-info/entry_points.txt"))
        expect(entry_points and "keyring.backends" in entry_points[0].read_text(), "keyring's entry points are missing")
        forbidden = re.compile(r"Qt6(Quick|Qml|WebEngine|Designer|Help|UiTools|3D|Multimedia|Pdf|Wayland|EglFS)"
                               r"|/(egldeviceintegrations|wayland-[a-z-]+|qml)/|libqeglfs|libqwayland|\.debug$")
        extra = sorted(str(p.relative_to(self.internal)) for p in self.internal.rglob("*") if forbidden.search(str(p)))
        expect(not extra, f"left-out Qt parts are in the bundle: {extra[:10]}")
        qt_translations = sorted(p.name for p in (self.internal / "PySide6/Qt/translations").glob("*.qm"))
        expect(set(qt_translations) <= {"qtbase_ja.qm", "qtbase_en.qm"}, f"extra Qt translations: {qt_translations}")
        plugins = sorted(str(p.relative_to(self.internal / "PySide6/Qt/plugins"))
                         for p in (self.internal / "PySide6/Qt/plugins").rglob("*.so"))
        return f"{len(must)} required files present; Qt plugins: {', '.join(plugins)}"

    def check_libraries(self) -> str:
        """Every library the bundle links resolves (bundled, or from the packages the .deb depends on)."""
        elf_files = [p for p in self.bundle.rglob("*") if p.is_file() and not p.is_symlink() and _is_elf(p)]
        env = dict(os.environ, LD_LIBRARY_PATH=str(self.internal))
        missing: dict[str, set[str]] = {}
        for f in elf_files:
            out = subprocess.run(["ldd", str(f)], capture_output=True, text=True, env=env).stdout
            for line in out.splitlines():
                if "=> not found" in line:
                    missing.setdefault(line.split("=>")[0].strip(), set()).add(str(f.relative_to(self.bundle)))
        expect(not missing, "unresolved libraries: " + "; ".join(f"{lib} (needed by {sorted(by)[0]})"
                                                                  for lib, by in sorted(missing.items())))
        return f"{len(elf_files)} ELF files, all dependencies resolve"

    def check_sizes(self) -> str:
        unpacked = sum(p.lstat().st_size for p in self.bundle.rglob("*") if not p.is_dir())
        expect(self.tarball.is_file(), f"no tarball {self.tarball}")
        expect(self.deb.is_file(), f"no .deb {self.deb}")
        tarball, deb = self.tarball.stat().st_size, self.deb.stat().st_size
        metric(metric="bundle_size", unpacked_bytes=unpacked, unpacked_mb=round(unpacked / 1e6, 1),
               unpacked_mib=round(unpacked / MiB, 1), tar_gz_bytes=tarball, tar_gz_mb=round(tarball / 1e6, 1),
               tar_gz_mib=round(tarball / MiB, 1), deb_bytes=deb, deb_mb=round(deb / 1e6, 1),
               deb_mib=round(deb / MiB, 1), files=sum(1 for p in self.bundle.rglob("*") if not p.is_dir()))
        expect(unpacked < BUDGET_UNPACKED, f"unpacked bundle {unpacked / 1e6:.1f} MB is over the {BUDGET_UNPACKED / 1e6:.0f} MB budget")
        expect(tarball < BUDGET_TARBALL, f"tar.gz {tarball / 1e6:.1f} MB is over the {BUDGET_TARBALL / 1e6:.0f} MB budget")
        return (f"unpacked {unpacked / 1e6:.1f} MB (< {BUDGET_UNPACKED / 1e6:.0f}), tar.gz {tarball / 1e6:.1f} MB "
                f"(< {BUDGET_TARBALL / 1e6:.0f}), "
                f".deb {deb / 1e6:.1f} MB")

    # -- running -------------------------------------------------------------------------------------------------
    def check_version(self) -> str:
        home = self.home("version")
        times = []
        for _ in range(5):
            start = time.perf_counter()
            done = self.frozen.run("--home", str(home), "--version", env=self.frozen.env())
            times.append((time.perf_counter() - start) * 1000)
            expect(done.stdout.strip() == f"Shiftcast {self.version}", f"--version printed {done.stdout.strip()!r}")
        metric(metric="startup", what="--version wall time", first_ms=round(times[0]),
               median_ms=round(statistics.median(times)), runs=len(times))
        return f"Shiftcast {self.version}; wall {round(times[0])} ms first, {round(statistics.median(times))} ms median"

    def _smoke(self, platform: str, prefix: Sequence[str] = ()) -> dict[str, object]:
        home = self.home(f"smoke-{platform}")
        env = self.frozen.env(QT_QPA_PLATFORM=platform, PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
        start = time.perf_counter()
        done = subprocess.run([*prefix, str(self.frozen.exe), "--home", str(home), "--smoke"], capture_output=True,
                              text=True, timeout=180, env=env, stdin=subprocess.DEVNULL)
        wall = (time.perf_counter() - start) * 1000
        if done.returncode != 0:
            raise Failed(f"--smoke exited {done.returncode}: {(done.stderr or done.stdout).strip()[-2000:]}")
        lines = [line for line in done.stdout.splitlines() if line.strip().startswith("{")]
        expect(len(lines) == 1, f"--smoke should print one JSON line, printed: {done.stdout.strip()[-500:]!r}")
        result = json.loads(lines[0])
        expect(result.get("smoke") == "ok", f"--smoke said {result}")
        expect(str(result.get("window", "")).startswith(f"Shiftcast {self.version}"), f"window title {result}")
        expect(int(result.get("tabs", 0)) >= 4, f"the main window has {result.get('tabs')} tabs")
        expect("Traceback" not in done.stderr, f"--smoke printed a traceback: {done.stderr[-1500:]}")
        result["wall_ms"] = round(wall)
        return result

    def check_smoke_offscreen(self) -> str:
        result = self._smoke("offscreen")
        metric(metric="startup", what="--smoke (offscreen)", startup_ms=result["startup_ms"], wall_ms=result["wall_ms"])
        return f"{json.dumps({k: result[k] for k in ('smoke', 'startup_ms', 'window', 'tabs')}, ensure_ascii=False)}"

    def check_smoke_xcb(self) -> str:
        xvfb = shutil.which("xvfb-run")
        if xvfb is None:
            raise Skip("xvfb-run is not installed")
        result = self._smoke("xcb", prefix=[xvfb, "-a", "-s", "-screen 0 1440x900x24"])
        metric(metric="startup", what="--smoke (xcb on Xvfb)", startup_ms=result["startup_ms"], wall_ms=result["wall_ms"])
        return f"the xcb platform plugin and its system libraries load (startup {result['startup_ms']} ms)"

    def check_keyring(self) -> str:
        """Headless: with no usable keyring the app says so in one line; with the fail backend too."""
        home = self.home("keyring")
        env = self.frozen.env(HOME=str(home), XDG_DATA_HOME=str(home / "xdg-data"),
                              XDG_CONFIG_HOME=str(home / "xdg-config"), DBUS_SESSION_BUS_ADDRESS="disabled:")
        env.pop("DISPLAY", None)
        forced = dict(env, PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
        done = self.frozen.run("--home", str(home), "line-token", env=forced, stdin="t0ken\n", check=False)
        expect(done.returncode == 1 and "no usable keyring" in done.stderr,
               f"with the fail backend: exit {done.returncode}, {done.stderr.strip()!r}")
        found = self.frozen.run("--home", str(home), "line-token", env=env, stdin="t0ken\n", check=False)
        expect(found.returncode in (0, 1) and (found.returncode == 0 or found.stderr.startswith("shiftcast: ")),
               f"backend discovery: exit {found.returncode}, {found.stderr.strip()!r}")
        outcome = "saved" if found.returncode == 0 else found.stderr.strip()
        return f"fail backend: one-line message; discovered backends: {outcome[:120]}"

    def check_upgrade_keeps_data(self) -> str:
        """A database at the FIRST migration, with rows, is upgraded by the frozen app at start-up."""
        from core.store import migrate
        from core.store.db import Database

        home = self.home("upgrade")
        db_file = home / "shiftcast.db"
        db = Database(f"sqlite:///{db_file.as_posix()}")
        migrate.upgrade(db, revision="0001_roster")
        head = migrate.head_revision()
        db.dispose()
        rows = _fill_first_schema(db_file)
        done = self.frozen.run("--home", str(home), "shifts", "--classroom", CLASSROOM, "--month", "2026-12", "--json")
        listed = json.loads(done.stdout)
        got = sorted((r["date"], r["teacher"], r["start"], r["end"], r["status"], r["version"], r["note"]) for r in listed)
        expect(got == rows, f"rows after the upgrade differ: {len(got)} listed, {len(rows)} written")
        teachers = json.loads(self.frozen.run("--home", str(home), "teachers", "--json").stdout)
        expect(len(teachers) == 12, f"{len(teachers)} teachers after the upgrade, 12 before")
        backups = sorted((home / "backups").glob("shiftcast-*-before-0001_roster.db"))
        expect(len(backups) == 1, f"backups: {[b.name for b in (home / 'backups').glob('*')]}")
        with sqlite3.connect(backups[0]) as copy:
            expect(copy.execute("SELECT count(*) FROM shifts").fetchone()[0] == len(rows), "the backup lacks rows")
            expect(copy.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0001_roster",
                   "the backup is not the database as it was before the upgrade")
        with sqlite3.connect(db_file) as now:
            current = now.execute("SELECT version_num FROM alembic_version").fetchone()[0]
        expect(current == head, f"the database is at {current}, head is {head}")
        return f"{len(rows)} shifts and 12 teachers kept from 0001_roster to {head}; backup {backups[0].name}"

    def check_sender_end_to_end(self) -> str:
        """One reminder, planned and sent by the frozen app's headless sender to the frozen app's emulator."""
        home = self.home("sender")
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        emulator = subprocess.Popen([str(self.frozen.exe), "--home", str(self.home("emulator")), "emulator",
                                     "--port", str(port), "--token", TOKEN], env=self.frozen.env(),
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            _wait_for(lambda: _http_json(f"{base}/_emulator/stats") is not None, 60, "the emulator did not start")
            _http_json(f"{base}/_emulator/users", {"userId": TEACHER_ID, "displayName": "佐藤 花子"})

            zone = ZoneInfo("Asia/Tokyo")
            start = (dt.datetime.now(zone) + dt.timedelta(minutes=100)).replace(second=0, microsecond=0)
            end = start + dt.timedelta(hours=2)
            end_hh = end.hour + (24 if end.date() > start.date() else 0)
            month = f"{start:%Y-%m}"
            teachers_csv = home / "teachers.csv"
            teachers_csv.write_text("name,line_user_id,line_opt_in,active\n"
                                    f"佐藤 花子,{TEACHER_ID},yes,yes\n", encoding="utf-8")
            shifts_csv = home / "shifts.csv"
            shifts_csv.write_text("classroom,teacher,date,start,end,status,note\n"
                                  f"{CLASSROOM},佐藤 花子,{start:%Y-%m-%d},{start:%H:%M},{end_hh:02d}:{end:%M},draft,\n",
                                  encoding="utf-8")
            run = self.frozen.run
            run("--home", str(home), "add-classroom", CLASSROOM, "--timezone", "Asia/Tokyo", "--lead", "120",
                "--quiet", "off")
            run("--home", str(home), "import", "teachers", str(teachers_csv))
            run("--home", str(home), "import", "shifts", str(shifts_csv))
            run("--home", str(home), "confirm", "--classroom", CLASSROOM, "--month", month)

            env = self.frozen.env(SHIFTCAST_LINE_TOKEN=TOKEN, SHIFTCAST_LINE_API_BASE=base,
                                  PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
            began = time.perf_counter()
            done = run("--home", str(home), "sender", "--until-idle", env=env, timeout=180)
            took = round((time.perf_counter() - began) * 1000)
            stats = json.loads(done.stdout.strip().splitlines()[-1])
            inbox = _http_json(f"{base}/_emulator/inbox")
            expect(isinstance(inbox, list), f"inbox answer {inbox!r}")
            mine = [m for m in inbox if m["recipient"] == TEACHER_ID]
            expect(len(inbox) == 1 and len(mine) == 1,
                   f"the emulator holds {len(inbox)} message(s), {len(mine)} for the teacher; sender stats {stats}")
            text = json.dumps(mine[0]["message"], ensure_ascii=False)
            expect(CLASSROOM in text and f"{start:%H:%M}" in text, f"the reminder does not name the shift: {text}")
            expect(stats.get("sent") == 1, f"sender stats {stats}")
            rows = json.loads(run("--home", str(home), "deliveries", "--json").stdout)
            sent = [r for r in rows if r["status"] == "sent"]
            expect(len(sent) == 1 and sent[0]["kind"] == "shift_reminder", f"deliveries: {rows}")

            png = home / "month.png"
            run("--home", str(home), "render", "--classroom", CLASSROOM, "--month", month, "--out", str(png))
            from PIL import Image

            with Image.open(png) as image:
                image.load()
                size = image.size
            expect(size[0] > 300 and size[1] > 100, f"the month image is {size}")
            pdf = home / "month.pdf"
            run("--home", str(home), "render", "--classroom", CLASSROOM, "--month", month, "--out", str(pdf))
            expect(pdf.read_bytes().startswith(b"%PDF"), "the PDF is not a PDF")
            metric(metric="sender_end_to_end", sender_ms=took, stats=stats)
            return (f"1 reminder for the shift at {start:%Y-%m-%d %H:%M} JST sent and in the emulator's inbox "
                    f"by the frozen sender (sender {took} ms); month image {size[0]}x{size[1]} and PDF rendered")
        finally:
            emulator.send_signal(signal.SIGTERM)
            try:
                emulator.wait(timeout=20)
            except subprocess.TimeoutExpired:
                emulator.kill()
                emulator.wait()

    # -- packages ------------------------------------------------------------------------------------------------
    def check_deb(self) -> str:
        info = subprocess.run(["dpkg-deb", "--field", str(self.deb)], capture_output=True, text=True, check=True).stdout
        fields = dict(re.findall(r"^([A-Za-z-]+): (.*)$", info, flags=re.M))
        expect(fields.get("Package") == "shiftcast" and fields.get("Version") == self.version, f"control: {fields}")
        depends = fields.get("Depends", "")
        for needed in ("libegl1", "libxkbcommon0", "libfontconfig1", "libdbus-1-3", "fonts-noto-cjk", "libxcb-cursor0"):
            expect(re.search(rf"(^|[ ,|]){re.escape(needed)}([ ,(]|$)", depends), f"Depends lacks {needed}: {depends}")
        listing = subprocess.run(["dpkg-deb", "--contents", str(self.deb)], capture_output=True, text=True,
                                 check=True).stdout
        for path in ("./opt/shiftcast/shiftcast", "./usr/share/applications/shiftcast.desktop",
                     "./usr/share/icons/hicolor/256x256/apps/shiftcast.png", "./usr/bin/shiftcast -> /opt/shiftcast/shiftcast"):
            expect(path in listing, f"the .deb lacks {path}")
        root = self.home("deb-root")
        subprocess.run(["dpkg-deb", "--extract", str(self.deb), str(root)], check=True)
        entry = root / "usr/share/applications/shiftcast.desktop"
        if shutil.which("desktop-file-validate"):
            done = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
            expect(done.returncode == 0 and not done.stdout.strip(), f"desktop-file-validate: {done.stdout}{done.stderr}")
            validated = "desktop entry valid"
        else:
            validated = "desktop-file-validate not installed"
        # Run it the way /usr/bin/shiftcast does: through a symbolic link to the executable in /opt.
        link = self.home("deb-bin") / "shiftcast"
        link.unlink(missing_ok=True)
        link.symlink_to(root / "opt/shiftcast/shiftcast")
        done = subprocess.run([str(link), "--home", str(self.home("deb-home")), "--version"], capture_output=True,
                              text=True, timeout=60, env=self.frozen.env())
        expect(done.returncode == 0 and done.stdout.strip() == f"Shiftcast {self.version}",
               f"the packaged app through a symlink: {done.stdout}{done.stderr}")
        return f"{self.deb.name}: control, contents and symlinked start OK; {validated}; Depends: {len(depends.split(','))} packages"

    def check_tarball(self) -> str:
        target = self.home("tarball")
        with tarfile.open(self.tarball) as tar:
            names = tar.getnames()
            top = {n.split("/")[0] for n in names}
            expect(top == {f"shiftcast-{self.version}"}, f"the tarball's top folder is {top}")
            tar.extractall(target, filter="tar")
        exe = target / f"shiftcast-{self.version}" / "shiftcast"
        done = Frozen(exe).run("--home", str(self.home("tarball-home")), "--version")
        expect(done.stdout.strip() == f"Shiftcast {self.version}", f"--version from the tarball: {done.stdout!r}")
        return f"{self.tarball.name}: {len(names)} entries under shiftcast-{self.version}/, runs after unpacking"


class Skip(Exception):
    pass


# ---------------------------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------------------------
def _is_elf(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _http_json(url: str, body: object | None = None) -> object | None:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read() or b"null")
    except (OSError, ValueError):
        return None


def _wait_for(condition: Callable[[], bool], seconds: float, message: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise Failed(message)


def _fill_first_schema(db_file: Path) -> list[tuple[object, ...]]:
    """Rows as the first schema (0001_roster) stored them; returns the shifts as `shifts --json` shows them."""
    con = sqlite3.connect(db_file)
    try:
        with con:
            con.execute(
                "INSERT INTO classrooms (id, name, timezone, line_group_id, reminder_lead_minutes, quiet_hours_enabled,"
                " quiet_start, quiet_end, language, liff_id, created_at) VALUES (1, ?, 'Asia/Tokyo', NULL, 120, 1,"
                " '22:00:00', '07:00:00', 'ja', NULL, '2026-11-01 00:00:00')", (CLASSROOM,))
            for i in range(1, 13):
                con.execute(
                    "INSERT INTO teachers (id, name, line_user_id, email, line_opt_in, email_opt_in, active, erased_at,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, 1, 0, 1, NULL, '2026-11-01 00:00:00',"
                    " '2026-11-01 00:00:00')", (i, f"先生{i:02d}", f"U{i:032x}", f"t{i}@example.com"))
            expected = []
            for i in range(1, 61):
                teacher = (i % 12) + 1
                day = f"2026-12-{(i % 28) + 1:02d}"
                start, end, next_day = ("16:00", "21:00", 0) if i % 2 else ("22:00", "02:00", 1)
                status = ("draft", "confirmed", "canceled")[i % 3]
                version = 1 if status == "draft" else 2
                con.execute(
                    "INSERT INTO shifts (id, classroom_id, teacher_id, local_date, start_time, end_time, ends_next_day,"
                    " note, status, version, created_at, updated_at) VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?,"
                    " '2026-11-01 00:00:00', '2026-11-01 00:00:00')",
                    (i, teacher, day, f"{start}:00.000000", f"{end}:00.000000", next_day, f"メモ{i}", status, version))
                end_shown = f"{int(end[:2]) + 24}:{end[3:]}" if next_day else end
                expected.append((day, f"先生{teacher:02d}", start, end_shown, status, version, f"メモ{i}"))
            con.execute("INSERT INTO settings (key, value) VALUES ('ui.language', 'ja')")
    finally:
        con.close()
    return sorted(expected)


CHECKS: dict[str, str] = {
    "layout": "check_layout",
    "libraries": "check_libraries",
    "sizes": "check_sizes",
    "version": "check_version",
    "smoke": "check_smoke_offscreen",
    "smoke-xcb": "check_smoke_xcb",
    "keyring": "check_keyring",
    "upgrade": "check_upgrade_keeps_data",
    "sender": "check_sender_end_to_end",
    "deb": "check_deb",
    "tarball": "check_tarball",
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--only", action="append", choices=sorted(CHECKS), help="run only these checks")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folders (their path is printed)")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="shiftcast-release-check-"))
    release = Release(args.dist.resolve(), work)
    failed = []
    try:
        for name, method in CHECKS.items():
            if args.only and name not in args.only:
                continue
            began = time.perf_counter()
            try:
                detail = getattr(release, method)()
            except Skip as exc:
                print(f"SKIP {name}: {exc}", flush=True)
                continue
            except Failed as exc:
                failed.append(name)
                print(f"FAIL {name}: {exc}", flush=True)
                continue
            except Exception as exc:  # noqa: BLE001 - report and go on with the other checks
                failed.append(name)
                print(f"FAIL {name}: {exc.__class__.__name__}: {exc}", flush=True)
                traceback.print_exc()
                continue
            print(f"PASS {name}: {detail} ({time.perf_counter() - began:.1f} s)", flush=True)
    finally:
        if args.keep:
            print(f"temporary folders kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    if failed:
        print(f"release checks failed: {', '.join(failed)}")
        return 1
    print("all release checks passed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
