#!/usr/bin/env bash
# Build Shiftcast.app and a .dmg on macOS; sign and notarise when the credentials are given.
#
#   bash packaging/macos/build_dmg.sh            # from the repository root, after `make dist` or the spec
#
# Environment:
#   SHIFTCAST_CODESIGN_IDENTITY  "Developer ID Application: NAME (TEAMID)"; unset = unsigned (local testing)
#   SHIFTCAST_NOTARY_PROFILE     a keychain profile made once with
#                                `xcrun notarytool store-credentials PROFILE --apple-id … --team-id … --password …`
#                                (an app-specific password); unset = not notarised
# Needs: Xcode command line tools (codesign, hdiutil, xcrun notarytool, xcrun stapler).
set -euo pipefail
cd "$(dirname "$0")/../.."

PY="${PY:-.venv/bin/python}"
VERSION="$("$PY" -c 'import ast,sys; t=ast.parse(open("core/version.py").read()); print([ast.literal_eval(n.value) for n in t.body if isinstance(n, ast.Assign) and n.targets[0].id == "__version__"][0])')"
APP="dist/Shiftcast.app"
ARCH="$(uname -m)"
DMG="dist/shiftcast-${VERSION}-macos-${ARCH}.dmg"
ENTITLEMENTS="packaging/macos/entitlements.plist"
IDENTITY="${SHIFTCAST_CODESIGN_IDENTITY:-}"

[ -d "$APP" ] || { echo "missing $APP: run the PyInstaller spec first (make dist)" >&2; exit 1; }
plutil -lint "$APP/Contents/Info.plist"

if [ -n "$IDENTITY" ]; then
    echo "== signing $APP (hardened runtime) as $IDENTITY"
    # Inside out: every Mach-O file first (libraries, Python extensions, Qt plugins), then the app itself.
    while IFS= read -r -d '' f; do
        if file -b "$f" | grep -q "Mach-O"; then
            codesign --force --timestamp --options runtime --entitlements "$ENTITLEMENTS" --sign "$IDENTITY" "$f"
        fi
    done < <(find "$APP/Contents" -type f -print0)
    codesign --force --timestamp --options runtime --entitlements "$ENTITLEMENTS" --sign "$IDENTITY" "$APP"
    codesign --verify --deep --strict --verbose=2 "$APP"
else
    echo "== SHIFTCAST_CODESIGN_IDENTITY is not set: the app stays unsigned (Gatekeeper will warn)"
fi

echo "== making $DMG"
STAGE="$(mktemp -d)"
trap 'rm -rf "$STAGE"' EXIT
cp -R "$APP" "$STAGE/"
ln -s /Applications "$STAGE/Applications"
rm -f "$DMG"
hdiutil create -volname "Shiftcast $VERSION" -srcfolder "$STAGE" -fs HFS+ -format UDZO -imagekey zlib-level=9 -ov "$DMG"

if [ -n "$IDENTITY" ]; then
    codesign --force --timestamp --sign "$IDENTITY" "$DMG"
fi

if [ -n "$IDENTITY" ] && [ -n "${SHIFTCAST_NOTARY_PROFILE:-}" ]; then
    echo "== notarising $DMG (this waits for Apple's answer, usually a few minutes)"
    xcrun notarytool submit "$DMG" --keychain-profile "$SHIFTCAST_NOTARY_PROFILE" --wait
    xcrun stapler staple "$DMG"
    xcrun stapler validate "$DMG"
    spctl --assess --type open --context context:primary-signature --verbose=2 "$DMG"
else
    echo "== not notarised (needs SHIFTCAST_CODESIGN_IDENTITY and SHIFTCAST_NOTARY_PROFILE)"
fi
echo "built $DMG"
