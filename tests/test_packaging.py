"""Fast checks of the packaging files (the release build itself is checked by packaging/ci_check.sh).

The spec parses and reads the version from core/version.py; the bundle rules keep and drop the right Qt
parts; the Inno Setup script has what a per-user install needs; the plists parse; the desktop entries
validate; the .deb control template is complete; the icons can be made; the helper scripts parse.
"""

from __future__ import annotations

import ast
import configparser
import json
import plistlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core.app import autostart
from core.version import __version__

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
sys.path.insert(0, str(PACKAGING))

import bundle_rules  # noqa: E402  (packaging/bundle_rules.py)
import make_icons  # noqa: E402  (packaging/make_icons.py)


# ---------------------------------------------------------------------------------------------------------------
# The PyInstaller spec
# ---------------------------------------------------------------------------------------------------------------
def _spec() -> str:
    return (PACKAGING / "shiftcast.spec").read_text(encoding="utf-8")


def test_spec_parses_as_python() -> None:
    ast.parse(_spec(), filename="shiftcast.spec")


def test_spec_reads_the_version_from_core_version() -> None:
    tree = ast.parse(_spec())
    func = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "read_version")
    namespace: dict[str, object] = {"ast": ast, "ROOT": ROOT, "Path": Path}
    exec(compile(ast.Module(body=[func], type_ignores=[]), "shiftcast.spec", "exec"), namespace)
    assert namespace["read_version"]() == __version__  # type: ignore[operator]
    assert not re.search(r"""version\s*=\s*["']\d""", _spec()), "a version number is written in the spec"


def test_spec_is_a_one_folder_build_with_everything_loaded_at_run_time() -> None:
    spec = _spec()
    assert "exclude_binaries=True" in spec and "COLLECT(" in spec
    assert "onefile" not in spec.lower()
    for needed in ('copy_metadata("keyring")', 'collect_submodules("keyring.backends")', '"holidays.countries"',
                   '"tzdata"', '"minio"', "migration_datas()", "resource_datas()", "compiled_translations()",
                   'contents_directory="_internal"', "strip=IS_LINUX", "BUNDLE(", "bundle_rules.trim("):
        assert needed in spec, needed


def test_every_migration_file_alembic_loads_is_collected() -> None:
    # migration_datas() lists env.py, script.py.mako and versions/*.py; all must exist in the source tree.
    base = ROOT / "core" / "store" / "migrations"
    assert (base / "env.py").is_file() and (base / "script.py.mako").is_file()
    assert sorted(p.name for p in (base / "versions").glob("*.py"))[0].startswith("0001_")


def test_the_app_finds_resources_where_the_spec_puts_them(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from core import resources

    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert resources.resource("templates", "ja", "shift_reminder.txt") == (
        tmp_path / "resources" / "templates" / "ja" / "shift_reminder.txt")
    assert "str(path.parent.relative_to(ROOT))" in _spec()  # resources/… keep their relative folders


# ---------------------------------------------------------------------------------------------------------------
# What goes into the bundle
# ---------------------------------------------------------------------------------------------------------------
def _b(dest: str, typecode: str = "BINARY") -> tuple[str, str, str]:
    return (dest, "/src/" + dest, typecode)


@pytest.mark.parametrize(("dest", "system", "kept"), [
    ("PySide6/Qt/plugins/platforms/libqxcb.so", "linux", True),
    ("PySide6/Qt/plugins/platforms/libqoffscreen.so", "linux", True),
    ("PySide6/Qt/plugins/platforms/libqwayland.so", "linux", False),
    ("PySide6/Qt/plugins/platforms/libqeglfs.so", "linux", False),
    ("PySide6/Qt/plugins/platforms/libqvnc.so", "linux", False),
    ("PySide6/Qt/plugins/egldeviceintegrations/libqeglfs-kms-integration.so", "linux", False),
    ("PySide6/Qt/plugins/xcbglintegrations/libqxcb-glx-integration.so", "linux", True),
    ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", "linux", False),
    ("PySide6/Qt/plugins/platforminputcontexts/libibusplatforminputcontextplugin.so", "linux", True),
    ("PySide6/Qt/plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so", "linux", False),
    ("PySide6/Qt/plugins/imageformats/libqjpeg.so", "linux", True),
    ("PySide6/Qt/plugins/imageformats/libqico.so", "linux", True),
    ("PySide6/Qt/plugins/imageformats/libqsvg.so", "linux", False),
    ("PySide6/Qt/plugins/imageformats/libqwebp.so", "linux", False),
    ("PySide6/Qt/plugins/iconengines/libqsvgicon.so", "linux", False),
    ("PySide6/Qt/plugins/tls/libqopensslbackend.so", "linux", False),
    ("PySide6/Qt/plugins/wayland-shell-integration/libxdg-shell.so", "linux", False),
    ("PySide6/plugins/platforms/qwindows.dll", "windows", True),
    ("PySide6/plugins/platforms/qdirect2d.dll", "windows", False),
    ("PySide6/plugins/imageformats/qjpeg.dll", "windows", True),
    ("PySide6/plugins/imageformats/qjpegd.dll", "windows", False),
    ("PySide6/plugins/styles/qmodernwindowsstyle.dll", "windows", True),
    ("PySide6/Qt/plugins/platforms/libqcocoa.dylib", "macos", True),
    ("PySide6/Qt/plugins/platforms/libqxcb.so", "macos", False),
    ("PySide6/Qt/plugins/imageformats/libqicns.dylib", "macos", True),
    ("PySide6/Qt/plugins/printsupport/libcupsprintersupport.so", "linux", True),  # the Publish area prints
])
def test_qt_plugins_kept_per_system(dest: str, system: str, kept: bool) -> None:
    assert bundle_rules.wanted(_b(dest), system) is kept


@pytest.mark.parametrize(("dest", "kept"), [
    ("PySide6/Qt/translations/qtbase_ja.qm", True),
    ("PySide6/Qt/translations/qtbase_en.qm", True),
    ("PySide6/Qt/translations/qtbase_de.qm", False),
    ("PySide6/Qt/translations/qt_help_ja.qm", False),
    ("PySide6/Qt/translations/qtdeclarative_ja.qm", False),
    ("PySide6/Qt/lib/libQt6Widgets.so.6", True),
    ("PySide6/Qt/lib/libQt6Network.so.6", True),
    ("PySide6/Qt/lib/libQt6XcbQpa.so.6", True),
    ("PySide6/Qt/lib/libQt6Quick.so.6", False),
    ("PySide6/Qt/lib/libQt6QmlModels.so.6", False),
    ("PySide6/Qt/lib/libQt6WaylandClient.so.6", False),
    ("PySide6/Qt/lib/libQt6EglFSDeviceIntegration.so.6", False),
    ("PySide6/Qt/lib/libQt6Pdf.so.6", False),
    ("PySide6/Qt/lib/libQt6PrintSupport.so.6", True),
    ("PySide6/Qt6PrintSupport.dll", True),
    ("PySide6/Qt6Quick.dll", False),
    ("PySide6/opengl32sw.dll", False),
    ("PySide6/Qt/lib/QtQuick.framework/Versions/A/QtQuick", False),
    ("PySide6/Qt/lib/QtWidgets.framework/Versions/A/QtWidgets", True),
    ("PySide6/Qt/qml/QtQuick/Controls/qmldir", False),
    ("PySide6/QtWidgets.abi3.so", True),
    ("resources/templates/ja/shift_reminder.txt", True),
])
def test_qt_libraries_and_translations(dest: str, kept: bool) -> None:
    assert bundle_rules.wanted(_b(dest), "linux") is kept


@pytest.mark.parametrize(("name", "system_lib"), [
    ("libfontconfig.so.1", True), ("libdbus-1.so.3", True), ("libxkbcommon.so.0", True), ("libX11.so.6", True),
    ("libxcb-icccm.so.4", True), ("libglib-2.0.so.0", True), ("libstdc++.so.6", True), ("libssl.so.3", True),
    ("libbz2.so.1.0", True), ("libEGL.so.1", True), ("libcups.so.2", True), ("libgnutls.so.30", True),
    ("libpython3.11.so.1.0", False), ("libsqlite3.so.0", False), ("libicudata.so.73", False),
    ("libQt6Core.so.6", False), ("libxcb-9065bb12.so.1.1.0", False), ("libjpeg-6dc8d115.so.62.4.0", False),
])
def test_system_libraries_are_left_to_the_system(name: str, system_lib: bool) -> None:
    assert bool(bundle_rules.SYSTEM_LIBS.match(name)) is system_lib
    assert bundle_rules.wanted(_b(name), "linux") is not system_lib
    assert bundle_rules.wanted(_b(name), "windows") is True


def test_pruning_keeps_what_is_linked_and_drops_orphans() -> None:
    needs = {
        "/src/PySide6/QtWidgets.abi3.so": ["libQt6Widgets.so.6", "libstdc++.so.6"],
        "/src/PySide6/Qt/lib/libQt6Widgets.so.6": ["libQt6Gui.so.6", "libGL.so.1"],
        "/src/PySide6/Qt/lib/libQt6Gui.so.6": ["libfontconfig.so.1"],
        "/src/PySide6/Qt/plugins/platforms/libqxcb.so": ["libQt6XcbQpa.so.6"],
        "/src/PIL/_imaging.so": ["libjpeg-6dc8d115.so.62.4.0"],
        "/src/libpango-1.0.so.0": ["libthai.so.0"],
    }
    binaries = [
        _b("PySide6/QtWidgets.abi3.so", "EXTENSION"), _b("PySide6/Qt/lib/libQt6Widgets.so.6"),
        _b("PySide6/Qt/lib/libQt6Gui.so.6"), _b("PySide6/Qt/lib/libQt6XcbQpa.so.6"),
        _b("PySide6/Qt/lib/libQt6OpenGL.so.6"), _b("PySide6/Qt/plugins/platforms/libqxcb.so"),
        _b("PIL/_imaging.so", "EXTENSION"), _b("pillow.libs/libjpeg-6dc8d115.so.62.4.0"),
        _b("libthai.so.0"), _b("libfontconfig.so.1"), _b("libpython3.11.so.1.0"),
        _b("Crypto/Cipher/_raw_aes.abi3.so"),  # loaded with dlopen by name: a root, never pruned
    ]
    datas = [("libQt6Widgets.so.6", "PySide6/Qt/lib/libQt6Widgets.so.6", "SYMLINK"),
             ("libQt6OpenGL.so.6", "PySide6/Qt/lib/libQt6OpenGL.so.6", "SYMLINK"),
             ("resources/icons/shiftcast.png", "/src/resources/icons/shiftcast.png", "DATA")]
    kept, kept_datas, dropped = bundle_rules.trim(binaries, datas, "linux", needed=lambda p: needs.get(p, []))
    assert sorted(e[0] for e in kept) == sorted([
        "PySide6/QtWidgets.abi3.so", "PySide6/Qt/lib/libQt6Widgets.so.6", "PySide6/Qt/lib/libQt6Gui.so.6",
        "PySide6/Qt/lib/libQt6XcbQpa.so.6", "PySide6/Qt/plugins/platforms/libqxcb.so", "PIL/_imaging.so",
        "pillow.libs/libjpeg-6dc8d115.so.62.4.0", "libpython3.11.so.1.0", "Crypto/Cipher/_raw_aes.abi3.so",
    ])
    assert [e[0] for e in kept_datas] == ["libQt6Widgets.so.6", "resources/icons/shiftcast.png"]
    assert {"PySide6/Qt/lib/libQt6OpenGL.so.6", "libthai.so.0", "libfontconfig.so.1", "libQt6OpenGL.so.6"} <= set(dropped)


def test_test_tools_and_unused_qt_modules_are_excluded() -> None:
    excluded = set(bundle_rules.EXCLUDED_MODULES)
    assert {"pytest", "hypothesis", "moto", "tkinter", "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtWebEngineCore",
            "PySide6.QtDesigner", "PySide6.QtHelp", "PySide6.QtUiTools", "PySide6.Qt3DCore",
            "PySide6.QtMultimedia", "PySide6.QtPdf"} <= excluded
    used = {"PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets", "PySide6.QtNetwork", "keyring", "holidays",
            "tzdata", "minio", "alembic", "sqlalchemy", "PIL", "httpx", "apscheduler", "starlette", "uvicorn",
            "click"}  # `import uvicorn` imports click
    assert not used & excluded


def test_no_module_the_app_imports_is_excluded() -> None:
    imported: set[str] = set()
    for path in [*(ROOT / "core").rglob("*.py"), *(ROOT / "ui").rglob("*.py"), ROOT / "main.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                imported.add(node.module)
                imported.update(f"{node.module}.{alias.name}" for alias in node.names)
    excluded = set(bundle_rules.EXCLUDED_MODULES)
    clash = {m for m in imported if m in excluded or any(m.startswith(x + ".") for x in excluded)}
    assert not clash, f"the app imports modules the spec leaves out: {sorted(clash)}"


# ---------------------------------------------------------------------------------------------------------------
# Windows: Inno Setup
# ---------------------------------------------------------------------------------------------------------------
APP_ID = "{{7FD093E8-ADD3-4AAE-80E5-82499A70F763}"  # never change: Windows knows Shiftcast by it


def _iss() -> str:
    raw = (PACKAGING / "windows" / "shiftcast.iss").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf"), "Inno Setup reads non-ASCII text correctly only with a UTF-8 BOM"
    return raw.decode("utf-8-sig")


def _iss_sections() -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current = None
    for line in _iss().splitlines():
        stripped = line.strip()
        if re.fullmatch(r"\[[A-Za-z]+\]", stripped):
            current = stripped[1:-1]
            sections.setdefault(current, [])
        elif current and stripped and not stripped.startswith(";"):
            sections[current].append(stripped)
    return sections


def test_iss_has_the_sections_of_a_per_user_installer() -> None:
    sections = _iss_sections()
    for name in ("Setup", "Languages", "CustomMessages", "Tasks", "InstallDelete", "Files", "Icons", "Registry", "Run",
                 "UninstallDelete", "Code"):
        assert name in sections, name


def test_iss_setup_keys() -> None:
    setup = dict(line.split("=", 1) for line in _iss_sections()["Setup"] if "=" in line)
    assert setup["AppId"] == APP_ID
    assert re.fullmatch(r"\{\{[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}\}", setup["AppId"])
    assert setup["PrivilegesRequired"] == "lowest"
    assert "PrivilegesRequiredOverridesAllowed" not in setup  # per user only: never asks for admin rights
    assert setup["DefaultDirName"] == r"{autopf}\{#AppName}"  # %LOCALAPPDATA%\Programs\Shiftcast when per user
    assert setup["AppVersion"] == "{#AppVersion}"  # read from the built exe, not typed in the script
    assert "{#AppVersion}" in setup["OutputBaseFilename"]
    assert setup["SetupIconFile"].endswith(r"resources\icons\shiftcast.ico")
    assert (ROOT / "resources" / "icons" / "shiftcast.ico").is_file()
    assert setup["UninstallDisplayIcon"] == r"{app}\{#AppExeName}"


def test_iss_start_at_login_task_writes_the_run_value_in_tray_mode() -> None:
    sections = _iss_sections()
    assert any(line.startswith('Name: "startatlogin"') for line in sections["Tasks"])
    run = [line for line in sections["Registry"] if "CurrentVersion\\Run" in line]
    assert len(run) == 1
    entry = run[0]
    assert "Root: HKCU;" in entry and 'ValueName: "Shiftcast"' in entry and "Tasks: startatlogin" in entry
    assert 'ValueData: """{app}\\Shiftcast.exe"" tray"' in entry
    assert "uninsdeletevalue" in entry
    # Inno's doubled quotes give exactly what core/app/autostart.py writes.
    value = re.search(r'ValueData: "((?:[^"]|"")*)"', entry)
    assert value is not None
    data = value.group(1).replace('""', '"')
    assert data == autostart.windows_run_value([r"{app}\Shiftcast.exe", "tray"])


def test_iss_keeps_user_data_unless_the_box_is_ticked() -> None:
    iss = _iss()
    code = "\n".join(_iss_sections()["Code"])
    assert "{localappdata}\\Shiftcast" in code  # where core/store/paths.py keeps data on Windows
    assert "Box.Checked := False" in code
    assert "DeleteUserData := Box.Checked" in code
    assert re.search(r"usPostUninstall\)\s+and\s+DeleteUserData\s+then\s+DelTree\(UserDataDir", code)
    assert "UninstallSilent" in code  # a silent uninstall never deletes data
    assert code.count("DelTree(") == 1
    # Nothing of the user's data is ever under {app}: only the bundle is replaced on upgrade.
    assert [line for line in _iss_sections()["InstallDelete"]] == ['Type: filesandordirs; Name: "{app}\\_internal"']
    assert "{app}\\data" not in iss.lower() and "shiftcast.db" not in iss


def test_iss_installs_the_folder_the_spec_builds() -> None:
    sections = _iss_sections()
    assert any(r'"{#BuildDir}\*"' in line and "recursesubdirs" in line for line in sections["Files"])
    assert any(line.startswith('Name: "{autoprograms}\\{#AppName}"') for line in sections["Icons"])
    assert '#define AppExeName "Shiftcast.exe"' in _iss()
    assert 'EXE_NAME = "shiftcast" if IS_LINUX else APP_NAME' in _spec() and 'APP_NAME = "Shiftcast"' in _spec()


def test_iss_custom_messages_exist_in_both_languages() -> None:
    lines = _iss_sections()["CustomMessages"]
    english = {line.split("=", 1)[0].split(".", 1)[1] for line in lines if line.startswith("english.")}
    japanese = {line.split("=", 1)[0].split(".", 1)[1] for line in lines if line.startswith("japanese.")}
    assert english == japanese
    used = set(re.findall(r"\{cm:(\w+)\}", _iss())) | set(re.findall(r"CustomMessage\('(\w+)'\)", _iss()))
    assert used <= english


# ---------------------------------------------------------------------------------------------------------------
# macOS: plists and the dmg recipe
# ---------------------------------------------------------------------------------------------------------------
def test_info_plist_parses_and_is_a_regular_high_dpi_app() -> None:
    info = plistlib.loads((PACKAGING / "macos" / "Info.plist").read_bytes())
    assert info["LSUIElement"] is False
    assert info["NSHighResolutionCapable"] is True
    assert info["CFBundleName"] == "Shiftcast"
    assert "CFBundleShortVersionString" not in info  # the spec adds it from core/version.py
    assert 'info_plist.update({"CFBundleShortVersionString": VERSION' in _spec()


def test_entitlements_parse_and_relax_only_what_python_needs() -> None:
    ent = plistlib.loads((PACKAGING / "macos" / "entitlements.plist").read_bytes())
    assert ent == {"com.apple.security.cs.allow-unsigned-executable-memory": True}


def test_dmg_recipe_signs_notarises_and_staples() -> None:
    script = (PACKAGING / "macos" / "build_dmg.sh").read_text(encoding="utf-8")
    for step in ("codesign --force --timestamp --options runtime --entitlements", "hdiutil create",
                 "xcrun notarytool submit", "xcrun stapler staple", "codesign --verify --deep --strict"):
        assert step in script, step


def test_icns_and_iconset_can_be_made(tmp_path: Path) -> None:
    from PIL import Image

    icns = make_icons.make_icns(make_icons.MASTER, tmp_path / "shiftcast.icns")
    with Image.open(icns) as im:
        assert im.format == "ICNS"
        assert im.size == (1024, 1024)
    iconset = make_icons.make_iconset(tmp_path / "Shiftcast.iconset")
    names = sorted(p.name for p in iconset.iterdir())
    assert names == sorted(make_icons.ICONSET)
    with Image.open(iconset / "icon_32x32@2x.png") as im:
        assert im.size == (64, 64)


def test_windows_icon_has_the_usual_sizes() -> None:
    from PIL import Image

    with Image.open(ROOT / "resources" / "icons" / "shiftcast.ico") as im:
        assert {(16, 16), (32, 32), (48, 48), (256, 256)} <= set(im.info["sizes"])


# ---------------------------------------------------------------------------------------------------------------
# Linux: desktop entry, control file, scripts
# ---------------------------------------------------------------------------------------------------------------
def _desktop(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment, method-assign]
    parser.read_string(path.read_text(encoding="utf-8"))
    return parser["Desktop Entry"]


def test_menu_desktop_entry() -> None:
    entry = _desktop(PACKAGING / "linux" / "shiftcast.desktop")
    assert entry["Type"] == "Application"
    assert entry["Exec"] == "/opt/shiftcast/shiftcast"
    assert entry["Icon"] == "shiftcast"
    assert entry["Terminal"] == "false"
    assert "Office;" in entry["Categories"]


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-utils is not installed")
def test_desktop_entries_pass_desktop_file_validate(tmp_path: Path) -> None:
    autostart_entry = tmp_path / "shiftcast-autostart.desktop"
    autostart_entry.write_text(autostart.xdg_desktop_entry(["/opt/shiftcast/shiftcast", "tray"]), encoding="utf-8")
    for path in (PACKAGING / "linux" / "shiftcast.desktop", autostart_entry):
        done = subprocess.run(["desktop-file-validate", str(path)], capture_output=True, text=True)
        assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


def _control() -> dict[str, str]:
    text = (PACKAGING / "linux" / "control.in").read_text(encoding="utf-8")
    fields: dict[str, str] = {}
    last = None
    for line in text.splitlines():
        if line.startswith(" ") and last:
            fields[last] += "\n" + line
        else:
            last, _, value = line.partition(": ")
            fields[last] = value
    return fields


def test_control_template_fields_and_placeholders() -> None:
    fields = _control()
    for key in ("Package", "Version", "Architecture", "Maintainer", "Installed-Size", "Depends", "Description"):
        assert key in fields, key
    assert fields["Package"] == "shiftcast"
    placeholders = set(re.findall(r"@([A-Z_]+)@", (PACKAGING / "linux" / "control.in").read_text(encoding="utf-8")))
    script = (PACKAGING / "linux" / "build_deb.sh").read_text(encoding="utf-8")
    filled = set(re.findall(r's\|@([A-Z_]+)@\|', script))
    assert placeholders == filled == {"VERSION", "ARCH", "INSTALLED_SIZE", "MAINTAINER", "GLIBC"}


def test_control_depends_on_what_qt_and_the_app_load_from_the_system() -> None:
    depends = [alt.strip() for dep in _control()["Depends"].split(",") for alt in dep.split("|")]
    names = {re.sub(r"\s*\(.*\)", "", d) for d in depends}
    assert {"libegl1", "libxkbcommon0", "libxkbcommon-x11-0", "libfontconfig1", "libdbus-1-3", "fonts-noto-cjk",
            "libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libglib2.0-0", "libgl1", "libx11-xcb1"} <= names
    for name in names:
        assert re.fullmatch(r"[a-z0-9][a-z0-9+.-]+", name), name


def test_deb_layout_in_the_build_script() -> None:
    script = (PACKAGING / "linux" / "build_deb.sh").read_text(encoding="utf-8")
    assert 'cp -a "$BUNDLE" "$STAGE/opt/shiftcast"' in script
    assert 'ln -s /opt/shiftcast/shiftcast "$STAGE/usr/bin/shiftcast"' in script
    assert "usr/share/applications/shiftcast.desktop" in script
    assert "usr/share/icons/hicolor/" in script
    assert "dpkg-deb --root-owner-group" in script
    assert "shiftcast-${VERSION}-linux-${ARCH}.tar.gz" in script


@pytest.mark.parametrize("script", ["ci_check.sh", "linux/build_deb.sh", "macos/build_dmg.sh"])
def test_shell_scripts_parse(script: str) -> None:
    done = subprocess.run(["bash", "-n", str(PACKAGING / script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_makefile_has_the_dist_target() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^dist: .*\$\(STAMP_DIST\)", makefile, flags=re.M)
    assert "packaging/shiftcast.spec" in makefile and "packaging/linux/build_deb.sh" in makefile
    assert re.search(r"^\$\(STAMP_DIST\):", makefile, flags=re.M)


def test_release_check_fills_the_first_schema_the_way_the_cli_lists_it(tmp_path: Path, capsys) -> None:
    """The data-safety check's rows, written at 0001 and listed at head by `shifts --json`, as CI compares them."""
    import release_check

    from cli import commands
    from core.store import migrate
    from core.store.db import Database
    from core.store.paths import DataPaths

    paths = DataPaths(tmp_path / "home").ensure()
    db = Database(paths.database_url())
    migrate.upgrade(db, revision="0001_roster")
    db.dispose()
    expected = release_check._fill_first_schema(paths.database)
    capsys.readouterr()
    args = commands.parse_args(["--home", str(paths.home), "shifts", "--classroom", release_check.CLASSROOM,
                           "--month", "2026-12", "--json"])
    assert commands.run(args, paths=paths) == 0
    listed = json.loads(capsys.readouterr().out)
    got = sorted((r["date"], r["teacher"], r["start"], r["end"], r["status"], r["version"], r["note"]) for r in listed)
    assert got == expected and len(got) == 60
    assert list(paths.backups.glob("shiftcast-*-before-0001_roster.db"))
