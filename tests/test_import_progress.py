"""A long CSV import tells how far it is, on stderr, once it has run for a few seconds; the import stays
all or nothing. The clock is passed in: nothing here waits for time to pass."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from sqlalchemy import func, select

from cli import words
from cli.progress import ImportProgress
from core.roster import csv_files
from core.roster.csv_files import CsvImportError
from core.roster.progress import EVERY_SECONDS, QUIET_SECONDS, progress_due
from core.store.db import Database
from core.store.models import Teacher


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    yield
    words.use("en")


def test_nothing_is_said_in_the_first_seconds_then_now_and_then() -> None:
    assert not progress_due(100.0, None, 100.0)
    assert not progress_due(100.0, None, 100.0 + QUIET_SECONDS - 0.01)
    assert progress_due(100.0, None, 100.0 + QUIET_SECONDS)
    shown = 100.0 + QUIET_SECONDS
    assert not progress_due(100.0, shown, shown + EVERY_SECONDS - 0.01)
    assert progress_due(100.0, shown, shown + EVERY_SECONDS)


class SteppingClock:
    """Half a second more at every reading."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.5
        return self.now


def _file(rows: int, *, bad_line: int | None = None) -> bytes:
    lines = ["name,line_user_id"] + [f"講師{n:04d},U{n:032x}" for n in range(1, rows + 1)]
    if bad_line is not None:
        lines[bad_line - 1] = "講師X,not-an-id"
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize(("lang", "said"), [("en", "shiftcast: reading line {line} of 21…"),
                                            ("ja", "shiftcast: 21行中{line}行目まで読み込みました…")])
def test_a_long_import_tells_its_progress_past_the_first_seconds(db: Database, lang: str, said: str) -> None:
    words.use(lang)  # type: ignore[arg-type]
    stream = io.StringIO()
    progress = ImportProgress(SteppingClock(), stream)
    with db.write() as session:
        result = csv_files.import_teachers(session, _file(20), progress=progress)
    progress.end()
    assert result.created == 20
    # The clock read 0.5 at the start and 0.5 s more at each row: 3 s are past at line 7, then every 2 rows.
    assert stream.getvalue().splitlines() == [said.format(line=line) for line in range(7, 22, 2)]


def test_progress_leaves_the_import_all_or_nothing(db: Database) -> None:
    words.use("en")
    stream = io.StringIO()
    with pytest.raises(CsvImportError) as refused, db.write() as session:
        csv_files.import_teachers(session, _file(20, bad_line=18), progress=ImportProgress(SteppingClock(), stream))
    assert [p.line for p in refused.value.problems] == [18]
    assert "reading line 17 of 21" in stream.getvalue()
    with db.read() as session:
        assert session.scalar(select(func.count()).select_from(Teacher)) == 0
