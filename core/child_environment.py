"""What a program Shiftcast starts may see of Shiftcast's environment: an allow-list, never the whole.

Shiftcast's own environment may hold its secrets (SHIFTCAST_LINE_TOKEN, SHIFTCAST_LINE_CHANNEL_SECRET,
SHIFTCAST_SMTP_PASSWORD, SHIFTCAST_LINE_ACK_KEY, SHIFTCAST_DB_URL with the server's password), and a
child inherits the environment by default, where anything it runs, logs or crash-reports can read
it. So a child that is not Shiftcast itself gets only what any program needs to run (the search
path, the home and temporary folders, the locale and time zone, and on Windows the system's folders),
the variables that one program reads (`passes`, `prefixes`) and what it is handed on purpose
(`given`: pg_dump's PGPASSWORD). A name is compared in capitals: Windows spells them either way, and
the proxies' lower-case spellings are what most POSIX programs read.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

EVERY_PROGRAM = frozenset({
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TMP", "TEMP",
    # Windows: a program cannot even load its libraries without SYSTEMROOT
    "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT", "USERPROFILE", "USERNAME", "HOMEDRIVE",
    "HOMEPATH", "APPDATA", "LOCALAPPDATA", "PROGRAMDATA", "PROGRAMFILES", "PROGRAMFILES(X86)",
    "COMMONPROGRAMFILES", "NUMBER_OF_PROCESSORS", "PROCESSOR_ARCHITECTURE",
})
LOCALE_PREFIX = "LC_"
# A program that reaches the internet (cloudflared): the proxy and the certificate authorities this
# computer is set up with.
NETWORK = ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "NO_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR")
# fontconfig's fc-match: where its configuration and cache are.
FONTCONFIG = ("FONTCONFIG_FILE", "FONTCONFIG_PATH", "FONTCONFIG_SYSROOT", "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS",
              "XDG_DATA_HOME", "XDG_DATA_DIRS", "XDG_CACHE_HOME")
# libpq's own settings (PGSSLMODE, PGSSLROOTCERT, PGPASSFILE …), which Shiftcast's own connection
# through psycopg reads too, so pg_dump reaches the server the way Shiftcast does.
LIBPQ_PREFIX = "PG"


# Shiftcast's own variables: its secrets and the overrides of where its data lives (SHIFTCAST_DB_URL,
# SHIFTCAST_HOME); systemd's folder of credentials too.
OWN_PREFIX = "SHIFTCAST_"
CREDENTIALS_DIRECTORY = "CREDENTIALS_DIRECTORY"


def without_own_variables(source: Mapping[str, str] | None = None) -> dict[str, str]:
    """For Shiftcast started again as the demo: the whole environment (a window needs its display,
    session bus and Qt's variables, more than an allow-list could name) but Shiftcast's own, so the
    demo neither holds the real secrets nor opens the real database that SHIFTCAST_DB_URL names."""
    found = os.environ if source is None else source
    return {name: value for name, value in found.items()
            if not name.upper().startswith(OWN_PREFIX) and name.upper() != CREDENTIALS_DIRECTORY}


def child_environment(*, passes: Iterable[str] = (), prefixes: Iterable[str] = (), given: Mapping[str, str] | None = None,
                      source: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a child: of `source` (this process's environment), what every program
    needs, the names in `passes` and those starting with one of `prefixes`; then `given` on top."""
    allowed = EVERY_PROGRAM | {name.upper() for name in passes}
    starts = (LOCALE_PREFIX, *(prefix.upper() for prefix in prefixes))
    found = os.environ if source is None else source
    child = {name: value for name, value in found.items() if name.upper() in allowed or name.upper().startswith(starts)}
    child.update(given or {})
    return child
