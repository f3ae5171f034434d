"""Which language to speak: the saved choice, else the user's locale. Pure, but for `user_locale`.

POSIX locales are read as the C library reads them (LC_ALL, then LC_MESSAGES, then LANG); on Windows
and macOS a GUI app gets no LANG, so there the user's locale from the system comes after any variable
a terminal set. Anything that is not Japanese is answered in English.
"""

from __future__ import annotations

import locale
import sys
from collections.abc import Mapping

from core.texts.formats import LANGUAGES, Language

ENV_ORDER = ("LC_ALL", "LC_MESSAGES", "LANG")


def of_locale(name: str | None) -> Language | None:
    """The language of a locale name: "ja_JP.UTF-8", "ja-JP", "Japanese_Japan.932" → "ja"; "C" → None."""
    if not name:
        return None
    base = name.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if base in ("", "c", "posix"):
        return None
    if base.startswith("ja") or base.startswith("japanese"):
        return "ja"
    return "en"


def system_language(env: Mapping[str, str], platform: str, user_locale: str | None = None) -> Language:
    """The OS locale's language: the first of LC_ALL, LC_MESSAGES, LANG that names one, then (on
    Windows and macOS) the user's locale, else English."""
    for name in ENV_ORDER:
        found = of_locale(env.get(name))
        if found is not None:
            return found
    if platform.startswith(("win", "darwin")) or user_locale:
        found = of_locale(user_locale)
        if found is not None:
            return found
    return "en"


def choose(setting: str | None, env: Mapping[str, str], platform: str, user_locale: str | None = None) -> Language:
    """The saved choice ("ja", "en"), or for "auto"/nothing the OS locale's language."""
    if setting in LANGUAGES:
        return setting  # type: ignore[return-value,unused-ignore]  # narrowed by the membership test
    return system_language(env, platform, user_locale)


def user_locale(platform: str = sys.platform) -> str | None:
    """The user's locale as the OS keeps it (Windows: the user default locale name; elsewhere what
    the C library was told). The one impure part, kept out of `system_language`."""
    if platform == "win32":  # pragma: no cover - Windows only
        try:
            import ctypes

            buffer = ctypes.create_unicode_buffer(85)
            if ctypes.windll.kernel32.GetUserDefaultLocaleName(buffer, len(buffer)):  # type: ignore[attr-defined]
                return buffer.value
        except (AttributeError, OSError):
            pass
    try:
        return locale.getlocale()[0]
    except ValueError:
        return None
