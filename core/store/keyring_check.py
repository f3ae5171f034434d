"""Why no keyring can be used here, told so a manager can fix it: asked only once the keyring library
found no backend (core/store/secrets.py), never at start-up.

On Linux the keyring is the Secret Service (org.freedesktop.secrets), reached over the D-Bus session
bus: without a session bus (started over ssh, under sudo, from a bare window manager) nothing can be
reached; with one but no Secret Service on it (a desktop that ships none, a minimal install), the
package that provides one is missing: gnome-keyring on most desktops, KWallet on KDE.
"""

from __future__ import annotations

import enum
import logging
import sys
import threading

from core.texts import Text, t

log = logging.getLogger(__name__)

SECRET_SERVICE = "org.freedesktop.secrets"
TIMEOUT_S = 2.0


class Missing(enum.Enum):
    SESSION_BUS = "no_session_bus"
    SECRET_SERVICE = "no_secret_service"
    UNKNOWN = "other"


def why(missing: Missing) -> Text:
    return t(f"keyring.why.{missing.value}")


def diagnose(platform: str = sys.platform) -> Missing:
    """What is missing, asked of the session bus itself (a few seconds at most)."""
    if not platform.startswith("linux"):
        return Missing.UNKNOWN
    # On a thread with a deadline: jeepney's greeting to the bus has no timeout of its own, and a bus
    # that never answers must not hang a check that only wants to word an error.
    found: list[Missing] = []
    asking = threading.Thread(target=lambda: found.append(_ask_the_bus()), name="keyring-check", daemon=True)
    asking.start()
    asking.join(3 * TIMEOUT_S)
    return found[0] if found else Missing.UNKNOWN


def _ask_the_bus() -> Missing:
    try:
        from jeepney import DBusAddress, new_method_call
        from jeepney.bus_messages import message_bus
        from jeepney.io.blocking import open_dbus_connection
    except ImportError:  # keyring installs jeepney on Linux; a build without it cannot tell
        return Missing.UNKNOWN
    try:
        connection = open_dbus_connection(bus="SESSION", auth_timeout=TIMEOUT_S)
    except (OSError, KeyError, ValueError) as exc:  # no address in the environment, or nothing listens there
        log.info("no D-Bus session bus: %s", exc)
        return Missing.SESSION_BUS
    try:
        owned = connection.send_and_get_reply(message_bus.NameHasOwner(SECRET_SERVICE), timeout=TIMEOUT_S).body[0]
        bus = DBusAddress("/org/freedesktop/DBus", bus_name="org.freedesktop.DBus", interface="org.freedesktop.DBus")
        startable = connection.send_and_get_reply(new_method_call(bus, "ListActivatableNames"),
                                                  timeout=TIMEOUT_S).body[0]
    except (OSError, TimeoutError) as exc:
        log.info("the D-Bus session bus did not answer: %s", exc)
        return Missing.UNKNOWN
    finally:
        connection.close()
    if owned or SECRET_SERVICE in startable:
        return Missing.UNKNOWN  # a Secret Service is there: the keyring library's own reason stands
    return Missing.SECRET_SERVICE
