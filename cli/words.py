"""The language the command line speaks, and its --help in that language.

One run speaks one language: `--lang ja|en`, else the app's saved language (read once the database is
open), else the OS locale (core/texts/language.py, the window's rule too). Messages are Texts, core's
or the CLI's own (cli/texts.py), rendered with `say`. The --help words are gettext-style: the English
text in the parser is the key, `HELP_JA` holds its Japanese, and argparse's own words ("usage: ",
"options", its error messages) are translated the same way while a parser is built and used
(`argparse_in`), so nothing of argparse is forked. tests/test_cli_language.py holds every help text
to having its Japanese.
"""

from __future__ import annotations

import argparse
import os
import sys
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from core.texts import Param, Text, render, t
from core.texts import language as languages
from core.texts.formats import LANGUAGES, Language

_current: list[Language] = ["en"]


def from_argv(argv: Sequence[str]) -> Language | None:
    """`--lang ja` / `--lang=ja` as given, before the parser runs (its --help must already speak it)."""
    for i, word in enumerate(argv):
        if word == "--":
            break
        value = argv[i + 1] if word == "--lang" and i + 1 < len(argv) else word.partition("=")[2] \
            if word.startswith("--lang=") else None
        if value in LANGUAGES:
            return value
    return None


def start(argv: Sequence[str]) -> Language:
    """The run's language before anything is read: --lang, else the OS locale."""
    return use(from_argv(argv) or languages.choose(None, os.environ, sys.platform, languages.user_locale()))


def settle(given: str | None, saved: str | None) -> Language:
    """Once the database is open: `--lang` as parsed, else the app's saved language, else the locale."""
    return use(languages.choose(given or saved, os.environ, sys.platform, languages.user_locale()))


def use(lang: Language) -> Language:
    _current[0] = lang
    return lang


def current() -> Language:
    return _current[0]


def say(text: Text | str) -> str:
    """A core message (or the CLI's own, cli/texts.py) in the run's language."""
    return render(text, current())


def line(code: str, /, **params: Param) -> str:
    """`say(t(code, **params))`: one line the CLI prints."""
    return say(t(code, **params))


def columns(text: str) -> int:
    """Columns on a terminal: kanji and kana take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int, *, right: bool = False) -> str:
    """`text` filled with spaces to `width` terminal columns, so translated words keep the columns lined up."""
    gap = " " * max(0, width - columns(text))
    return gap + text if right else text + gap


def tr(english: str) -> str:
    """A --help text or an argparse word in the run's language (English is the key)."""
    if current() != "ja":
        return english
    return HELP_JA.get(english, english)


def _ngettext(singular: str, plural: str, n: int) -> str:
    return tr(singular if n == 1 else plural)


@contextmanager
def argparse_in(lang: Language) -> Iterator[None]:
    """argparse's own words in `lang` while a parser is built and parses (it looks them up through
    the module's `_` and `ngettext` when it needs them)."""
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    use(lang)
    argparse._, argparse.ngettext = tr, _ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


class HelpFormatter(argparse.HelpFormatter):
    """Every help text and description through `tr`, when the help is written."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        return tr(action.help) if action.help else action.help

    def _format_text(self, text: str) -> str:
        return super()._format_text(tr(text))

    def start_section(self, heading: str | None) -> None:
        # A verb's own groups of arguments (`draft`'s "what to draft") are headings too.
        super().start_section(tr(heading) if heading else heading)


# The Japanese of every --help text and of the argparse words a manager meets. A help text missing
# here is shown in English; tests/test_cli_language.py fails on one.
HELP_JA: dict[str, str] = {
    # argparse's own words
    "usage: ": "使い方: ",
    "options": "オプション",
    "positional arguments": "引数",
    "show this help message and exit": "このヘルプを表示して終了します",
    "show program's version number and exit": "バージョンを表示して終了します",
    "the following arguments are required: %s": "次の引数が必要です: %s",
    "invalid choice: %(value)r (choose from %(choices)s)": "%(value)r は選べません（%(choices)s から選んでください）",
    "unrecognized arguments: %s": "不明な引数です: %s",
    "expected one argument": "値を1つ指定してください",
    "expected at least one argument": "値を1つ以上指定してください",
    "expected at most one argument": "値は1つまでです",
    "expected %s argument": "値を%s個指定してください",
    "expected %s arguments": "値を%s個指定してください",
    "argument %(argument_name)s: %(message)s": "引数 %(argument_name)s: %(message)s",
    "invalid %(type)s value: %(value)r": "%(value)r は %(type)s の値として使えません",
    "ambiguous option: %(option)s could match %(matches)s": "オプション %(option)s があいまいです（候補: %(matches)s）",
    "not allowed with argument %s": "引数 %s とは一緒に使えません",
    "one of the arguments %s is required": "引数 %s のいずれかが必要です",
    "ignored explicit argument %r": "値 %r は使われません",
    "unknown parser %(parser_name)r (choices: %(choices)s)": "%(parser_name)r というコマンドはありません（候補: %(choices)s）",
    "%(prog)s: error: %(message)s\n": "%(prog)s: エラー: %(message)s\n",
    "can't open '%(filename)s': %(error)s": "'%(filename)s' を開けません: %(error)s",
    "%(message)s (see --help)": "%(message)s（--help をご覧ください）",
    # shiftcast
    "Shift rosters published and reminded over LINE.": "シフト表をLINEで公開し、リマインダーを送ります。",
    "data folder (default: the platform's user data folder)": "データフォルダー（省略時はOS標準のユーザーデータフォルダー）",
    "the language of this run's messages and help: ja or en (default: the app's setting, else the system's)":
        "この実行で使う言語: ja または en（省略時はアプリの設定、なければOSの設定）",
    "start the whole window, print one JSON line with the start-up time, and exit":
        "ウィンドウ全体を起動し、起動時間をJSONで1行出力して終了します",
    "open the window (the default)": "ウィンドウを開きます（既定）",
    "start in the system tray only (used when starting at login)": "タスクトレイだけで起動します（ログイン時の起動用）",
    "try Shiftcast with sample data and the built-in LINE simulator": "サンプルデータと内蔵のLINEシミュレーターで試します",
    "save a PNG of every main view and dialog (demo data)": "主な画面とダイアログをすべてPNGで保存します（デモデータ）",
    "import teachers or shifts from CSV (all or nothing)": "講師またはシフトをCSVからインポートします（問題があれば何もインポートしません）",
    "export teachers or shifts as CSV, or a teacher's shifts as iCalendar (ics)":
        "講師またはシフトをCSVに、講師のシフトをiCalendar（ics）にエクスポートします",
    "the teacher whose shifts (ics)": "シフトを書き出す講師（ics）",
    "each teacher's shifts in their phone's calendar: revoke": "講師のシフトをスマートフォンのカレンダーに: revoke",
    "give a teacher's calendar a new address: the old one stops working at the next sync with the relay":
        "講師のカレンダーのアドレスを新しくします（古いアドレスは次の中継サーバーとの同期で使えなくなります）",
    "only this classroom (shifts)": "この教室だけ（シフト）",
    "each teacher's hours of a month for payroll: confirmed shifts only, by classroom and by weekday, Saturday, "
    "Sunday or holiday": "講師ごとの1か月の勤務時間を給与計算用に集計します（確定したシフトだけ、教室別、平日・土曜・日曜祝日別）",
    "only this classroom (default: every classroom)": "この教室だけ（省略すると全教室）",
    "also write the table to this CSV file for Excel": "表をExcel向けのCSVファイルにも保存します",
    "draft a month with the solver: cover the staffing needs from the teachers' answers, within their limits":
        "ソルバーで1か月のシフトを下書きします（講師の回答から必要人数を満たし、各講師の上限を守ります）",
    "what to draft": "下書きする対象",
    "a problem written as a JSON file (docs/drafting.md); needs no database":
        "JSONファイルに書いた問題（docs/drafting.md）。データベースは使いません",
    "output": "出力",
    "print the solution as JSON": "結果をJSONで表示します",
    "draft this classroom's month from the database": "この教室の月をデータベースから下書きします",
    "draft together the classrooms that share teachers with it (a teacher is never in two places at once)":
        "講師を共有する教室もまとめて下書きします（講師が同時に2か所で勤務することはありません）",
    "keep the month's drafts as they are and draft around them": "今月の下書きはそのまま残し、それ以外を下書きします",
    "the draft replaces the month's drafts (the default)": "今月の下書きを新しい下書きで置き換えます（既定）",
    "the month to draft (with --classroom)": "下書きする月（--classroom と一緒に指定）",
    "what a day a teacher did not answer counts as (default: no, not available)":
        "講師が回答していない日の扱い（既定: no、勤務不可）",
    "write the draft into the roster as draft shifts (teachers are told only when the month is confirmed)":
        "下書きをシフト表に下書きシフトとして書き込みます（講師に知らせるのは月を確定したときだけです）",
    "stop searching after this many seconds with the best draft found (default: the file's time_limit, else 10)":
        "この秒数で探索をやめ、それまでに見つかった最良の下書きを出します（省略時はファイルの time_limit、なければ10秒）",
    "the CSV file's encoding: utf-8 (with BOM, the default) or shift_jis":
        "CSVファイルの文字コード: utf-8（BOM付き、既定）または shift_jis",
    "only this month, YYYY-MM (shifts, ics)": "この月だけ、YYYY-MM（シフト、ics）",
    "write to this file (a CSV in UTF-8 with BOM, for Excel)": "このファイルにエクスポートします（CSVはExcel向けのBOM付きUTF-8）",
    "list a classroom's shifts for a month": "教室の1か月分のシフトを一覧表示します",
    "YYYY-MM": "YYYY-MM（例: 2026-12）",
    "list a classroom's closed days of a month (national holidays unless opened), or close or open one day":
        "教室の1か月分の休業日（開校にしていない祝日を含む）を一覧表示します。1日を休業日または開校日にすることもできます",
    "close this day, YYYY-MM-DD": "この日を休業日にします（YYYY-MM-DD）",
    "open this day, YYYY-MM-DD (a holiday too)": "この日を開校日にします（YYYY-MM-DD、祝日も可）",
    "why the day is closed (with --add), e.g. 夏期休業": "休業の理由（--add と一緒に）、例: 夏期休業",
    "make draft shifts for a classroom's month from the teachers' weekly patterns, skipping closed days and days "
    "a teacher already works":
        "講師の毎週の予定から、教室の1か月分の下書きのシフトを作成します（休業日と、講師にすでにシフトがある日は除きます）",
    "copy last month's confirmed shifts instead, the 1st Tuesday to the 1st Tuesday and so on":
        "代わりに先月の確定したシフトをコピーします（第1火曜日は第1火曜日に、のように週と曜日を合わせます）",
    "a teacher's weekly patterns: list them, add one (from and until a date if given) or remove one":
        "講師の毎週の予定を一覧表示します。追加（期間の指定もできます）と削除もできます",
    "the teacher's weekly patterns, numbered": "講師の毎週の予定を番号付きで表示します",
    "add a weekly pattern: a weekday, its hours and the classroom": "毎週の予定（曜日・時間・教室）を追加します",
    "mon to sun, 月 to 日, or 0 (Monday) to 6 (Sunday)": "mon〜sun、月〜日、または0（月曜）〜6（日曜）",
    "the pattern's start, HH:MM": "予定の開始時刻（HH:MM）",
    "the pattern's end, HH:MM": "予定の終了時刻（HH:MM）",
    "the first day it holds, YYYY-MM-DD (without it: from always)": "予定が有効になる最初の日（YYYY-MM-DD、省略するとはじめから）",
    "the last day it holds, YYYY-MM-DD (without it: for good)": "予定が有効な最後の日（YYYY-MM-DD、省略すると期限なし）",
    "remove the weekly pattern with this number in the list": "一覧の番号で指定した毎週の予定を削除します",
    "its number in `patterns list`": "`patterns list` で表示される番号",
    "list a classroom's lesson slots (コマ), or add, change or remove one":
        "教室のコマを一覧表示します。コマの追加・変更・削除もできます",
    "add this slot, or give it new times (with --start and --end), e.g. 1限":
        "このコマを追加します。同じ名前のコマがあれば時刻を変更します（--start と --end と一緒に）。例: 1限",
    "remove this slot": "このコマを削除します",
    "a classroom's staffing needs per lesson slot (必要人数): list them, set one on a weekday or a date, or clear them":
        "教室のコマごとの必要人数を一覧表示します。曜日や日付ごとの設定と消去もできます",
    "the weekly table of needs, and with --month that month's dates and closed days":
        "曜日ごとの必要人数の表を表示します。--month を付けるとその月の日付指定と休業日も表示します",
    "set how many teachers a slot needs on a weekday, or on one date (which wins over its weekday)":
        "コマに必要な講師の人数を曜日ごと、または日付ごと（曜日の指定より優先）に設定します",
    "the lesson slot's name, e.g. 1限": "コマの名前（例: 1限）",
    "how many teachers, 0 or more": "必要な講師の人数（0以上）",
    "clear needs: a slot's, a weekday's, a date's, or all of the classroom's":
        "必要人数を消去します（コマ・曜日・日付ごと、または教室のすべて）",
    "only this lesson slot's": "このコマの分だけ",
    "one date, YYYY-MM-DD": "日付（YYYY-MM-DD）",
    "the slot's start, HH:MM": "コマの開始時刻（HH:MM）",
    "the slot's end, HH:MM": "コマの終了時刻（HH:MM）",
    "list teachers": "講師を一覧表示します",
    "teachers' requests for cover: list them, call for volunteers, assign or decline":
        "講師からの代講の依頼：一覧表示、代講の募集、決定、見送りを行います",
    "the requests waiting for you, with their volunteers": "対応を待っている依頼を、申し出た講師とともに一覧表示します",
    "every request, also those decided": "決定・見送り済みも含めてすべての依頼を表示します",
    "ask teachers who could take the shift to volunteer, on LINE": "シフトに入れる講師にLINEで代講を募集します",
    "the request's number": "依頼の番号",
    "in the classroom's LINE group": "教室のLINEグループで募集します",
    "to these teachers (each must be free then)": "この講師たちに送ります（その時間に空いている講師のみ）",
    "give the shift to a teacher (a volunteer or any teacher free then)":
        "シフトを講師に割り当てます（申し出た講師か、その時間に空いている講師）",
    "say no: the shift stays with the teacher who asked": "見送ります。シフトは依頼した講師の担当のままです",
    "why, told to the teacher with the decline (in the classroom's language)":
        "見送る理由。見送りのお知らせとともに講師に伝えます（教室のメッセージの言語で入力してください）",
    "move a teacher to another place in the list (your own order)": "講師の並び順を変更します（指定した並び順で一覧表示されます）",
    "the teacher's name": "講師の名前",
    "to this place (1 is first)": "この位置へ移動します（1が先頭）",
    "one place up": "1つ上へ移動します",
    "one place down": "1つ下へ移動します",
    "list the teachers by their reading again (forget your own order)": "講師をふりがな順に戻します（指定した並び順は消去されます）",
    "by reading (ふりがな), then by name": "ふりがな順、同じふりがなは名前順にします",
    "the classroom's name": "教室の名前",
    "make a teacher one of a classroom's own teachers": "講師を教室の所属講師にします",
    "a teacher stops being one of a classroom's own (refused while they have confirmed shifts to come there)":
        "講師を教室の所属講師から外します（その教室で今後の確定シフトがある間はできません）",
    "show a teacher's limits and wishes, or set them with the options below":
        "講師の勤務の上限と希望を表示します（下のオプションで設定します）",
    "at most N shifts a month": "月のシフトを最大N回にします",
    "at most these hours a month: 40, 40:30 or 40.5": "月の勤務時間の上限（40、40:30、40.5 のように指定）",
    "at least these hours a month (a promised minimum)": "月の最低勤務時間（約束した最低時間）",
    "at most N days in a row": "連続勤務を最大N日にします",
    "at most N Saturdays and Sundays a month": "月の土日勤務を最大N日にします",
    "their share of the work, 1 to 100 (2: about twice a teacher with 1; none: 1)":
        "仕事の配分（1〜100。2なら1の講師の約2倍。指定なしは1）",
    "the lesson slots they can teach, e.g. 1限,2限 (classroom:slot for another classroom's)":
        "担当できるコマ（例: 1限,2限。ほかの教室のコマは「教室:コマ」）",
    "clear one limit (again for another), or all of them without a name":
        "指定した制限を消去します（複数なら繰り返し指定。名前を省くとすべて消去します）",
    "list classrooms": "教室を一覧表示します",
    "create a classroom": "教室を作成します",
    "the LINE group ID (C + 32 hex digits)": "LINEグループID（C と32桁の16進数）",
    "reminder lead time in minutes": "リマインダーをシフトの何分前に送るか",
    "quiet hours HH:MM-HH:MM, or 'off'": "通知しない時間帯 HH:MM-HH:MM、または off",
    "confirm every draft shift of a classroom's month": "教室の1か月分の下書きのシフトをすべて確定します",
    "send in the foreground, without a window, until Ctrl+C": "ウィンドウなしで、Ctrl+C を押すまで送信を続けます",
    "stop once nothing is due or in flight": "送信予定も送信中のものもなくなったら終了します",
    "list deliveries (newest first)": "配信を一覧表示します（新しい順）",
    "only dead letters": "配信不能のものだけ",
    "send a delivery again now (or every dead letter with --dead)": "配信をいますぐ再送します（--dead で配信不能のものすべて）",
    "cancel a delivery that was not sent": "まだ送信していない配信を取り消します",
    "save the LINE channel access token (read from standard input) in the keyring":
        "LINEのチャネルアクセストークン（標準入力から読み込み）をキーリングに保存します",
    "LINE: the rich menu under the chat that opens the teachers' page (rich-menu set, rich-menu remove)":
        "LINE: 講師ページを開くトーク画面下のリッチメニュー（rich-menu set、rich-menu remove）",
    "set or remove the rich menu that opens the teachers' page": "講師ページを開くリッチメニューを設定または削除します",
    ("show everyone the menu (my shifts, availability, cover calls, my calendar); it replaces the one Shiftcast set "
     "before"): ("全員にメニュー（自分のシフト、シフト希望、代講、カレンダー）を表示します。以前にShiftcastが設定した"
                 "ものと置き換えます"),
    "the language of the menu's words (default: this run's language)": "メニューの文言の言語（既定: この実行の言語）",
    "a font file with Japanese glyphs for the menu's picture": "メニュー画像に使う、日本語の字形を含むフォントファイル",
    "delete the rich menu Shiftcast set": "Shiftcastが設定したリッチメニューを削除します",
    "LINE WORKS: save the app's and the bot's values (credentials), or test them (test)":
        "LINE WORKS: アプリとボットの値を保存（credentials）、またはテスト（test）します",
    ("save the LINE WORKS values; the client secret and the bot secret are read from standard input, one a line "
     "(a blank line keeps the one saved)"): ("LINE WORKS の値を保存します。Client Secret と Bot Secret は標準入力から"
                                            "1行ずつ読み込みます（空行なら保存済みのまま）"),
    ("Saves the values of the app and the bot made in the LINE WORKS Developer Console. The client secret and the "
     "bot secret are read from standard input, one a line in that order (typed unseen at a terminal); a blank line "
     "keeps the one saved before. Secrets and the private key go to the keyring."):
        ("LINE WORKS Developer Console で作成したアプリとボットの値を保存します。Client Secret と Bot Secret は"
         "標準入力からこの順に1行ずつ読み込みます（端末では入力内容を表示しません）。空行なら以前に保存した値のままです。"
         "シークレットと秘密鍵はキーリングに保存します。"),
    "the app's Client ID": "アプリの Client ID",
    "the app's Service Account": "アプリの Service Account",
    "the bot's Bot ID": "ボットの Bot ID",
    "the Domain ID (digits; optional)": "Domain ID（数字、省略可）",
    ("the private key file (.key) issued for the Service Account; without it, the key saved before is kept"):
        "Service Account 用に発行した秘密鍵のファイル（.key）。省略すると保存済みの鍵のままです",
    "ask LINE WORKS for an access token with the saved values; exit 1 when refused":
        "保存済みの値で LINE WORKS にアクセストークンを求めます。拒否されたら終了コード1で終わります",
    ("the relay that receives LINE's webhook and sends reminders while every PC sleeps: attach, sync, status, "
     "detach, local, deploy, remove"): ("すべてのPCが止まっている間もLINEのWebhookを受け取りリマインダーを送る中継サーバー: "
                                        "attach、sync、status、detach、local、deploy、remove"),
    ("attach a relay: its address, and its key from SHIFTCAST_RELAY_KEY or standard input (kept in the "
     "keyring)"): "中継サーバーを接続します。アドレスと、SHIFTCAST_RELAY_KEY または標準入力から読むキー（キーリングに保存）を使います",
    "the relay's address (https://…)": "中継サーバーのアドレス（https://…）",
    "sync with the relay once and print what was done as JSON": "中継サーバーと一度同期し、その結果をJSONで表示します",
    "the relay's address, its version and the last sync": "中継サーバーのアドレス、バージョン、最後の同期を表示します",
    "forget the relay's address and key": "中継サーバーのアドレスとキーを削除します",
    ("run the bundled relay on this computer (wrangler dev, a local D1 in the data folder) and attach it, until "
     "Ctrl+C"): "同梱の中継サーバーをこのコンピューターで動かし（wrangler dev、データフォルダー内のローカルD1）、"
                "Ctrl+C で止めるまで接続します",
    "the loopback port it listens on": "待ち受けるループバックのポート",
    "where the relay sends LINE's calls (default: the app's LINE API address)":
        "中継サーバーがLINEのAPIを呼び出す先（既定: アプリのLINE APIのアドレス）",
    "save the SMTP password (read from standard input) in the keyring":
        "SMTPのパスワード（標準入力から読み込み）をキーリングに保存します",
    "check whether the teachers will get their messages, and what to fix":
        "講師にメッセージが届くかどうかを確認し、必要な対処を表示します",
    ("Checks everything between Shiftcast and the teachers' reminders: the LINE connection and the "
     "keyring, whether LINE can reach Shiftcast (what the app last recorded, and where LINE says its "
     "webhook points: the one question asked of LINE), each classroom's LINE group, the teachers who can "
     "be reached, image hosting, start at login and a running sender. Exit status: 0 when nothing blocks "
     "sending (warnings allowed), 1 when something does."):
        ("Shiftcastから講師のリマインダーまでに必要なものをすべて確認します: LINEへの接続とキーリング、LINEから"
         "Shiftcastに届くか（アプリが最後に記録した状態と、LINEに問い合わせるただ一つの項目であるWebhookの向き先）、"
         "教室ごとのLINEグループ、連絡できる講師、画像ホスティング、ログイン時の起動、動いている送信処理。"
         "終了コード: 送信を妨げる問題がなければ0（注意があっても0）、あれば1。"),
    "list open incidents and those of the last 7 days": "未解決のアラートと、過去7日間のアラートを一覧表示します",
    "dry run: what would be sent in the next days, and the LINE quota forecast":
        "試算: この先数日間に送る予定のものと、LINEの送信数の見込み",
    "draw a classroom's month as PNG or PDF (for the wall)": "教室の1か月分のシフト表をPNGまたはPDFで作成します（掲示用）",
    "a .png or .pdf file": ".png または .pdf のファイル",
    "confirm and publish a classroom's month to its LINE group": "教室の1か月分のシフトを確定し、LINEグループに公開します",
    "only show recipients, quota cost and warnings": "宛先、送信数、注意点の表示だけを行います",
    "publish even though LINE or the classroom's group is not set up yet; the group gets the month by itself once "
    "they are":
        "LINEや教室のグループがまだ設定されていなくても公開します。設定されると、月のシフト表は自動でグループに送信されます",
    "also send each teacher their own month (one LINE message each against the quota)":
        "講師一人ひとりにもその人の月間シフトを送ります（LINEの送信数を一人1通使います）",
    "run the local LINE emulator": "ローカルのLINEエミュレーターを起動します",
    "the only token it accepts (default: any)": "受け付けるトークン（省略時はすべて）",
    "receive LINE webhooks (follow, unfollow …) until Ctrl+C": "Ctrl+C を押すまでLINEのWebhook（友だち追加・ブロックなど）を受け取ります",
    "TCP port to listen on": "待ち受けるTCPポート",
    "address to listen on (default 127.0.0.1: only a reverse proxy on this computer)":
        "待ち受けるアドレス（既定は 127.0.0.1: このコンピューターのリバースプロキシからだけ）",
    "save the LINE channel ID and the channel secret (read from standard input, kept in the keyring)":
        "LINEのチャネルIDとチャネルシークレット（標準入力から読み込み、キーリングに保存）を保存します",
    "the channel ID (digits)": "チャネルID（数字）",
    "list who sends from this database, from where and since when":
        "このデータベースから送信しているプロセスを、送信元といつからかとともに一覧表示します",
    "exit 0 if the database answers and a sender on this computer has a fresh heartbeat (a service's or container's "
    "health check)":
        "データベースが応答し、このコンピューターの送信プロセスに最新のハートビートがあれば終了コード 0 で終了します"
        "（サービスやコンテナーのヘルスチェック用）",
    "ask teachers (on LINE, else by e-mail) when they can work in a month, and see their answers":
        "講師に月のシフト希望を聞き（LINE、届かない講師にはメールで）、回答を確認します",
    "send each teacher the month's days to answer: with buttons on LINE, as a list by e-mail":
        "講師それぞれに月の日付を送り、回答をお願いします（LINEでは回答ボタン付き、メールでは日付の一覧）",
    "the last day to answer, YYYY-MM-DD": "回答の締切日（YYYY-MM-DD）",
    "ask only this teacher (repeat for more; default: every active teacher)":
        "この講師だけに依頼します（複数なら繰り返し指定。省略時は在籍中の講師全員）",
    "remind who has not answered N days before the deadline": "締切の N 日前に未回答の講師へリマインドします",
    "only show who would be asked and the quota cost": "依頼先と送信数の表示だけを行います",
    "who answered, who answered late and who did not": "回答済み、締切後の回答、未回答の講師を表示します",
    "send the request again to the teachers who have not answered": "未回答の講師にだけ依頼をもう一度送ります",
    "only show who would be reminded and the quota cost": "リマインド先と送信数の表示だけを行います",
    "enter a teacher's answers for them (a reply to the e-mailed request)":
        "講師の回答を代わりに入力します（メールで送った依頼への返信など）",
    "one day's answer, e.g. 12/5=× or 12/6=17:00-21:00 (repeat for more)":
        "1日分の回答。例: 12/5=× や 12/6=17:00-21:00（複数なら繰り返し指定）",
    "the answers as the teacher wrote them, e.g. '火木 17時以降' or the e-mailed list with ○ × after each day":
        "講師が書いたとおりの回答。例: 「火木 17時以降」や、メールの日付一覧の各日に ○ × を書いたもの",
    "deploy the relay to Cloudflare, or remove it": "中継サーバーをCloudflareに設置、または削除します",
    "deploy the relay to your Cloudflare account, or finish a deploy that stopped (running it again changes nothing)":
        "中継サーバーをご自分のCloudflareアカウントに設置します。途中で止まった設置の続きも行います（もう一度実行しても何も変わりません）",
    "read the Cloudflare API token from standard input and save it in the keyring":
        "CloudflareのAPIトークンを標準入力から読み込み、キーリングに保存します",
    "the Cloudflare account ID, when the token sees several": "トークンから複数のアカウントが見える場合の、CloudflareのアカウントID",
    "put LINE's earlier webhook address back and delete the relay and its database from Cloudflare":
        "LINEのWebhookを元のアドレスに戻し、中継サーバーとそのデータベースをCloudflareから削除します",
}
