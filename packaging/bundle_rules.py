"""What goes into the PyInstaller bundle and what stays out (used by packaging/shiftcast.spec, tested by
tests/test_packaging.py). Plain functions over PyInstaller's TOC entries: (destination, source, typecode).

Shiftcast is a Qt Widgets app with a tray icon. It needs QtCore/QtGui/QtWidgets/QtNetwork (QLocalServer for
the single-instance handshake), QtPrintSupport (printing the month) and, from Qt's plugins, a windowing
platform, the IME input contexts and CUPS printing on Linux, and the JPEG/ICO image readers (PNG is built
into QtGui). Everything QML, Quick, WebEngine, 3D, Multimedia,
PDF, SVG, Designer and Help, the EGLFS/KMS/VNC/Wayland platforms and Qt's translations other than
qtbase_ja/qtbase_en are left out.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterable
from pathlib import PurePosixPath

Entry = tuple[str, str, str]

# Python modules never used at run time, even when a dependency imports them optionally.
EXCLUDED_MODULES = [
    "tkinter", "_tkinter", "pytest", "_pytest", "hypothesis", "moto", "boto3", "botocore", "flask",
    "IPython", "sympy", "mpmath", "networkx", "pydoc_data", "readline", "pdb",
    # build-time or CLI-only parts of dependencies: setuptools/distutils (cffi's build helpers), the httpx CLI
    # (rich, pygments; not click, which `import uvicorn` loads), Mako's pygments plug-in, pkg_resources and
    # its vendored pyparsing
    "setuptools", "pkg_resources", "distutils", "_distutils_hack", "rich", "pygments", "jinja2",
    "pyparsing", "httpx._main", "mako.ext",
    # Pillow codecs Shiftcast never reads or writes (it writes PNG, JPEG and PDF only)
    "PIL._avif", "PIL.AvifImagePlugin", "PIL._webp", "PIL.WebPImagePlugin", "PIL._imagingtk", "PIL.ImageTk",
    "PIL._imagingcms", "PIL.ImageCms", "PIL.ImageQt",
    # Qt modules the app does not use (their hooks would pull libraries, plugins and QML files)
    *(f"PySide6.{m}" for m in (
        "QtQml", "QtQuick", "QtQuickWidgets", "QtQuickControls2", "QtQuick3D", "QtWebEngineCore",
        "QtWebEngineWidgets", "QtWebEngineQuick", "QtWebChannel", "QtWebSockets", "QtDesigner", "QtHelp", "QtUiTools",
        "Qt3DCore", "Qt3DRender", "Qt3DInput", "Qt3DLogic", "Qt3DExtras", "Qt3DAnimation", "QtMultimedia",
        "QtMultimediaWidgets", "QtPdf", "QtPdfWidgets", "QtSql", "QtTest", "QtOpenGL", "QtOpenGLWidgets", "QtSvg",
        "QtSvgWidgets", "QtXml", "QtConcurrent", "QtCharts", "QtGraphs", "QtGraphsWidgets",
        "QtDataVisualization", "QtBluetooth", "QtPositioning", "QtLocation", "QtSensors", "QtSerialPort",
        "QtSerialBus", "QtStateMachine", "QtScxml", "QtRemoteObjects", "QtTextToSpeech", "QtHttpServer",
        "QtNetworkAuth", "QtSpatialAudio", "QtNfc", "QtAxContainer",
    )),
]


# The parts of Cloudflare's SDK that deploying the relay uses (core/setup/relay_cloud.py). The SDK holds
# 125 API areas, 37 MB of source; its client names every area, so the bundle would carry all of them. A
# name here keeps `cloudflare.resources.<name>` and `cloudflare.types.<name>` (and types beginning with it);
# tests/test_relay_deploy.py checks that a deploy and a remove load nothing else.
CLOUDFLARE_KEPT = ("accounts", "d1", "user", "workers", "analytics_query", "shared", "organizations")


def cloudflare_area(module: str) -> str | None:
    """The SDK's API area a module belongs to (`cloudflare.types.d1.database` → "d1"), or None."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[0] == "cloudflare" and parts[1] in ("resources", "types"):
        return parts[2]
    return None


def cloudflare_kept(area: str) -> bool:
    return any(area == kept or area.startswith(f"{kept}_") for kept in CLOUDFLARE_KEPT)


def cloudflare_excludes(areas: dict[str, Iterable[str]]) -> list[str]:
    """The SDK's areas to leave out, from {"resources": names, "types": names} as the installed SDK has them."""
    return [f"cloudflare.{kind}.{name}" for kind, names in areas.items() for name in names
            if not cloudflare_kept(name)]


def keep_plugins(system: str) -> dict[str, set[str]]:
    """Qt plugin folder -> plugin names kept (file name without lib/q prefix and suffix)."""
    platforms = {"linux": {"offscreen", "xcb"}, "windows": {"windows", "offscreen"}, "macos": {"cocoa", "offscreen"}}
    return {
        # offscreen for --smoke and CI; xcb serves X11 and, through XWayland, the Wayland desktops
        "platforms": platforms[system],
        "xcbglintegrations": {"xcb-egl-integration", "xcb-glx-integration"} if system == "linux" else set(),
        # native file dialogs through the desktop portal; the gtk3 theme would drag all of GTK in
        "platformthemes": {"xdgdesktopportal"} if system == "linux" else set(),
        # compose keys and IBus (Japanese input methods such as Mozc run behind IBus)
        "platforminputcontexts": {"composeplatforminputcontextplugin", "ibusplatforminputcontextplugin"}
        if system == "linux" else set(),
        "imageformats": {"jpeg", "ico"} | ({"icns"} if system == "macos" else set()),
        # the Publish area prints the month: CUPS's printers on Linux (Windows and macOS print without a plugin)
        "printsupport": {"cupsprintersupport"} if system == "linux" else set(),
        "styles": {"modernwindowsstyle", "windowsvistastyle"} if system == "windows"
        else {"macstyle"} if system == "macos" else set(),
    }


KEEP_QT_TRANSLATIONS = {"qtbase_ja.qm", "qtbase_en.qm"}

# Qt libraries only the left-out modules and plugins use (Linux libQt6X.so, Windows Qt6X.dll, macOS QtX.framework).
DROP_QT_LIBS = re.compile(
    r"(^|/)(lib)?Qt6?(Quick|Qml|Labs|Lottie|Wayland|WlShell|EglFs|EglFS|Designer|Help|UiTools|Pdf|Svg|OpenGL|"
    r"Sql|Test|Xml|Concurrent|VirtualKeyboard|ShaderTools|3D|Multimedia|WebEngine|WebChannel|"
    r"WebSockets|Charts|Graphs|DataVisualization|Positioning|Location|Sensors|SerialPort|StateMachine|Scxml|"
    r"RemoteObjects|TextToSpeech|HttpServer|NetworkAuth|SpatialAudio)[A-Za-z0-9]*(\.|$|/)"
)
# Other files that only left-out parts use: the software OpenGL fallback on Windows (a widgets app draws
# with the raster engine), GTK/Pango/Cairo pulled in by the gtk3 platform theme, Wayland client libraries.
DROP_OTHER = re.compile(r"(^|/)(opengl32sw\.dll|libwayland-[^/]*|libgtk-[^/]*|libgdk-[^/]*|libatk[^/]*|"
                        r"libpango[^/]*|libcairo[^/]*|libgdk_pixbuf[^/]*)$")

# Linux: libraries every desktop has, taken from the system rather than from the build machine, so they
# match the system's configuration (fontconfig, D-Bus, X11, GLib) and get its security updates (OpenSSL).
# packaging/linux/control.in lists their packages under Depends; packaging/release_check.py checks that
# everything the bundle links resolves once those packages are installed. Pillow's private copies (hashed
# names in pillow.libs/) stay in the bundle.
_SYSTEM_LIB_NAMES = [
    # C++ runtime, X11/xcb and keyboard
    r"stdc\+\+", "gcc_s", "X11", "X11-xcb", "Xau", "Xdmcp", "Xext", "Xrender", "bsd", "md",
    r"xcb(-(cursor|icccm|image|keysyms|randr|render|render-util|shape|shm|sync|util|xfixes|xkb|glx|dri2|dri3|present))?",
    "xkbcommon", "xkbcommon-x11", "EGL", "GL", "GLX", "GLdispatch", "OpenGL",
    # fonts: fontconfig and what it links
    "fontconfig", "freetype", "expat", "png16", "harfbuzz", "graphite2", "brotlicommon", "brotlidec", "bz2",
    # GLib and D-Bus and what they link
    r"glib-2\.0", r"gobject-2\.0", r"gio-2\.0", r"gmodule-2\.0", r"gthread-2\.0", "pcre2-8", "ffi", "dbus-1",
    "systemd", "gcrypt", "gpg-error", "lz4", "lzma", "zstd", "z", "mount", "blkid", "selinux", "uuid", "udev", "cap",
    # Kerberos (linked by QtNetwork) and OpenSSL (linked by Python's ssl and hashlib)
    "krb5", "krb5support", "gssapi_krb5", "k5crypto", "com_err", "keyutils", "ssl", "crypto",
    "pixman-1", "jpeg",
    # CUPS, which Qt's printer plugin links, and what it links: the printers and their settings are the
    # system's, so its libcups must be too (bundled, they added 3.5 MB and a second gnutls)
    "cups", "avahi-client", "avahi-common", "gnutls", "nettle", "hogweed", r"p11-kit", "tasn1", "unistring", "idn2",
    "gmp",
]
SYSTEM_LIBS = re.compile(r"^lib(" + "|".join(_SYSTEM_LIB_NAMES) + r")\.so(\.[0-9]+)*$")


def _parts(dest: str) -> list[str]:
    return dest.replace("\\", "/").split("/")


def keep_plugin(dest: str, system: str) -> bool:
    parts = _parts(dest)
    kind = parts[parts.index("plugins") + 1]
    kept = keep_plugins(system).get(kind, set())
    base = parts[-1].removeprefix("lib").split(".")[0]
    return base in kept or base.removeprefix("q") in kept


def wanted(entry: Entry, system: str) -> bool:
    """Whether a binary or data entry of the analysis belongs in the bundle (before the Linux pruning)."""
    dest = "/".join(_parts(entry[0]))
    parts = dest.split("/")
    if "PySide6" in parts:
        if "plugins" in parts:
            return keep_plugin(dest, system)
        if "translations" in parts:
            return parts[-1] in KEEP_QT_TRANSLATIONS
        if "qml" in parts or "qtwebengine_locales" in parts:
            return False
    if DROP_QT_LIBS.search(dest) or DROP_OTHER.search(dest):
        return False
    if parts[-1].endswith((".pdb", ".debug")) or ".dSYM/" in dest:
        return False
    return not (system == "linux" and len(parts) == 1 and SYSTEM_LIBS.match(parts[-1]))


def elf_needed(path: str) -> list[str]:
    """The DT_NEEDED entries of an ELF file (readelf comes with binutils, which PyInstaller needs anyway)."""
    done = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=False)
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", done.stdout)


def _is_dependency(entry: Entry) -> bool:
    """A plain shared library PyInstaller collected because something links it (not a module or plugin)."""
    dest = "/".join(_parts(entry[0]))
    if entry[2] == "EXTENSION" or PurePosixPath(dest).name.startswith("libpython"):
        return False
    return "/" not in dest or dest.startswith(("PySide6/Qt/lib/", "pillow.libs/"))


def prune_unreachable(binaries: list[Entry], needed=elf_needed) -> list[Entry]:  # type: ignore[no-untyped-def]
    """Linux: keep only the dependency libraries that a kept module, plugin or library still links, walking
    DT_NEEDED from everything that is not a plain dependency; system libraries end the walk and stay out."""
    by_name: dict[str, list[Entry]] = {}
    for entry in binaries:
        by_name.setdefault(PurePosixPath(_parts(entry[0])[-1]).name, []).append(entry)
    todo = [e for e in binaries if not _is_dependency(e)]
    seen: set[str] = set()
    while todo:
        entry = todo.pop()
        if entry[0] in seen:
            continue
        seen.add(entry[0])
        for soname in needed(entry[1]):
            if not SYSTEM_LIBS.match(soname):
                todo.extend(by_name.get(soname, []))
    return [e for e in binaries
            if e[0] in seen and not (_is_dependency(e) and SYSTEM_LIBS.match(_parts(e[0])[-1]))]


def trim(binaries: Iterable[Entry], datas: Iterable[Entry], system: str,
         needed=elf_needed) -> tuple[list[Entry], list[Entry], list[str]]:  # type: ignore[no-untyped-def]
    """The analysis' binaries and datas without the left-out parts; also the destinations dropped."""
    binaries, datas = list(binaries), list(datas)
    kept = [e for e in binaries if wanted(e, system)]
    if system == "linux":
        kept = prune_unreachable(kept, needed)
    kept_dests = {e[0] for e in kept}
    data_dests = {e[0] for e in datas}

    def keep_data(entry: Entry) -> bool:
        if entry[2] == "SYMLINK":  # e.g. libQt6Core.so.6 -> PySide6/Qt/lib/libQt6Core.so.6
            target = os.path.normpath(os.path.join(os.path.dirname(entry[0]), entry[1]))
            return target in kept_dests or target in data_dests
        return wanted(entry, system)

    kept_datas = [e for e in datas if keep_data(e)]
    kept_data_dests = {e[0] for e in kept_datas}
    dropped = sorted({e[0] for e in binaries if e[0] not in kept_dests}
                     | {e[0] for e in datas if e[0] not in kept_data_dests})
    return kept, kept_datas, dropped
