"""The README's command lines work as written: the system packages' lines on a fresh machine, as a user
with sudo or in a root shell without it, and every `.venv/bin/shiftcast …` line names a verb and
options that exist."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cli import commands

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SHELL_BLOCKS = re.findall(r"```sh\n(.*?)```", README, flags=re.DOTALL)


def _apt_lines() -> str:
    [block] = [b for b in SHELL_BLOCKS if "apt-get install" in b]
    return block


def _packages() -> list[str]:
    listed = _apt_lines().split("apt-get install -y", 1)[1]
    return [w for w in listed.replace("\\\n", " ").split() if w != "\\"]


def _fake_bin(tmp_path: Path, *, root: bool) -> tuple[Path, Path]:
    """A PATH with only a recording apt-get, `env`, an `id` that says whether this is root, and for
    anyone else a sudo that records and runs (a root shell in a container often has no sudo at all)."""
    bin_dir, log = tmp_path / "bin", tmp_path / "calls.log"
    bin_dir.mkdir()
    (bin_dir / "apt-get").write_text(f'#!/bin/sh\necho "apt-get DEBIAN_FRONTEND=$DEBIAN_FRONTEND $*" >> {log}\n')
    (bin_dir / "id").write_text(f'#!/bin/sh\necho {0 if root else 1000}\n')
    if not root:
        (bin_dir / "sudo").write_text(f'#!/bin/sh\necho "sudo $1" >> {log}\nexec "$@"\n')
    for script in bin_dir.iterdir():
        script.chmod(0o755)
    env = shutil.which("env")
    assert env is not None
    (bin_dir / "env").symlink_to(env)
    return bin_dir, log


@pytest.mark.parametrize("root", [True, False])
def test_the_system_package_lines_run_as_root_without_sudo_or_with_it_and_ask_nothing(tmp_path: Path,
                                                                                    root: bool) -> None:
    bin_dir, log = _fake_bin(tmp_path, root=root)
    done = subprocess.run(["/bin/sh", "-e", "-c", _apt_lines()], env={"PATH": str(bin_dir)}, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    calls = log.read_text().splitlines()
    apt = [c for c in calls if c.startswith("apt-get")]
    assert apt == ["apt-get DEBIAN_FRONTEND= update",
                   "apt-get DEBIAN_FRONTEND=noninteractive install -y " + " ".join(_packages())]
    assert [c for c in calls if c.startswith("sudo")] == ([] if root else ["sudo apt-get", "sudo env"])
    assert {"python3", "python3-venv", "make", "fonts-noto-cjk"} <= set(_packages())


def _shiftcast_lines() -> list[str]:
    found = []
    for block in SHELL_BLOCKS:
        for line in block.splitlines():
            if ".venv/bin/shiftcast" in line:
                found.append(re.split(r"\s(?:#|<|&|\|)", line.split(".venv/bin/shiftcast", 1)[1] + " ", maxsplit=1)[0])
    return found


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        commands.parse_args([*argv, "--help", "--lang", "en"])
    return capsys.readouterr().out


def test_every_shiftcast_line_names_a_verb_and_options_it_has(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _shiftcast_lines()
    assert len(lines) > 25 and not any("main.py" in b for b in SHELL_BLOCKS if "shiftcast" in b)
    for line in lines:
        words = line.replace("[", " ").replace("]", " ").split()
        verbs = [w for w in words[:1] if not w.startswith("-")]
        options = {w.split("=", 1)[0] for w in words if w.startswith("-")}
        said = _help(verbs, capsys)
        if len(words) > 1 and re.search(rf"[{{,]{re.escape(words[1])}[,}}]", said):
            said = _help([*verbs, words[1]], capsys)  # a sub-command's options are in its own help
        assert all(re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", said) for o in options), (line, said)
        if verbs:
            assert said.startswith(f"usage: shiftcast {verbs[0]}") or f" {verbs[0]} " in said.splitlines()[0], line


def test_the_readme_says_how_to_run_shiftcast() -> None:
    assert "`.venv/bin/shiftcast …`" in README and ". .venv/bin/activate" in README
    assert not re.search(r"(?m)^sudo ", README)  # a root shell without sudo must run every line too
    assert os.access(ROOT / "Makefile", os.R_OK)


def test_the_csv_examples_import(db, now) -> None:
    from core.roster import csv_files, rules
    from tests import factories as f

    teachers, shifts = re.findall(r"```csv\n(.*?)```", README, flags=re.DOTALL)
    with db.write() as s:
        f.classroom(s, "本校")
        assert csv_files.import_teachers(s, teachers.encode("utf-8")).created == 1
        assert csv_files.import_shifts(s, shifts.encode("cp932"), now=now).created == 2
        assert rules.teacher_by_name(s, "佐藤 花子").reading == "さとう はなこ"
