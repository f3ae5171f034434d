"""`python -m tests.perf.liff_screenshots [--out FOLDER]`: the teachers' page's views at 390×844, in
Japanese and English, as docs/screenshots/liff-<view>-<lang>.png.

The world of tests/liffscene.py (the real relay on loopback, the emulator as LINE, one relay sync), the
browser of tests/browserfixtures.py; each view is taken once what it shows has arrived (a name or a time
from the documents, the same in both languages), never after a fixed wait.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.by import By
from sqlalchemy import select

from core.store.models import Classroom
from tests import liffscene
from tests.browserfixtures import sign_in, sign_out, start_phone, wait_for, wait_for_text
from tests.perf.emulator_process import ROOT

LANGUAGES = ("ja", "en")
# view → who looks at it, and a text of theirs it shows once its data came
VIEWS = {
    "month": (liffscene.HANAKO, "18:00"),
    "classroom": (liffscene.HANAKO, liffscene.NAMES[liffscene.JIRO]),
    "availability": (liffscene.HANAKO, "○"),
    "covers": (liffscene.HANAKO, liffscene.NAMES[liffscene.ICHIRO]),
    "calendar": (liffscene.HANAKO, "iPhone"),
    "manager": (liffscene.MANAGER, liffscene.NAMES[liffscene.JIRO]),
}


def tap(phone: WebDriver, css: str, times: int = 1) -> None:
    element = wait_for(phone, css)
    phone.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
    for _ in range(times):
        element.click()


def answer_a_few_days(phone: WebDriver, request: int) -> None:
    """Three open weekdays answered as a teacher would: ○, ×, and from 16:00 to 20:00."""
    form = f'section[data-request="{request}"]'
    open_days = [str(e.get_attribute("data-date")) for e in phone.find_elements(
        By.CSS_SELECTOR, f'{form} button[data-date]:not([disabled])')]
    for n, day in enumerate(open_days[3:6]):
        tap(phone, f'{form} button[data-date="{day}"]', n + 1)
    wait_for(phone, "dialog #hours-from")
    phone.execute_script("document.getElementById('hours-from').value = '16:00';"
                         "document.getElementById('hours-to').value = '20:00';")
    tap(phone, "#hours-ok")
    phone.execute_script("window.scrollTo(0, 0);")


def take(out: Path, root: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    made = []
    with liffscene.standalone(root / "world") as world:
        for language in LANGUAGES:
            # The page speaks the classroom's language (the person document's), as the teachers read it.
            with world.db.write() as session:
                for room in session.scalars(select(Classroom)):
                    room.language = language
            liffscene.relay_sync(world.db, world.paths)
            phone = start_phone(root / f"profile-{language}", language=language)
            try:
                for view, (person, shown) in VIEWS.items():
                    signed = sign_in(phone, world.token(person), language=language)
                    params: dict[str, str | int] = {}
                    if view == "classroom":
                        params = {"classroom": world.scene.room, "month": world.scene.month}
                    elif view == "availability":
                        params = {"request": world.scene.request}
                    phone.get(world.page(view, **params))
                    wait_for_text(phone, shown)
                    if view == "classroom":  # today near the top, as a teacher looks for it
                        phone.execute_script("arguments[0].scrollIntoView();",
                                             wait_for(phone, f'#classroom-days [data-date="{world.scene.today}"]'))
                    elif view == "availability":
                        answer_a_few_days(phone, world.scene.request)
                    target = out / f"liff-{view}-{language}.png"
                    phone.save_screenshot(str(target))
                    made.append(target)
                    sign_out(phone, signed)
            finally:
                phone.quit()
    return made


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.perf.liff_screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="shiftcast-liff-shots-") as tmp:
        for path in take(args.out, Path(tmp)):
            print(path, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
