#!/usr/bin/env bash
# Refresh the Japanese translation source after UI strings changed.
#
# Runs Qt's lupdate over ui/**/*.py and merges the result into resources/i18n/shiftcast_ja.ts (and the
# plurals into shiftcast_en.ts):
# existing translations are kept, new strings appear as unfinished entries, and strings that
# no longer exist in the code are dropped (-no-obsolete). No source locations are stored, so
# the file only changes when the strings do.
#
# Usage:   resources/i18n/update.sh            (from anywhere inside the checkout)
# Tool:    $LUPDATE if set, else pyside6-lupdate on PATH (it comes with PySide6; activate the
#          project's virtual environment first, e.g. `. .venv/bin/activate`).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

lupdate="${LUPDATE:-}"
if [ -z "$lupdate" ]; then
    if command -v pyside6-lupdate >/dev/null 2>&1; then
        lupdate="pyside6-lupdate"
    elif [ -x .venv/bin/pyside6-lupdate ]; then
        lupdate=".venv/bin/pyside6-lupdate"
    else
        echo "update.sh: pyside6-lupdate not found; activate the virtual environment or set LUPDATE" >&2
        exit 1
    fi
fi

"$lupdate" ui/*.py ui/*/*.py \
    -source-language en \
    -target-language ja_JP \
    -no-obsolete \
    -locations none \
    -ts resources/i18n/shiftcast_ja.ts

# English needs a translation only for its plurals: "%n messages" in the code is "1 message" once
# shiftcast_en.ts gives the singular (-pluralonly keeps every other string out of it).
"$lupdate" ui/*.py ui/*/*.py \
    -source-language en \
    -target-language en \
    -pluralonly \
    -no-obsolete \
    -locations none \
    -ts resources/i18n/shiftcast_en.ts

unfinished="$(cat resources/i18n/shiftcast_ja.ts resources/i18n/shiftcast_en.ts | grep -c 'type="unfinished"' || true)"
if [ "$unfinished" -gt 0 ]; then
    echo "$unfinished message(s) still need a Japanese translation; see resources/i18n/README.md."
else
    echo "All messages are translated."
fi
