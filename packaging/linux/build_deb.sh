#!/usr/bin/env bash
# Package the PyInstaller folder dist/shiftcast/ as a tarball and a .deb (run by `make dist` on Linux).
#
#   dist/shiftcast-<version>-linux-<arch>.tar.gz   the folder as it is: unpack anywhere, run ./shiftcast
#   dist/shiftcast_<version>_<deb-arch>.deb        /opt/shiftcast, /usr/bin/shiftcast, menu entry and icons
#
# Needs dpkg-deb (part of dpkg) and GNU tar. PY (default .venv/bin/python) draws the icon sizes with Pillow.
set -euo pipefail
cd "$(dirname "$0")/../.."

PY="${PY:-.venv/bin/python}"
BUNDLE="dist/shiftcast"
[ -x "$BUNDLE/shiftcast" ] || { echo "missing $BUNDLE/shiftcast: build with packaging/shiftcast.spec first" >&2; exit 1; }

VERSION="$("$PY" -c 'exec(open("core/version.py", encoding="utf-8").read()); print(__version__)')"
ARCH="$(uname -m)"
case "$ARCH" in
    x86_64) DEB_ARCH=amd64 ;;
    aarch64) DEB_ARCH=arm64 ;;
    *) DEB_ARCH="$(dpkg --print-architecture)" ;;
esac
MAINTAINER="${SHIFTCAST_DEB_MAINTAINER:-Shiftcast packaging <packaging@shiftcast.invalid>}"
TARBALL="dist/shiftcast-${VERSION}-linux-${ARCH}.tar.gz"
DEB="dist/shiftcast_${VERSION}_${DEB_ARCH}.deb"

# ---- tarball ------------------------------------------------------------------------------------------------
rm -f "$TARBALL"
tar --sort=name --owner=0 --group=0 --numeric-owner -C dist \
    --transform "s,^shiftcast,shiftcast-${VERSION}," -cf - shiftcast | gzip -9 -n > "$TARBALL"

# ---- .deb ---------------------------------------------------------------------------------------------------
STAGE="build/deb/shiftcast_${VERSION}_${DEB_ARCH}"
rm -rf "$STAGE"
mkdir -p "$STAGE/DEBIAN" "$STAGE/opt" "$STAGE/usr/bin" "$STAGE/usr/share/applications" "$STAGE/usr/share/doc/shiftcast"
cp -a "$BUNDLE" "$STAGE/opt/shiftcast"
ln -s /opt/shiftcast/shiftcast "$STAGE/usr/bin/shiftcast"
install -m 0644 packaging/linux/shiftcast.desktop "$STAGE/usr/share/applications/shiftcast.desktop"
for size in 16 24 32 48 64 128 256; do
    "$PY" packaging/make_icons.py png "$size" "$STAGE/usr/share/icons/hicolor/${size}x${size}/apps/shiftcast.png" >/dev/null
done
cat > "$STAGE/usr/share/doc/shiftcast/copyright" <<'TEXT'
Shiftcast — proprietary software. It bundles Python, Qt (LGPLv3, via PySide6) and other open-source
components under their own licences; see /opt/shiftcast/_internal/*.dist-info for their notices.
TEXT

# Oldest glibc the bundle works with: the newest GLIBC_x.y symbol version any of its ELF files asks for.
GLIBC="$(find "$STAGE/opt/shiftcast" -type f \( -name '*.so*' -o -name shiftcast \) -exec objdump -T {} + 2>/dev/null \
         | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)"
INSTALLED_SIZE="$(du -sk --apparent-size "$STAGE/opt" "$STAGE/usr" | awk '{s += $1} END {print s}')"
sed -e "s|@VERSION@|${VERSION}|" -e "s|@ARCH@|${DEB_ARCH}|" -e "s|@INSTALLED_SIZE@|${INSTALLED_SIZE}|" \
    -e "s|@MAINTAINER@|${MAINTAINER}|" -e "s|@GLIBC@|${GLIBC}|" packaging/linux/control.in > "$STAGE/DEBIAN/control"
(cd "$STAGE" && find opt usr -type f -print0 | sort -z | xargs -0 md5sum) > "$STAGE/DEBIAN/md5sums"

# Ownership root:root and sane modes whatever the umask of the build machine was.
find "$STAGE" -type d -exec chmod 0755 {} +
find "$STAGE" -type f -exec chmod go-w,a+r {} +
chmod 0644 "$STAGE/DEBIAN/control" "$STAGE/DEBIAN/md5sums"
rm -f "$DEB"
dpkg-deb --root-owner-group -Zxz --build "$STAGE" "$DEB" >/dev/null

echo "built $TARBALL"
echo "built $DEB"
