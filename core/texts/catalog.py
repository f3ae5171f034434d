"""Every sentence core says to a person: code → (English, Japanese).

Templates name their parameters (`{name}`), which `render` fills with typed values written the way
each language writes them. A count that changes the English words is a `Plural`; Japanese needs one
text. Codes are stable: logs and support requests quote them, so a code is never reused for another
meaning. The Japanese follows resources/i18n/glossary.md: です・ます, short, the words of a Japanese
office app. tests/test_texts_catalog.py holds both languages to the same parameters.

A front end's own words (the command line's, cli/texts.py) are kept beside it in the same form and
joined to these with `register_catalog`, so core never imports them and `t()` knows them all.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Mapping

from core.texts.template import Plural, Template

CATALOG: dict[str, tuple[Template, Template]] = {
    # ----- words used inside other messages -----
    "word.classroom": ("classroom", "教室"),
    "word.teacher": ("teacher", "講師"),
    "word.endpoint": ("the endpoint address", "エンドポイントのアドレス"),
    "word.public_base": ("the public address", "公開用のアドレス"),
    "word.data_folder": ("the data folder", "データフォルダー"),
    "word.log_file": ("the log file", "ログファイル"),
    "text.plain": ("{text}", "{text}"),  # a message from outside the catalog (a library's own words)
    "text.shortened": ("{start}… ({count} characters)", "{start}…（{count}文字）"),  # core/texts/message.py shortened
    "status.draft": ("draft", "下書き"),
    "status.confirmed": ("confirmed", "確定"),
    "status.canceled": ("canceled", "取消"),
    # ----- roster rules -----
    "cover.no_request": ("no cover request with id {id}", "ID {id} の代講依頼は見つかりません。"),
    "cover.closed": ("cover request {id} is {state} already", "代講依頼 {id} はすでに「{state}」です。"),
    "cover.not_theirs": ("only the teacher on a confirmed shift can ask cover for it",
                         "確定したシフトの担当講師だけが代講を頼めます。"),
    "cover.started": ("the shift has started already", "シフトはすでに始まっています。"),
    "cover.not_free": ("{teacher} cannot take this shift: they are not active or have a shift at that time",
                       "{teacher}さんはこのシフトに入れません（在籍していないか、同じ時間に別のシフトがあります）。"),
    "cover.not_on_line": ("{teacher} cannot be reached on LINE", "{teacher}さんにはLINEで連絡できません。"),
    "cover.no_group": ("{classroom} has no LINE group", "{classroom}にはLINEグループが設定されていません。"),
    "cover.nobody_to_call": ("no teacher who could take the shift can be reached on LINE, and the classroom has no"
                             " LINE group", "このシフトに入れる講師にLINEで連絡できず、教室のLINEグループもありません。"),
    "cover.shift_changed": ("the shift changed after cover was asked; ask the teacher again",
                            "代講を頼まれた後にシフトが変わりました。講師にもう一度ご確認ください。"),
    "status.cover_requests": (Plural("count", "{count} request for cover", "{count} requests for cover"),
                              "代講の依頼 {count}件"),
    "cover.summary": ("#{id} [{state}] {teacher}: {when} at {classroom} ({reason})",
                      "#{id}［{state}］{teacher}：{when}（{classroom}）（{reason}）"),
    "cover.state.open": ("open", "未対応"),
    "cover.state.calling": ("calling for volunteers", "募集中"),
    "cover.state.assigned": ("assigned", "決定"),
    "cover.state.withdrawn": ("withdrawn", "取り下げ"),
    "cover.state.declined": ("declined", "見送り"),
    "cover.step.asked": ("asked for cover", "代講を依頼"),
    "cover.step.called": ("called for volunteers", "代講を募集"),
    "cover.step.volunteered": ("offered to cover", "引き受けを申し出"),
    "cover.step.refused": ("offered but could not take it", "申し出（入れないため受け付けず）"),
    "cover.step.assigned": ("assigned", "代講に決定"),
    "cover.step.withdrawn": ("withdrawn (the shift changed or started)", "取り下げ（シフトの変更・開始）"),
    "cover.step.declined": ("declined by the manager", "管理者が見送り"),
    # What teachers read on LINE, in the classroom's language.
    "cover.button.ask": ("Ask for cover", "代講を頼む"),
    "cover.button.take": ("I can cover", "引き受けます"),
    "cover.call.text": ("Cover needed\n{classroom}: {when}\n{teacher} cannot take this shift ({reason}). If you"
                        " can take it, tap “I can cover”. The manager will decide and let you know.",
                        "代講のお願い\n{classroom}：{when}\n{teacher}さんが入れなくなりました（{reason}）。"
                        "代わりに入れる方は「引き受けます」を押してください。担当者が決めてご連絡します。"),
    # The call on a channel without buttons that answer back (e-mail): the answer goes to the manager.
    "cover.call.text_tell": ("Cover needed\n{classroom}: {when}\n{teacher} cannot take this shift ({reason}). If"
                             " you can take it, please tell the manager. The manager will decide and let you know.",
                             "代講のお願い\n{classroom}：{when}\n{teacher}さんが入れなくなりました（{reason}）。"
                             "代わりに入れる方は担当者にお知らせください。担当者が決めてご連絡します。"),
    "cover.assigned.text": ("You're covering a shift\n{classroom}: {when}\nThank you for taking it. A reminder"
                            " will come before it starts.",
                            "代講をお願いします\n{classroom}：{when}\n引き受けていただきありがとうございます。"
                            "開始前にリマインダーをお送りします。"),
    "cover.declined.text": ("Cover not arranged\n{classroom}: {when}\nThe manager could not arrange cover for this"
                            " shift, so it stays yours. If you cannot take it, please contact the manager.",
                            "代講の見送り\n{classroom}：{when}\nこのシフトの代講は見送りとなりました。引き続き"
                            "あなたの担当です。入れない場合は担当者にご連絡ください。"),
    "cover.declined.reason": ("From the manager: {reason}", "担当者より：{reason}"),
    "cover.reply.passed": ("Your request for cover ({when}) was passed to the manager. The shift stays yours until"
                           " they decide.", "代講のご依頼（{when}）を担当者に伝えました。決まるまではこのシフトは"
                           "あなたの担当のままです。"),
    "cover.reply.choose": ("Which shift do you need cover for?\nTap the shift below.",
                           "どのシフトの代講ですか？\n下のシフトを押してください。"),
    "cover.reply.no_shift": ("You have no confirmed shift on {day} that has not started, so no cover was asked.",
                             "{day}にこれから始まる確定したシフトはありません。代講の依頼はしていません。"),
    "cover.reply.not_possible": ("Cover could not be asked for that shift: it has changed or started. Please"
                                 " contact the manager.", "このシフトの代講は頼めませんでした（変更されたか、"
                                 "すでに始まっています）。担当者にご連絡ください。"),
    "cover.reply.volunteered": ("Thank you. The manager will decide and let you know.",
                                "ありがとうございます。担当者が決めてご連絡します。"),
    "cover.reply.not_free": ("Thank you, but you have a shift at that time, so you cannot take this one.",
                             "ありがとうございます。ただ、同じ時間にシフトがあるため、このシフトには入れません。"),
    "cover.reply.closed": ("Thank you. This shift no longer needs cover.",
                           "ありがとうございます。このシフトの代講はすでに決まったか、不要になりました。"),
    "roster.classroom_exists": ("a classroom named '{name}' already exists", "「{name}」という教室はすでにあります。"),
    "roster.teacher_exists": ("a teacher named '{name}' already exists", "「{name}」という講師はすでに登録されています。"),
    "roster.name_missing": ("the {what} needs a name", "{what}の名前を入力してください。"),
    "roster.name_too_long": ("the {what} name is longer than 200 characters",
                             "{what}の名前は200文字以内で入力してください。"),
    "roster.reading_too_long": ("the reading is longer than {limit_count} characters",
                                "ふりがなは{limit_count}文字以内で入力してください。"),
    "roster.bad_position": ("the place in the order must be a whole number from 1 to {limit_count}, not '{value}'",
                            "並び順には1から{limit_count}までの整数を指定してください（「{value}」は指定できません）。"),
    "roster.lead_range": ("the reminder lead time must be between 1 minute and 24 hours",
                          "リマインダーは、シフトの1分前から24時間前までの間で指定してください。"),
    "roster.quiet_same": ("quiet hours must start and end at different times",
                          "通知しない時間帯の開始と終了には別の時刻を指定してください。"),
    "roster.language_unsupported": ("unsupported language '{language}': use ja or en",
                                    "「{language}」には対応していません。ja か en を指定してください。"),
    "roster.no_classroom_id": ("no classroom with id {id}", "ID {id} の教室は見つかりません。"),
    "roster.no_classroom_named": ("no classroom named '{name}'", "「{name}」という教室は見つかりません。"),
    "roster.teacher_deleted": ("this teacher was deleted and cannot be edited",
                               "この講師は削除済みのため、編集できません。"),
    "roster.address_taken": ("{channel} address {address} already belongs to {teacher}",
                             "{channel}の連絡先 {address} はすでに{teacher}さんに登録されています。"),
    "roster.unknown_channel": ("there is no channel '{channel}'", "「{channel}」という連絡方法はありません。"),
    "channel.email": ("E-mail", "メール"),
    "roster.no_teacher_id": ("no teacher with id {id}", "ID {id} の講師は見つかりません。"),
    "roster.unknown_teacher": ("unknown teacher '{name}'", "「{name}」という講師は登録されていません。"),
    "roster.confirmed_to_draft": ("a confirmed shift cannot go back to draft; cancel it instead",
                                  "確定したシフトは下書きに戻せません。取消にしてください。"),
    "roster.delete_not_draft": ("a {status} shift cannot be deleted; cancel it instead",
                                "{status}のシフトは削除できません。取消にしてください。"),
    "roster.delete_has_history": ("this shift has delivery history; cancel it instead of deleting it",
                                  "このシフトには配信の履歴があるため、削除せずに取消にしてください。"),
    "roster.confirm_month_failed": ("cannot confirm the month: {problems}", "この月を確定できません: {problems}"),
    "roster.confirm_inactive": ("{day} {teacher}: teacher is not active",
                                "{day} {teacher}さん: 在籍していない講師です"),
    "roster.no_shift_id": ("no shift with id {id}", "ID {id} のシフトは見つかりません。"),
    "roster.day_range": ("bad date {day}: a shift's date must be between {first} and {last}",
                         "{day} は指定できません。シフトの日付は{first}から{last}までです。"),
    "roster.month_range": ("bad month {month}: months go from {first} to {last}",
                           "{month} は指定できません。{first}から{last}までの月を指定してください。"),
    "roster.bad_month": ("bad month '{text}': write it as YYYY-MM, e.g. 2026-12",
                         "「{text}」は月として読めません。2026-12 のように YYYY-MM で入力してください。"),
    "roster.member_has_shifts": (
        Plural("count", "{teacher} still has {count} confirmed shift to come at {classroom} (the first on {day}); "
                        "cancel it or give it to another teacher first",
               "{teacher} still has {count} confirmed shifts to come at {classroom} (the first on {day}); "
               "cancel them or give them to another teacher first"),
        "{teacher}さんには{classroom}で今後の確定シフトが{count}件あります（最初は{day}）。"
        "先にシフトを取り消すか、別の講師に替えてください。"),
    "roster.joined": ("{teacher} is now one of {classroom}'s teachers.", "{teacher}さんを{classroom}の所属講師にしました。"),
    "roster.teacher_inactive": ("{teacher} is not an active teacher", "{teacher}さんは在籍中の講師ではありません。"),
    "roster.note_too_long": ("the note is longer than 1,000 characters", "メモは1,000文字以内で入力してください。"),
    "roster.end_before_start": ("the shift must end after it starts ({start}–{end}); write 26:00 for 2:00 the next day",
                                "終了時刻は開始時刻より後にしてください（{start}–{end}）。翌日の2:00は26:00と入力します。"),
    "roster.too_long": ("a shift cannot be longer than 24 hours", "シフトは24時間以内にしてください。"),
    "roster.overlaps": ("overlaps {teacher}'s shift on {day} {start}–{end} at {classroom}",
                        "{teacher}さんの{day} {start}–{end}（{classroom}）のシフトと重なっています。"),
    "roster.copy_no_days": ("choose at least one day to copy the shift to", "コピー先の日を1日以上選んでください。"),
    "roster.bad_zone": ("unknown time zone '{name}' (use an IANA name such as Asia/Tokyo)",
                        "タイムゾーン「{name}」が見つかりません。Asia/Tokyo のような IANA 名で指定してください。"),
    "roster.bad_channel": ("channel must be line, email, both or line_fallback, not '{value}'",
                           "連絡方法は line、email、both、line_fallback のいずれかです（「{value}」は指定できません）。"),
    "roster.bad_user_id": ("malformed LINE user ID '{value}': expected U followed by 32 lowercase hex digits",
                           "LINEユーザーID「{value}」の形式が正しくありません。U と32桁の16進数（小文字）で入力してください。"),
    "roster.bad_group_id": ("malformed LINE group ID '{value}': expected C followed by 32 lowercase hex digits",
                            "LINEグループID「{value}」の形式が正しくありません。C と32桁の16進数（小文字）で入力してください。"),
    "roster.bad_room_id": ("malformed room ID '{value}': letters, digits and . _ : @ - only, without spaces",
                           "ルームID「{value}」の形式が正しくありません。英数字と . _ : @ - だけで、空白を入れずに入力してください。"),
    "roster.bad_email": ("malformed e-mail address '{value}'", "メールアドレス「{value}」の形式が正しくありません。"),
    "copy.day": ("{day}: {reason}", "{day}: {reason}"),
    "copy.rejected": ("nothing was copied: {problems}", "コピーしていません: {problems}"),
    "copy.same_day": ("this is the day of the shift being copied", "コピー元のシフトと同じ日です。"),
    # ----- each teacher's shifts in their phone's calendar (core/calendar/; `shiftcast export ics`, the teacher dialog) -----
    # An event's title and the calendar's name, in the classroom's language.
    "calendar.summary": ("{classroom} shift", "{classroom}のシフト"),
    "calendar.name": ("{teacher}'s shifts", "{teacher}さんのシフト"),
    "calendar.ambiguous_teacher": ("'{name}' could be any of these teachers: {names}; give the whole name",
                                   "「{name}」に当てはまる講師が複数います（{names}）。名前を省略せずに入力してください。"),
    "calendar.no_relay": ("a calendar address is on the relay: attach one first (Settings → Always on)",
                          "カレンダーのアドレスは中継サーバーに置かれます。先に中継サーバーを接続してください（設定 → 常時稼働）。"),
    # ----- times of day -----
    "time.missing": ("no time given: write it like {examples}", "時刻が入力されていません。{examples} のように入力してください。"),
    "time.half_day_hour": ("bad time '{text}': after 午前 or 午後 the hour is 0–11",
                           "「{text}」は時刻として読めません。午前・午後のあとの時は0〜11です。"),
    "time.twelve_hour": ("bad time '{text}': with am or pm the hour is 1–12 and minutes 00–59",
                         "「{text}」は時刻として読めません。am・pm を付けるときは1〜12時、00〜59分です。"),
    "time.hour_range": ("bad time '{text}': hours must be 00–{last} and minutes 00–59",
                        "「{text}」は時刻として読めません。時は00〜{last}、分は00〜59です。"),
    "time.unreadable": ("bad time '{text}': write it like {examples}",
                        "「{text}」は時刻として読めません。{examples} のように入力してください。"),
    "time.minute_range": ("bad time '{text}': minutes must be 00–59", "「{text}」は時刻として読めません。分は00〜59です。"),
    # ----- CSV import -----
    "csv.row": ("line {line}: {reason}", "{line}行目: {reason}"),
    "csv.rejected": (Plural("count", "{count} problem, nothing was imported: {shown}{more}",
                            "{count} problems, nothing was imported: {shown}{more}"),
                     "{count}件の問題があるため、何もインポートしていません: {shown}{more}"),
    "csv.more": (" (and {count} more)", "（ほか{count}件）"),
    "csv.too_large": ("the file is larger than 20 MB", "ファイルが20MBを超えています。"),
    "csv.not_text": ("the file is not text in UTF-8 or Shift_JIS", "UTF-8 または Shift_JIS のテキストファイルではありません。"),
    "csv.empty": ("the file is empty; the first line must be a header",
                  "ファイルが空です。1行目に見出しの行が必要です。"),
    "csv.missing_columns": ("the header lacks these columns: {missing} (found: {found})",
                            "見出しに必要な列がありません: {missing}（見つかった列: {found}）"),
    "csv.duplicate_columns": ("these columns appear more than once: {columns}", "同じ列が2回以上あります: {columns}"),
    "csv.unknown_columns": ("the header has columns Shiftcast does not know: {columns}; a file of {what} has the "
                            "columns {known}",
                            "見出しに使えない列があります: {columns}。{what}のファイルで使える列は {known} です。"),
    # The columns of the CSV files, as the header names them in each language (core/roster/csv_files.py).
    "word.column.name": ("name", "名前"),
    "word.column.reading": ("reading", "ふりがな"),
    # The built-in channels' contact columns (core/roster/contacts.py COLUMNS; a registered channel's
    # are added with it, its name and first heading).
    "word.column.line_user_id": ("line_user_id", "LINEユーザーID"),
    "word.column.email": ("email", "メール"),
    "word.column.line_opt_in": ("line_opt_in", "LINE通知"),
    "word.column.email_opt_in": ("email_opt_in", "メール通知"),
    "word.column.active": ("active", "有効"),
    "word.column.channel": ("channel", "連絡方法"),
    "word.column.order": ("order", "並び順"),
    "word.column.classrooms": ("classrooms", "所属教室"),
    "word.column.classroom": ("classroom", "教室"),
    "word.column.teacher": ("teacher", "講師"),
    "word.column.date": ("date", "日付"),
    "word.column.start": ("start", "開始"),
    "word.column.end": ("end", "終了"),
    "word.column.status": ("status", "状態"),
    "word.column.note": ("note", "備考"),
    "word.teachers": ("teachers", "講師"),
    "word.shifts": ("shifts", "シフト"),
    "csv.too_many_columns": ("the header has {count} columns; a file of teachers or shifts has at most {limit_count}",
                             "見出しが{count}列あります。講師やシフトのファイルは{limit_count}列までです。"),
    "csv.line_too_long": ("the line is {count} characters long; a row of teachers or shifts has at most {limit_count}",
                          "この行は{count}文字あります。講師やシフトの1行は{limit_count}文字までです。"),
    "csv.cell_too_long": ("a cell is longer than {limit_count} characters, far more than a row of teachers or shifts "
                          "needs", "{limit_count}文字を超えるセルがあります。講師やシフトの行としては長すぎます。"),
    "csv.too_many_fields": ("{fields} fields but the header has {columns}",
                            "値が{fields}個ありますが、見出しは{columns}列です。"),
    "csv.unclosed_quote": ('a quoted cell opened on this line is never closed: a closing " is missing',
                           "この行で始まる引用符（\"）が閉じられていません。"),
    "csv.text_after_quote": ('text follows a closing " in a cell: write a " inside a quoted cell as ""',
                             "閉じる引用符（\"）のあとに文字があります。セル内の \" は \"\" と書いてください。"),
    "csv.unreadable": ("unreadable CSV: {detail}", "CSVとして読めません: {detail}"),
    "csv.bad_flag": ("{column} must be yes or no, not '{value}'",
                     "{column} は yes か no で入力してください（「{value}」は指定できません）。"),
    "csv.bad_date": ("bad date '{text}': write it as YYYY-MM-DD, e.g. 2026-12-01",
                     "「{text}」は日付として読めません。2026-12-01 のように YYYY-MM-DD で入力してください。"),
    "csv.duplicate_teacher": ("duplicate teacher '{name}' in the file", "講師「{name}」がファイル内で重複しています。"),
    "csv.unknown_classroom": ("unknown classroom '{name}'", "「{name}」という教室は登録されていません。"),
    "csv.unknown_teacher": ("unknown teacher '{name}'", "「{name}」という講師は登録されていません。"),
    "csv.bad_status": ("status must be draft, confirmed or canceled, not '{value}'",
                       "状態は draft（下書き）、confirmed（確定）、canceled（取消）のいずれかです（「{value}」は指定できません）。"),
    "csv.duplicate_row": ("duplicate of an earlier row", "前の行と重複しています。"),
    "csv.duplicate_shift": ("duplicate of existing shift #{id}", "登録済みのシフト #{id} と重複しています。"),
    # ----- closed days (core/roster/closed_days.py; the Shifts grid, `shiftcast closed-days`) -----
    "closed.note_too_long": ("the note of a closed day is longer than {limit_count} characters",
                             "休業日のメモは{limit_count}文字以内で入力してください。"),
    "closed.bad_day": ("bad date '{text}': write it as YYYY-MM-DD, e.g. 2026-12-29",
                       "日付「{text}」を読み取れません。YYYY-MM-DD（例: 2026-12-29）の形で入力してください。"),
    # ----- demo mode (core/app/demo.py; the demo inbox acting as a teacher) -----
    "demo.until_not_after_from": ("until when ({end}) must be after from when ({start}): LINE's picker for until "
                                  "when starts at the time chosen first",
                                  "終了時刻（{end}）は開始時刻（{start}）より後にしてください。LINEの終了時刻の選択は、"
                                  "先に選んだ時刻から始まります。"),
    "demo.no_until_picker": ("{start} was chosen, but the account's reply with a picker for until when did not arrive",
                             "{start}を選びましたが、終了時刻を選ぶための返信が届きませんでした。"),
    # ----- weekly patterns and filling a month (core/roster/patterns.py; the teacher dialog, `shiftcast fill`) -----
    "patterns.bad_weekday": ("bad weekday {weekday}: weekdays go from 0 (Monday) to 6 (Sunday)",
                             "曜日 {weekday} は使えません。0（月曜）〜6（日曜）で指定してください。"),
    "patterns.end_before_start": ("a weekly pattern must end after it starts ({start}–{end})",
                                  "毎週の予定は開始より後に終わるようにしてください（{start}〜{end}）。"),
    "patterns.until_before_from": ("a weekly pattern cannot end ({end}) before it starts ({start})",
                                   "毎週の予定の終了日（{end}）が開始日（{start}）より前になっています。"),
    "patterns.bad_weekday_name": ("bad weekday '{text}': write mon to sun, 月 to 日, or 0 (Monday) to 6 (Sunday)",
                                  "曜日「{text}」を読み取れません。mon〜sun、月〜日、または0（月曜）〜6（日曜）で指定してください。"),
    "patterns.no_such_number": ("there is no weekly pattern number {number}: the teacher has {count}",
                                "番号 {number} の毎週の予定はありません（この講師の予定は{count}件です）。"),
    "fill.summary_all_made": (Plural("made_count", "{made_count} draft shift made", "{made_count} draft shifts made"),
                              "下書きのシフトを{made_count}件作成しました。"),
    # {reasons}: the fill.why.* that happened, the others left out.
    "fill.summary": (Plural("made_count", "{made_count} draft shift made; {skipped_count} skipped: {reasons}",
                            "{made_count} draft shifts made; {skipped_count} skipped: {reasons}"),
                     "下書きのシフトを{made_count}件作成し、{skipped_count}件は作成しませんでした（{reasons}）。"),
    "word.fill.no_such_day": ("{count} on a weekday this month does not have", "今月にない週の曜日 {count}件"),
    "word.fill.closed": (Plural("count", "{count} on a closed day", "{count} on closed days"), "休業日 {count}件"),
    "word.fill.overlap": ("{count} where the teacher already has a shift", "同じ時間にシフトあり {count}件"),
    "word.fill.refused": ("{count} refused by the roster", "その他 {count}件"),
    "fill.nothing_last_month": ("Nothing was copied: last month has no shifts at this classroom",
                                "先月はこの教室にシフトがないため、何もコピーしていません。"),
    "fill.nothing_confirmed": (
        Plural("draft_count", "Nothing was copied: last month has no confirmed shifts, and only confirmed shifts are "
                              "copied (it has {draft_count} draft; confirm last month first to copy it)",
               "Nothing was copied: last month has no confirmed shifts, and only confirmed shifts are copied "
               "(it has {draft_count} drafts; confirm last month first to copy them)"),
        "先月には確定したシフトがないため、何もコピーしていません。コピーされるのは確定したシフトだけです"
        "（先月の下書きは{draft_count}件です。コピーするには先に先月を確定してください）。"),
    "fill.drafts_not_copied": (
        Plural("draft_count", "{summary}. Only confirmed shifts are copied: last month's {draft_count} draft was not",
               "{summary}. Only confirmed shifts are copied: last month's {draft_count} drafts were not"),
        "{summary}コピーされるのは確定したシフトだけです（先月の下書き{draft_count}件はコピーしていません）。"),
    "fill.skip.closed": ("{day}, {teacher}: the classroom is closed", "{day} {teacher}: 休業日です。"),
    "fill.skip.overlap": ("{day}, {teacher}: already has a shift at that time",
                          "{day} {teacher}: 同じ時間にシフトがあります。"),
    "fill.skip.no_such_day": ("{day}, {teacher}: this month has no such weekday",
                              "{day} {teacher}: 今月には同じ週の曜日がありません。"),
    "fill.skip.refused": ("{day}, {teacher}: {reason}", "{day} {teacher}: {reason}"),
    # ----- lesson slots (コマ; core/roster/lesson_slots.py, `shiftcast lesson-slots`, the shift dialog) -----
    "slots.name_missing": ("the lesson slot needs a name, e.g. 1限", "コマの名前を入力してください（例: 1限）。"),
    "slots.name_too_long": ("the name of a lesson slot is longer than {limit_count} characters",
                            "コマの名前は{limit_count}文字以内で入力してください。"),
    "slots.end_before_start": ("lesson slot {name} must end after it starts ({start}–{end})",
                               "コマ「{name}」は開始より後に終わるようにしてください（{start}〜{end}）。"),
    "slots.name_twice": ("there are two lesson slots named {name}", "「{name}」という名前のコマが2つあります。"),
    "slots.unknown": ("there is no lesson slot named {name}", "「{name}」という名前のコマはありません。"),
    # ----- staffing needs (必要人数; core/roster/needs.py, `shiftcast needs`, the Staffing needs dialog) -----
    "needs.unknown_slot": ("there is no lesson slot named {name}: add it in Lesson slots first",
                           "「{name}」という名前のコマはありません。先にコマに追加してください。"),
    "needs.bad_count": ("a staffing need of {value} is out of range: give a number of teachers from 0 to {limit}",
                        "必要人数 {value} は範囲外です。0〜{limit}人の数で指定してください。"),
    "needs.bad_count_text": ("bad count '{text}': give a whole number from 0, e.g. 2",
                             "人数「{text}」を読み取れません。2 のように0以上の整数で指定してください。"),
    "needs.weekday_or_day": ("a staffing need is for a weekday or for a date, not both",
                             "必要人数は曜日か日付のどちらか一方に設定してください。"),
    "needs.day_range": ("bad date {day}: a staffing need's date must be between {first} and {last}",
                        "日付 {day} は使えません。必要人数の日付は{first}〜{last}の範囲で指定してください。"),
    "needs.twice": ("the need of lesson slot {name} on {day} is given twice",
                    "コマ「{name}」の{day}の必要人数が2回指定されています。"),
    # ----- each teacher's limits and wishes (core/roster/limits.py; the teacher dialog, CSV, `shiftcast teachers limits`) -----
    "limits.word.max_shifts": ("the most shifts a month", "月の最大シフト数"),
    "limits.word.max_minutes": ("the most hours a month", "月の最大時間"),
    "limits.word.min_minutes": ("the fewest hours a month", "月の最低時間"),
    "limits.word.max_days_in_a_row": ("the most days in a row", "最大連続勤務日数"),
    "limits.word.max_weekend_days": ("the most Saturdays and Sundays a month", "月の最大土日勤務日数"),
    "limits.word.target_share": ("the share of work", "配分"),
    "limits.range": ("{what} must be from {low} to {high}, not {value}",
                     "{what}は{low}〜{high}で指定してください（{value}は指定できません）。"),
    "limits.hours_range": ("{what} must be from 0:00 to {high} hours, not {value}",
                           "{what}は0:00〜{high}時間で指定してください（{value}は指定できません）。"),
    "limits.min_above_max": ("the fewest hours a month ({low}) are more than the most hours a month ({high})",
                             "月の最低時間（{low}）が月の最大時間（{high}）を超えています。"),
    "limits.bad_hours": ("{what}: '{text}' is not hours; write 40, 40:30 or 40.5",
                         "{what}の「{text}」は時間として読めません。40、40:30、40.5 のように入力してください。"),
    "limits.bad_number": ("{what}: '{text}' is not a whole number", "{what}の「{text}」は整数ではありません。"),
    "limits.no_slot": ("there is no lesson slot #{id}", "コマ #{id} はありません。"),
    "limits.unknown_slot": ("the teacher's classrooms have no lesson slot named '{name}' (write classroom:slot for "
                            "another classroom's)",
                            "講師の所属教室に「{name}」というコマはありません（ほかの教室のコマは「教室:コマ」と書きます）。"),
    "limits.over.shifts": (Plural("count", "{count} shift this month, above the most of {limit}",
                                  "{count} shifts this month, above the most of {limit}"),
                           "今月のシフトが{count}回で、上限の{limit}回を超えています。"),
    "limits.over.hours": ("{hours} hours this month, above the most of {limit}",
                          "今月の勤務時間が{hours}で、上限の{limit}を超えています。"),
    "limits.over.weekend": (Plural("count", "{count} Saturday or Sunday this month, above the most of {limit}",
                                   "{count} Saturdays and Sundays this month, above the most of {limit}"),
                            "今月の土日勤務が{count}日で、上限の{limit}日を超えています。"),
    "limits.over.in_a_row": ("{count} days in a row, above the most of {limit}",
                             "{count}日連続の勤務で、上限の{limit}日を超えています。"),
    "limits.short.max_shifts": ("at most {value} shifts", "最大{value}回"),
    "limits.short.max_minutes": ("at most {value} h", "最大{value}時間"),
    "limits.short.min_minutes": ("at least {value} h", "最低{value}時間"),
    "limits.short.max_days_in_a_row": ("at most {value} days in a row", "連続{value}日まで"),
    "limits.short.max_weekend_days": ("at most {value} weekend days", "土日{value}日まで"),
    "limits.short.target_share": ("share {value}", "配分{value}"),
    "limits.short.slots": ("slots {names}", "担当コマ {names}"),
    "word.column.max_shifts": ("max_shifts", "最大シフト数"),
    "word.column.max_hours": ("max_hours", "最大時間"),
    "word.column.min_hours": ("min_hours", "最低時間"),
    "word.column.max_days_in_a_row": ("max_days_in_a_row", "最大連続勤務日数"),
    "word.column.max_weekend_days": ("max_weekend_days", "最大土日勤務日数"),
    "word.column.share": ("share", "配分"),
    "word.column.slots": ("slots", "担当コマ"),
    # ----- a draft month from the roster (core/planning/draft_month.py, `shiftcast draft --classroom`) -----
    "drafting.bad_unanswered": ("unanswered days must count as yes or no, not '{value}'",
                                "未回答の日は yes か no で指定してください（「{value}」は指定できません）。"),
    "drafting.reasons": ("{reasons}", "{reasons}"),  # each reason a sentence, joined as sentences are
    # ----- hours for payroll (core/roster/hours.py; `shiftcast hours`, the Hours dialog) -----
    "hours.rule": ("Counted: confirmed shifts only (drafts and canceled shifts are left out). A shift that "
                   "crosses midnight counts to the day it starts. Sundays and national holidays of Japan count "
                   "as holidays; times are on each classroom's clock.",
                   "集計の対象は確定したシフトだけです（下書きと取消は含めません）。日付をまたぐシフトは開始した日に"
                   "数えます。日曜日と日本の祝日は「日曜・祝日」に数えます。時刻は各教室のタイムゾーンによります。"),
    "hours.rule_slots": ("{rule} A lesson slot (コマ) counts once for each shift that covers all of it, from the "
                         "slot's start to its end, in the shift's classroom; a shift covering part of a slot counts "
                         "none of it.",
                         "{rule}コマは、シフトがその教室のコマの開始から終了までをすべて含むときに1コマと数えます。"
                         "一部だけ含むコマは数えません。"),
    "hours.title_all": ("Hours for payroll, {month}, all classrooms", "{month}の勤務時間（全教室）"),
    "hours.title_classroom": ("Hours for payroll, {month}, {classroom}", "{month}の勤務時間（{classroom}）"),
    "hours.left_out": ("Not counted: drafts {draft_count}, canceled {canceled_count}",
                       "集計に含めていないシフト: 下書き {draft_count}件、取消 {canceled_count}件"),
    "hours.teacher": ("Teacher", "講師"),
    "hours.shifts": ("Shifts", "シフト数"),
    "hours.total": ("Hours", "勤務時間"),
    "hours.total_decimal": ("Hours (decimal)", "勤務時間（10進）"),
    "hours.decimal_of": ("{what} (decimal)", "{what}（10進）"),
    "hours.weekday": ("Weekdays", "平日"),
    "hours.saturday": ("Saturdays", "土曜"),
    "hours.holiday": ("Sundays and holidays", "日曜・祝日"),
    "hours.slots_total": ("Lesson slots", "コマ数"),
    "hours.none": ("No confirmed shifts this month.", "この月の確定したシフトはありません。"),
    "hours.not_shift_jis_teacher": ("the name of teacher {teacher} has a character Shift_JIS cannot hold ({character}); "
                                    "nothing was saved: save the file as UTF-8 instead",
                                    "講師「{teacher}」の名前にShift_JISで保存できない文字（{character}）があるため、"
                                    "保存していません。UTF-8で保存してください。"),
    "hours.not_shift_jis_classroom": ("the name of classroom {classroom} has a character Shift_JIS cannot hold "
                                      "({character}); nothing was saved: save the file as UTF-8 instead",
                                      "教室「{classroom}」の名前にShift_JISで保存できない文字（{character}）があるため、"
                                      "保存していません。UTF-8で保存してください。"),
    "hours.not_shift_jis_slot": ("the name of lesson slot {slot} has a character Shift_JIS cannot hold ({character}); "
                                 "nothing was saved: save the file as UTF-8 instead",
                                 "コマ「{slot}」の名前にShift_JISで保存できない文字（{character}）があるため、"
                                 "保存していません。UTF-8で保存してください。"),
    # ----- alerts (banner, tray, alert e-mail and webhook) -----
    "alert.dead_letters": (Plural("count", "{count} delivery failed after every retry (dead letters)",
                                  "{count} deliveries failed after every retry (dead letters)"),
                           "{count}件の配信が、すべての再送に失敗しました（配信不能）。"),
    "alert.dead_letters.detail": ("Look at the failed deliveries and retry or cancel them; the alert clears when none are left.",
                                  "失敗した配信を確認し、再送するか取り消してください。なくなると、このアラートは消えます。"),
    "alert.channel_held": ("{channel} sending is paused", "{channel}の配信を一時停止しています。"),
    "alert.channel_held.detail": ("Messages stay queued and go out once the credentials work ({code}).",
                                  "メッセージは送信待ちのまま残り、認証情報が使えるようになると送信されます（{code}）。"),
    "alert.quota": ("LINE's monthly message quota is used up", "LINEの今月のメッセージ送信数が上限に達しました。"),
    "alert.quota.detail": ("LINE messages fail until the quota resets next month or the plan is upgraded.",
                           "来月に上限がリセットされるか、プランを変更するまで、LINEのメッセージは送信できません。"),
    "alert.stalled": (Plural("count", "{count} delivery has waited more than 15 minutes",
                             "{count} deliveries have waited more than 15 minutes"),
                      "{count}件の配信が15分以上送信待ちになっています。"),
    "alert.stalled.detail": ("The oldest has been due since {since} UTC. Check that LINE and e-mail are set up and reachable.",
                             "最も古いものは {since}（UTC）から送信待ちです。LINEとメールの設定と接続を確認してください。"),
    "alert.other_computer": ("This data folder also sent messages from another computer ({host}{more})",
                             "このデータフォルダーから別のコンピューター（{host}{more}）でも送信されています。"),
    "alert.other_computer.more": (" and {count} more", "ほか{count}台"),
    "alert.other_computer.detail": (
        "Last sent there at {last} UTC. If Shiftcast still runs there on a copy of this folder, stop one of the two: "
        "each copy sends what it plans on its own, so teachers may get messages twice. If the folder was moved here "
        "and the other computer stopped sending, this clears itself a day after its last send.",
        "最後に送信したのは {last}（UTC）です。そのコンピューターでこのフォルダーのコピーを使って Shiftcast が動いている場合は、"
        "どちらか一方を止めてください。それぞれが別々に送信するため、講師に同じメッセージが2回届くおそれがあります。"
        "フォルダーをこちらへ移して、もう一方で送信していなければ、最後の送信から1日たつと、このアラートは消えます。"),
    "alert.since_in": ("Since {since} ({zone}).", "発生: {since}（{zone}）"),
    "alert.stalled.because": ("The oldest has been due since {since} ({zone}). {cause}",
                              "最も古いものは {since}（{zone}）から送信待ちです。{cause}"),
    "alert.stalled.not_set_up": ("They wait because {channels} is not set up; set it up in Settings.",
                                 "{channels}が設定されていないため送信できません。設定画面で設定してください。"),
    "alert.stalled.not_going": ("The sender is running, yet they have not gone: check that LINE and e-mail "
                                "can reach their servers.",
                                "送信処理は動いていますが、送信されていません。LINEとメールがサーバーに接続できるか確認してください。"),
    "alert.since": ("Since {since} UTC.", "発生: {since}（UTC）"),
    "alert.line_held": ("LINE refused the channel access token: LINE sending is paused until the token changes",
                        "LINEがチャネルアクセストークンを受け付けませんでした。トークンを変更するまでLINEの配信を停止します。"),
    "alert.email_held": ("The mail server refused the login: e-mail sending is paused until the password or the "
                         "e-mail settings change",
                         "メールサーバーにログインできませんでした。パスワードかメールの設定を変更するまでメールの配信を停止します。"),
    "alert.webhook_held": ("The webhook is paused", "Webhookへの通知を停止しています。"),
    "alert.line_group_left": ("The LINE account was removed from the teachers' group of {classroom}",
                              "LINE公式アカウントが「{classroom}」の講師グループから外されました。"),
    "alert.webhook_events_failed": (
        Plural("count", "Shiftcast could not act on {count} event from LINE", "Shiftcast could not act on {count} events from LINE"),
        "LINEから届いた{count}件のイベントを処理できませんでした。"),
    "alert.webhook_events_failed.detail": (
        "Every try failed (a follow, a block, a teacher's code or a 了解 may be missing); the log file names each "
        "event and its error. They are tried again when Shiftcast starts, and the alert clears once they succeed.",
        "何度試しても失敗しました（友だち追加、ブロック、講師のコード、了解が反映されていない可能性があります）。"
        "各イベントとエラーはログファイルに記録されています。Shiftcastの起動時にもう一度処理し、成功するとこのアラートは消えます。"),
    "alert.line_group_left.detail": (
        "Roster messages to that group fail until the account is invited into it again (or another group is "
        "chosen in Connect LINE); the alert clears when it is.",
        "アカウントをグループにもう一度招待するか、「LINEに接続」で別のグループを選ぶまで、そのグループにはシフト表が"
        "届きません。対応するとこのアラートは消えます。"),
    "alert.pairing_locked": (Plural("count", "{count} LINE user sent too many wrong pairing codes and is ignored for an hour",
                                    "{count} LINE users sent too many wrong pairing codes and are ignored for an hour"),
                             "{count}人のLINEユーザーが登録コードを何度も間違えたため、1時間、そのユーザーからのコードを受け付けません。"),
    "alert.pairing_locked.detail": (
        "Nobody was connected. If it was one of your teachers, they can send their code again after the hour; if "
        "not, someone may be trying to guess codes. The alert clears when the hour is over.",
        "だれも登録されていません。講師の方であれば、1時間たってからもう一度コードを送ってもらってください。心当たりがなければ、"
        "第三者がコードを推測しようとしている可能性があります。1時間たつと、このアラートは消えます。"),
    "alert.relay_unreachable": ("The relay cannot be reached: reminders are not handed over to it",
                                "中継サーバーに接続できません。リマインダーを中継サーバーに渡せていません。"),
    "alert.relay_unreachable.detail": (
        "Every sync with the relay has failed since {since} UTC. While every PC sleeps, reminders due then are "
        "not sent and messages to the LINE account wait. See `shiftcast relay status` and the log.",
        "{since}（UTC）から中継サーバーとの同期が失敗し続けています。すべてのPCが止まっている間は、その間のリマインダーは"
        "送信されず、LINE公式アカウントへのメッセージも受け取れません。`shiftcast relay status` とログをご確認ください。"),
    "alert.pairing_paused": ("Connecting teachers on LINE is paused: too many wrong pairing codes came within an hour",
                             "1時間のうちに誤った登録コードが多数送られたため、LINEでの講師の登録を一時停止しています。"),
    "alert.pairing_paused.detail": (
        "No pairing code from anyone is accepted until {until} UTC, so that codes cannot be guessed. A teacher who "
        "sends their code before then is told on LINE until when, and can send it again afterwards.",
        "コードを推測されないよう、{until}（UTC）まで、だれからの登録コードも受け付けません。それまでにコードを送った講師には"
        "いつ以降に送り直せばよいかをLINEで返信します。その後にもう一度送ってもらってください。"),
    # ----- why a delivery was canceled (Deliveries, the CLI) -----
    "cancel.SHIFT_MISSING": ("the shift no longer exists", "シフトが削除されています"),
    "cancel.SHIFT_CHANGED": ("the shift changed since; the newer version is sent instead",
                             "シフトが変更されたため、新しい内容を送ります"),
    "cancel.SHIFT_STARTED": ("the shift had already started", "シフトの開始時刻を過ぎていました"),
    "cancel.COVER_CLOSED": ("the cover request no longer waits for volunteers", "代講の依頼はすでに締め切られています"),
    "cancel.ACKNOWLEDGED": ("the teacher acknowledged the reminder", "講師がリマインダーに了解しました"),
    "cancel.NUDGE_OFF": ("the manager is no longer told about reminders not acknowledged",
                         "了解がないリマインダーを管理者に知らせる設定がオフになっています"),
    "cancel.SHIFT_NOT_CONFIRMED": ("the shift is not confirmed", "シフトが確定していません"),
    "cancel.TEACHER_INACTIVE": ("the teacher has left or was erased", "講師が在籍していないか、削除されています"),
    "cancel.TEACHER_CHANGED": ("the shift went to another teacher", "シフトの担当が別の講師に変わりました"),
    "cancel.CHANNEL_CHANGED": ("the teacher no longer receives messages this way", "講師がこの連絡方法を使わなくなりました"),
    "cancel.UNREACHABLE": ("the teacher could not be reached this way; sent another way instead",
                           "この方法では講師に届かないため、別の方法で送りました"),
    "cancel.NOTHING_TOLD": ("the teacher was never told the earlier version", "講師には変更前の内容を伝えていません"),
    "cancel.NO_HISTORY": ("the earlier version of the shift is not on record", "変更前のシフトの記録がありません"),
    "cancel.NO_GROUP": ("the classroom has no LINE group any more", "教室にLINEグループが設定されていません"),
    "cancel.CLASSROOM_MISSING": ("the classroom no longer exists", "教室が削除されています"),
    "cancel.PUBLICATION_MISSING": ("the published month no longer exists", "公開した月の記録がありません"),
    "cancel.SUPERSEDED": ("a newer revision of the month replaces it", "この月の新しい版が公開されました"),
    "cancel.ALERT_MISSING": ("the alert no longer exists", "アラートが削除されています"),
    "cancel.COVERED_BY_CORRECTION": ("a correction sent at the same time says it all", "同時に送る変更の連絡に含まれています"),
    "cancel.MANAGER": ("canceled by the manager", "管理者が取り消しました"),
    "cancel.shown": ("{reason} — {code}", "{reason}（{code}）"),
    # ----- deliveries (the manager's retry and cancel) -----
    "delivery_status.pending": ("pending", "送信予定"),
    "delivery_status.queued": ("queued", "送信待ち"),
    "delivery_status.processing": ("processing", "送信中"),
    "delivery_status.sent": ("sent", "送信済み"),
    "delivery_status.failed": ("failed", "失敗"),
    "delivery_status.canceled": ("canceled", "取消"),
    "delivery.already_sent": ("delivery {id} was already sent; retrying would send it twice",
                              "配信 {id} は送信済みです。再送すると2回届いてしまいます。"),
    "delivery.sending_now": ("delivery {id} is being sent right now", "配信 {id} はただいま送信中です。"),
    "delivery.not_tried": ("delivery {id} has not been tried yet; it is sent at its time",
                           "配信 {id} はまだ送信していません。予定の時刻に送信されます。"),
    "delivery.changed": ("delivery {id} changed meanwhile; look again", "配信 {id} の状態が変わりました。もう一度確認してください。"),
    "delivery.already_done": ("delivery {id} is already {status}", "配信 {id} はすでに「{status}」です。"),
    "delivery.cannot_stop": ("delivery {id} is being sent right now; it cannot be stopped",
                             "配信 {id} はただいま送信中のため、止められません。"),
    "delivery.not_found": ("no delivery with id {id}", "ID {id} の配信は見つかりません。"),
    # ----- LINE -----
    "relay.run_stopped": ("the relay's run stopped during this attempt, before LINE's answer was written down: LINE may "
                          "have taken the message; the next attempt, with the same retry key, tells and sends it once",
                          "この送信の途中で中継サーバーの処理が止まり、LINEの応答を記録できませんでした。LINEが受け付けて"
                          "いる可能性があります。次の送信（同じ再送キー）で確認し、届くのは1回だけです。"),
    "relay.timed_out": ("the relay at {url} did not answer in time: it may be busy, or the connection slow. Nothing is "
                        "lost: the next sync tries again (or run `shiftcast relay sync` in a minute); if it keeps "
                        "happening, check the internet connection and `shiftcast relay status`",
                        "中継サーバー（{url}）から時間内に応答がありませんでした。混み合っているか、接続が遅い可能性があります。"
                        "失われたものはありません。次の同期で再試行します（1分ほどしてから `shiftcast relay sync` を実行しても"
                        "かまいません）。続く場合はインターネット接続と `shiftcast relay status` を確認してください。"),
    "relay.cannot_connect": ("could not connect to the relay at {url}: check the internet connection and the relay's "
                             "address (`shiftcast relay status`); the next sync tries again",
                             "中継サーバー（{url}）に接続できませんでした。インターネット接続と中継サーバーのアドレス"
                             "（`shiftcast relay status`）を確認してください。次の同期で再試行します。"),
    "relay.unreachable": ("could not reach the relay ({detail})", "中継サーバーに接続できませんでした（{detail}）"),
    "relay.answered": ("the relay answered HTTP {status} ({code}): {message}",
                       "中継サーバーからエラーが返されました（HTTP {status}、{code}）: {message}"),
    "relay.insecure_address": ("the relay's address '{address}' must use https (plain http only to this computer)",
                               "中継サーバーのアドレス「{address}」には https を使ってください（http はこのコンピューター内だけ使えます）。"),
    "relay.bad_key": ("the relay key must be 64 hexadecimal digits (256 bits)",
                      "中継サーバーのキーは16進数64桁（256ビット）で指定してください。"),
    "relay.line_said": ("LINE answered the relay: {message}", "LINEから中継サーバーへの応答: {message}"),
    "relay.local.no_node": ("Node.js is not installed: the local relay needs it (node 20 or later)",
                            "Node.jsがインストールされていません。ローカルの中継サーバーにはNode.js 20以降が必要です。"),
    "relay.local.no_modules": ("the relay's packages are missing: run `npm ci` in {folder}",
                               "中継サーバーのパッケージがありません。{folder} で `npm ci` を実行してください。"),
    "relay.local.failed": ("the local relay did not start: {detail}",
                           "ローカルの中継サーバーを起動できませんでした: {detail}"),
    "relay.local.not_here": ("this copy of Shiftcast carries the relay for Cloudflare, not the tools that run it "
                             "on this computer (Node.js and wrangler)",
                             "このShiftcastには、Cloudflare用の中継サーバーは入っていますが、このコンピューターで"
                             "動かすためのツール（Node.jsとwrangler）は入っていません。"),
    "relay.local.not_running": ("the demo's relay is not running", "デモの中継サーバーは動いていません。"),
    "relay.image_refused": ("the relay did not take the month's picture: {detail}",
                            "中継サーバーが月のシフト表の画像を受け取りませんでした: {detail}"),
    "relay.not_attached": ("no relay is attached", "中継サーバーが接続されていません"),
    "relay.no_key": ("the relay key is not in the keyring: attach the relay again",
                     "中継サーバーのキーがキーリングにありません。中継サーバーをもう一度接続してください。"),
    "line.answered": ("LINE answered HTTP {status}: {message}{extra}", "LINEからエラーが返されました（HTTP {status}）: {message}{extra}"),
    "line.network_error": ("LINE answered network error: {message}{extra}", "LINEに接続できませんでした: {message}{extra}"),
    "line.timeout": ("LINE did not answer in time", "LINEから時間内に応答がありませんでした"),
    "line.unreachable": ("could not reach LINE ({detail}): check this computer's internet connection and try again",
                         "LINEに接続できませんでした（{detail}）。このパソコンのインターネット接続を確認して、もう一度お試しください。"),
    "line.no_connection": (
        "could not connect to LINE: this computer seems to have no internet connection, or a firewall or a proxy "
        "blocks LINE. Check that a web page opens in the browser, then try again.",
        "LINEに接続できませんでした。このパソコンがインターネットにつながっていないか、ファイアウォールやプロキシが"
        "LINEへの接続を止めています。ブラウザーでWebページが開くか確かめてから、もう一度お試しください。"),
    "line.group_not_joined": ("the LINE account is not in that group (invite it into the group again)",
                              "LINE公式アカウントはそのグループに参加していません。もう一度グループに招待してください。"),
    "line.channel_id_format": ("the channel ID is a number (LINE Developers console, Basic settings)",
                               "チャネルIDは数字です（LINE Developersコンソールの「チャネル基本設定」にあります）。"),
    "line.channel_secret_missing": ("paste the channel secret (LINE Developers console, Basic settings)",
                                    "チャネルシークレットを貼り付けてください（LINE Developersコンソールの「チャネル基本設定」にあります）。"),
    "line.connect_closed": ("the LINE connection set-up was closed", "LINEの接続設定は閉じられました。"),
    "line.credentials_refused": ("LINE refused this channel ID and secret ({reason}); copy both again from the "
                                 "LINE Developers console",
                                 "LINEがこのチャネルIDとチャネルシークレットを受け付けませんでした（{reason}）。"
                                 "LINE Developersコンソールから両方をもう一度コピーしてください。"),
    "line.insecure_base": ("LINE API address '{address}' must use https (plain http only to this computer)",
                           "LINE API のアドレス「{address}」には https を使ってください（http はこのコンピューター内だけ使えます）。"),
    "line.multicast_size": ("a multicast goes to 1–{limit} users, not {given}",
                            "一斉送信の宛先は1〜{limit}人です（{given}人は指定できません）。"),
    "line.token_empty": ("the LINE channel access token is empty", "LINEのチャネルアクセストークンが空です。"),
    "setup.line.paste_token": ("paste the channel access token first", "先にチャネルアクセストークンを貼り付けてください。"),
    "setup.line.no_token": ("no channel access token is saved yet", "チャネルアクセストークンがまだ保存されていません。"),
    "setup.line.enter_group": ("enter the LINE group ID first", "先にLINEグループIDを入力してください。"),
    "setup.line.save_token": ("save the LINE channel access token first", "先にLINEのチャネルアクセストークンを保存してください。"),
    # ----- the rich menu that opens the teachers' page (core/setup/rich_menu.py, `shiftcast line rich-menu`) -----
    "rich_menu.tile.month": ("My shifts", "自分のシフト"),
    "rich_menu.tile.availability": ("Availability", "シフト希望"),
    "rich_menu.tile.covers": ("Cover calls", "代講"),
    "rich_menu.tile.calendar": ("My calendar", "カレンダー"),
    "rich_menu.chat_bar": ("Menu", "メニュー"),
    "rich_menu.no_liff_id": ("set the LIFF ID of the teachers' page first: the rich menu's tiles open that page",
                             "先に講師ページのLIFF IDを設定してください。リッチメニューのボタンはそのページを開きます。"),
    "rich_menu.no_line": ("connect LINE first: neither a channel access token nor a channel ID and secret is saved",
                          "先にLINEを接続してください。チャネルアクセストークンも、チャネルIDとチャネルシークレットも"
                          "保存されていません。"),
    "rich_menu.refused": ("LINE did not take the rich menu ({step}), so nothing was changed: {why}",
                          "LINEがリッチメニューを受け付けなかったため、何も変更していません（{step}）: {why}"),
    "rich_menu.step.create": ("creating it", "作成"),
    "rich_menu.step.image": ("uploading its picture", "画像のアップロード"),
    "rich_menu.step.default": ("showing it to everyone", "全員への表示"),
    "rich_menu.step.delete": ("deleting it", "削除"),
    # ----- e-mail (SMTP) and the alert webhook -----
    "smtp.bad_security": ("SMTP security must be one of {modes}, not '{value}'",
                          "SMTPの暗号化方式は {modes} のいずれかです（「{value}」は指定できません）。"),
    "smtp.plain_remote": ("SMTP without TLS is allowed only to this computer; use starttls or tls",
                          "TLSなしのSMTPはこのコンピューター内だけ使えます。starttls か tls を選んでください。"),
    "smtp.server_said": ("the mail server said: {code}{message}", "メールサーバーからの応答: {code}{message}"),
    "setup.email.enter_server": ("enter the mail server and the from address", "メールサーバーと送信元アドレスを入力してください。"),
    "setup.email.no_ca_file": ("the CA file {path} does not exist", "CAファイル {path} が見つかりません。"),
    "setup.email.enter_password": ("enter the password first", "先にパスワードを入力してください。"),
    "setup.email.set_up_first": ("set up the mail server and the from address first",
                                 "先にメールサーバーと送信元アドレスを設定してください。"),
    "webhook.insecure": ("the webhook address must start with https:// (plain http only to this computer)",
                         "Webhookのアドレスは https:// で始めてください（http はこのコンピューター内だけ使えます）。"),
    # ----- image hosting (S3-compatible) -----
    "hosting.secret_missing": ("the image hosting secret access key is missing; enter it in Settings",
                               "画像ホスティングのシークレットアクセスキーがありません。設定画面で入力してください。"),
    "hosting.keyring": ("the image hosting secret access key cannot be read: {detail}",
                        "画像ホスティングのシークレットアクセスキーを読み出せません: {detail}"),
    "hosting.insecure": ("image hosting address '{address}' must use https",
                         "画像ホスティングのアドレス「{address}」には https を使ってください。"),
    "hosting.lookup_refused": ("image hosting refused to look up {key}: {code}",
                               "画像ホスティングで {key} を確認できませんでした: {code}"),
    "hosting.upload_refused": ("image hosting refused the upload: {code} {message}",
                               "画像ホスティングへのアップロードが拒否されました: {code} {message}"),
    "hosting.test_failed": ("test upload failed: {detail}", "テストのアップロードに失敗しました: {detail}"),
    "setup.hosting.incomplete": ("image hosting needs the endpoint address, the bucket and the access key ID",
                                 "画像ホスティングには、エンドポイントのアドレス、バケット、アクセスキーIDが必要です。"),
    "setup.hosting.days": ("links can stay valid for 1 to {days} days", "リンクの有効期間は1〜{days}日で指定してください。"),
    "setup.hosting.insecure": ("{what} '{address}' must start with https://", "{what}「{address}」は https:// で始めてください。"),
    "setup.hosting.enter_first": ("enter the image hosting details first", "先に画像ホスティングの情報を入力してください。"),
    "setup.hosting.enter_secret": ("enter the secret access key", "シークレットアクセスキーを入力してください。"),
    # ----- publishing a month -----
    "publish.no_group": ("the classroom has no LINE group yet: choose it in Connect LINE",
                         "この教室のLINEグループがまだ選ばれていません。「LINEに接続」で選んでください。"),
    "publish.promise.now": ("The month goes to the classroom's group as soon as you publish.",
                            "公開すると、すぐに教室のグループへ送信します。"),
    "publish.promise.fixed": ("The month will be sent to the group as soon as that is fixed.",
                              "問題が解決したら、すぐにグループへ送信します。"),
    "publish.promise.line": ("The month will be sent to the group as soon as LINE is connected.",
                             "LINEに接続したら、すぐにグループへ送信します。"),
    "publish.promise.group": ("The month will be sent to the group as soon as the group is chosen.",
                              "LINEグループを選んだら、すぐにグループへ送信します。"),
    "publish.promise.line_and_group": ("The month will be sent to the group as soon as LINE is connected and the "
                                       "group chosen.",
                                       "LINEに接続してグループを選んだら、すぐにグループへ送信します。"),
    "publish.not_ready": ("{classroom}'s month cannot reach its LINE group: {missing}; nothing was published",
                          "{classroom}の月のシフト表はLINEグループに届きません。{missing} 公開していません。"),
    # The month's pages for a phone (core/publication/month_pages.py): short labels drawn in the image.
    "portrait.page": ("Page {page} of {pages}", "{pages}枚中{page}枚目"),
    "portrait.changed": ("Changed since last time", "前回から変更"),
    "portrait.no_shifts": ("No shifts", "シフトはありません"),
    "portrait.day_off": ("off", "休み"),
    # Above the Publish preview: which form the group receives (core/publication/group_preview.py).
    "publish.preview.flex": ("As a message, one card per week — no image hosting",
                             "メッセージとして、1週間ごとに1枚のカードで届きます（画像ホスティングなし）。"),
    "publish.preview.pages": ("As pictures for phones", "スマートフォン向けの画像で届きます。"),
    "publish.preview.pages_relay": ("As pictures for phones, through the relay",
                                    "スマートフォン向けの画像で、中継サーバー経由で届きます。"),
    "publish.preview.button": ("As a button to the teachers' page", "講師ページへのボタンで届きます。"),
    "publish.preview.later": ("What the LINE group will get once it is chosen: {form}",
                              "LINEグループを選ぶと、この内容が届きます。{form}"),
    "publish.not_yet": ("Not yet: {missing}", "現在の状況: {missing}"),
    "publish.emails_too": (Plural("count", "{count} teacher gets it by e-mail now.",
                                  "{count} teachers get it by e-mail now."),
                           "メールで受け取る講師{count}人には、今すぐ送信します。"),
    "publish.waiting": ("{promise} Not yet: {missing}", "{promise}現在の状況: {missing}"),
    "publish.done_waiting": ("Revision {revision} is published. {promise} Not yet: {missing}",
                             "第{revision}版を公開しました。{promise}現在の状況: {missing}"),
    # ----- the main window's status line -----
    "status.not_set_up": (Plural("count", "{count} waits because {channels} is not set up",
                                 "{count} wait because {channels} is not set up"),
                          "{channels}が設定されていないため{count}件が送信待ちです"),
    # ----- confirming a month (ui/shifts, `shiftcast confirm`) -----
    "confirm.question": (Plural("count", "Confirm {count} draft shift of {month} at {classroom}?",
                                "Confirm {count} draft shifts of {month} at {classroom}?"),
                         "{classroom}の{month}の下書きシフト{count}件を確定しますか？"),
    "confirm.told_all": (Plural("count", "The teacher is told about the confirmed shifts and reminded before each one.",
                                "All {count} teachers are told about their confirmed shifts and reminded before each one."),
                         "講師（{count}人）には確定したシフトをお知らせし、各シフトの前にリマインダーを送ります。"),
    "confirm.told_none": (Plural("count", "The teacher cannot be told yet. The shifts are confirmed all the same; once "
                                          "the teacher can be reached, the reminders still to come go out.\n{teachers}",
                                 "None of the {count} teachers can be told yet. The shifts are confirmed all the same; "
                                 "once a teacher can be reached, their reminders still to come go out.\n{teachers}"),
                          "講師{count}人のうち、今お知らせできる人はいません。シフトはそのまま確定し、連絡がつくように"
                          "なれば、その後のリマインダーが届きます。\n{teachers}"),
    "confirm.told_some": ("{untold_count} of the {count} teachers cannot be told yet; the others are told about their "
                          "confirmed shifts and reminded before each one.\n{teachers}",
                          "講師{count}人のうち{untold_count}人には、まだお知らせできません。ほかの講師には確定したシフトを"
                          "お知らせし、各シフトの前にリマインダーを送ります。\n{teachers}"),
    "confirm.final": ("A confirmed shift cannot become a draft again; it can only be canceled.",
                      "確定したシフトは下書きに戻せません。取り消すことだけができます。"),
    "confirm.untold": ("Not told (nothing can reach them now): {teachers}",
                       "次の講師にはお知らせできません（現在、連絡手段がありません）: {teachers}"),
    # ----- canceling a confirmed shift (ui/shifts) -----
    "shifts.cancel.ask_untold": ("{shift} is confirmed, so the teacher may already know about it.\n\n"
                                 "Shiftcast cannot tell {teacher} that it is canceled: {reasons}. "
                                 "Cancel it anyway? Tell {teacher} yourself.",
                                 "{shift}は確定済みのため、講師がすでに知っている可能性があります。\n\n"
                                 "{teacher}さんには取り消しをお知らせできません（{reasons}）。"
                                 "それでも取り消しますか？{teacher}さんには直接お伝えください。"),
    "shifts.cancel.done_untold": ("Canceled {shift}. {teacher} was not told: {reasons}.",
                                  "{shift}を取り消しました。{teacher}さんにはお知らせしていません（{reasons}）。"),
    "publish.nothing_new": ("nothing changed since revision {revision}; there is nothing new to publish",
                            "第{revision}版から変更がないため、新しく公開する内容はありません。"),
    "font.missing": ("no font with Japanese characters was found, so the month image cannot be drawn: {fix}",
                     "日本語のフォントが見つからないため、月のシフト表の画像を作れません。{fix}"),
    "font.fix.linux": ("install a Japanese font, e.g. `sudo apt install fonts-noto-cjk`",
                       "日本語フォントをインストールしてください（例: `sudo apt install fonts-noto-cjk`）。"),
    "font.fix.darwin": ("macOS normally ships Hiragino; choose a Japanese font file in Settings",
                        "macOS には通常ヒラギノが入っています。設定画面で日本語のフォントファイルを選んでください。"),
    "font.fix.win32": ("Windows normally ships Yu Gothic or Meiryo; choose a Japanese font file in Settings",
                       "Windows には通常 游ゴシック や メイリオ が入っています。設定画面で日本語のフォントファイルを選んでください。"),
    # ----- the data folder, the database, the keyring, settings -----
    # {why} is a keyring.why.* text (core/store/keyring_check.py): what is missing and how to add it.
    "keyring.missing": ("no usable keyring was found on this computer: {why}",
                        "このコンピューターで使えるキーリングが見つかりません。{why}"),
    "keyring.missing_env": ("no usable keyring was found on this computer: {why}; for a headless sender, set the {env} "
                            "environment variable instead",
                            "このコンピューターで使えるキーリングが見つかりません。{why}画面なしで送信する場合は、代わりに"
                            "環境変数 {env} を設定してください。"),
    "keyring.why.no_secret_service": (
        "nothing on this desktop provides the Secret Service that keeps the keyring. Install gnome-keyring (on KDE: "
        "KWallet, the package kwalletmanager), then log out and in again; `busctl --user list | grep "
        "org.freedesktop.secrets` shows it once it runs",
        "このデスクトップには、キーリングを保管する Secret Service がありません。gnome-keyring（KDE では KWallet、"
        "パッケージ名 kwalletmanager）をインストールして、ログインし直してください。動いているかどうかは "
        "`busctl --user list | grep org.freedesktop.secrets` で確かめられます。"),
    "keyring.why.no_session_bus": (
        "this session has no D-Bus session bus, through which the keyring (the Secret Service) is reached. Start "
        "Shiftcast from the desktop session, not over ssh or with sudo",
        "このセッションには、キーリング（Secret Service）とやり取りする D-Bus セッションバスがありません。ssh や sudo "
        "を使わず、デスクトップのセッションから Shiftcast を起動してください。"),
    "keyring.why.other": ("on Linux, start a Secret Service provider (GNOME Keyring or KWallet) in your desktop session",
                          "Linux ではデスクトップで Secret Service（GNOME Keyring や KWallet）を起動してください。"),
    "keyring.read_refused": ("the keyring refused to read {name}: {detail}", "キーリングから {name} を読み出せませんでした: {detail}"),
    "keyring.save_refused": ("the keyring refused to save {name}: {detail}", "キーリングに {name} を保存できませんでした: {detail}"),
    "keyring.secret_file_unreadable": ("cannot read the secret file {path} ({env}): {detail}",
                                       "シークレットファイル {path}（{env}）を読み込めません: {detail}"),
    "keyring.secret_file_empty": ("the secret file {path} ({env}) is empty", "シークレットファイル {path}（{env}）が空です。"),
    "ack.key_stays_in_database": ("the 了解 button key could not be moved from the database to the keyring ({detail}): "
                                  "it stays in the database unused, and messages carry no 了解 button until a keyring "
                                  "can keep the key",
                                  "了解ボタンの署名キーをデータベースからキーリングへ移せませんでした（{detail}）。"
                                  "キーはデータベースに残りますが使いません。キーリングが使えるようになるまで、"
                                  "メッセージに了解ボタンは付きません。"),
    "ack.keyring_lost_key": ("the keyring did not give the key back after saving it",
                             "キーリングに保存したキーを読み出せませんでした"),
    "ack.database_key_replaced": ("the keyring already held another 了解 button key for this database; that key is "
                                  "kept, and buttons signed with the database's old key no longer count",
                                  "キーリングにはこのデータベースの別の了解ボタンの署名キーがすでにあります。"
                                  "そのキーを使い続けるため、データベースにあった古いキーで署名されたボタンは無効になります。"),
    "ack.button_off": ("the 了解 button is off because its key cannot be read: {detail}",
                       "了解ボタンの署名キーを読み出せないため、了解ボタンはオフになっています: {detail}"),
    "db.open_failed": ("could not open the database: {detail}", "データベースを開けませんでした: {detail}"),
    "db.upgrade_failed": ("could not upgrade the database: {detail}{hint}", "データベースを更新できませんでした: {detail}{hint}"),
    "db.backup_at": ("; the database before the upgrade is saved at {path}", "（更新前のデータベースは {path} に保存してあります）"),
    "db.unreachable": ("The database server cannot be reached; changes are refused until it is back — retrying…",
                       "データベースサーバーに接続できません。復旧するまで変更は保存できません。再接続しています…"),
    "db.server_backups_apply": ("pg_dump was not found on this computer, so no copy was made before the upgrade: "
                                "the database server's own backups apply",
                                "このコンピューターにpg_dumpがないため、更新前のコピーは作成していません。"
                                "データベースサーバー側のバックアップをご利用ください。"),
    "db.dump_failed": ("the backup before the upgrade failed (pg_dump: {detail}); nothing was changed",
                       "更新前のバックアップに失敗しました（pg_dump: {detail}）。何も変更していません。"),
    "dbcheck.unreachable": ("The server cannot be reached: {detail}", "サーバーに接続できません: {detail}"),
    "dbcheck.auth": ("The server refused the user name or password: {detail}",
                     "サーバーがユーザー名またはパスワードを受け付けませんでした: {detail}"),
    "dbcheck.no_database": ("The server has no database with this name: {detail}",
                            "サーバーにこの名前のデータベースがありません: {detail}"),
    "dbcheck.empty": ("Connected. The database is empty: Shiftcast will set it up at the next start.",
                      "接続できました。データベースは空です。次回の起動時にShiftcastが準備します。"),
    "dbcheck.current": ("Connected. The database is ready for this version of Shiftcast.",
                        "接続できました。このバージョンのShiftcastでそのまま使えます。"),
    "dbcheck.older": ("Connected. The database was made by an older Shiftcast ({revision}); it will be upgraded "
                      "at the next start.",
                      "接続できました。データベースは以前のShiftcast（{revision}）のものです。次回の起動時に更新します。"),
    "dbcheck.newer": ("Connected, but the database was made by a newer Shiftcast ({revision}): update this app "
                      "before using it.",
                      "接続できましたが、データベースは新しいShiftcast（{revision}）のものです。先にこのアプリを更新してください。"),
    "copyup.target_has_data": ("The server's database already has data ({table}); nothing was copied.",
                               "サーバーのデータベースにはすでにデータがあります（{table}）。何もコピーしていません。"),
    "copyup.count_mismatch": ("The copy of {table} has {copied} rows instead of {expected}; nothing was copied.",
                              "{table}のコピーが{expected}行ではなく{copied}行になりました。何もコピーしていません。"),
    "copyup.schema_differs": ("The local file and the server are at different versions ({source} and {target}); "
                              "nothing was copied.",
                              "ローカルのファイルとサーバーのバージョンが異なります（{source} と {target}）。何もコピーしていません。"),
    "setting.saved_unusable": ("the saved setting {key} ('{value}') cannot be used: {problem}",
                               "保存されている設定 {key}（「{value}」）は使えません: {problem}"),
    "setting.refused": ("{label} must be {rule}, not {value}", "{label}の値 {value} は使えません。{rule}で指定してください。"),
    # storage the manager must fix (core/store/db.py storage_problem)
    "word.database_file": ("the database file", "データベースファイル"),
    "storage.read_only": ("the database is read-only: {path} (check the file's permissions and that its disk is not "
                          "mounted read-only); nothing was changed",
                          "データベースが読み取り専用です: {path}（ファイルのアクセス権と、ディスクが読み取り専用で"
                          "マウントされていないかを確認してください）。何も変更していません。"),
    "storage.database_full": ("the disk is full: {path} cannot grow; nothing was changed (free some space)",
                              "ディスクがいっぱいのため、{path} に書き込めません。何も変更していません"
                              "（ディスクの空き容量を増やしてください）。"),
    "storage.cannot_open": ("the database cannot be opened: {path} (its folder must exist and be writable)",
                            "データベースを開けません: {path}（フォルダーが存在し、書き込みできる必要があります）。"),
    "storage.disk_error": ("the disk could not be read or written at {path}; nothing was changed",
                           "{path} でディスクの読み書きができませんでした。何も変更していません。"),
    "storage.disk_full": ("the disk is full: cannot write {path}", "ディスクがいっぱいです。{path} に書き込めません。"),
    "storage.not_writable": ("not writable: {path} (check its permissions)",
                             "{path} に書き込めません（アクセス権を確認してください）。"),
    # a file the manager asked for (core/store/exports.py)
    "export.disk_full": ("cannot write {path}: the disk is full", "{path} に書き込めません。ディスクがいっぱいです。"),
    "export.read_only": ("cannot write {path}: {folder} is on a read-only disk",
                         "{path} に書き込めません。{folder} は読み取り専用のディスクにあります。"),
    "export.no_permission": ("cannot write {path}: no permission to write in {folder}",
                             "{path} に書き込めません。{folder} に書き込む権限がありません。"),
    "export.is_a_folder": ("cannot write {path}: it is a folder", "{path} に書き込めません。フォルダーです。"),
    "export.no_folder": ("cannot write {path}: the folder {folder} does not exist",
                         "{path} に書き込めません。フォルダー {folder} がありません。"),
    "export.no_files_there": ("cannot write {path}: files cannot be made in {folder}",
                              "{path} に書き込めません。{folder} にはファイルを作れません。"),
    "export.cannot_write": ("cannot write {path}: {detail}", "{path} に書き込めません: {detail}"),
    # what each setting is, in a refused value's message (core/store/setting_keys.py)
    "setting.label.line.api_base": ("the LINE API address", "LINE API のアドレス"),
    "setting.label.line.channel_id": ("the LINE channel ID", "LINEのチャネルID"),
    "setting.label.relay.url": ("the relay's address", "中継サーバーのアドレス"),
    "setting.label.relay.unreachable_since": ("since when the relay cannot be reached",
                                              "中継サーバーに接続できなくなった時刻"),
    "setting.label.relay.last_sync": ("the relay's last sync", "中継サーバーとの最後の同期"),
    "setting.label.relay.codes": ("the pairing codes the relay holds", "中継サーバーに預けた登録コード"),
    "setting.label.relay.images": ("the month's pictures the relay holds", "中継サーバーに預けた月の画像"),
    "setting.label.relay.pages": ("the teachers' page documents the relay holds", "中継サーバーに預けた講師ページのデータ"),
    "setting.label.pages.enabled": ("hand the relay the teachers' page data", "講師ページのデータを中継サーバーに預ける"),
    "setting.label.pages.month_as_button": (
        "Send the month to the group as a button to the teachers' page instead of pictures (the month's pictures "
        "are not put online)",
        "月のシフト表を画像ではなく講師ページへのボタンでグループに送る（月の画像はインターネット上に置きません）"),
    "setting.label.line.login_channel_id": ("the LINE Login channel ID", "LINEログインのチャネルID"),
    "setting.label.line.liff_id": ("the LIFF ID of the teachers' page", "講師ページのLIFF ID"),
    "setting.label.line.rich_menu_id": ("the rich menu Shiftcast set", "Shiftcastが設定したリッチメニュー"),
    "setting.label.alerts.manager_code": ("the manager's pairing code", "管理者の登録コード"),
    "setting.label.line.account": ("the LINE account's name", "LINE公式アカウントの名前"),
    "setting.label.line.hold": ("the LINE hold", "LINEの配信停止の記録"),
    "setting.label.line.quota": ("LINE's monthly quota", "LINEの今月の送信数"),
    "setting.label.line.webhook.saved_endpoint": ("the webhook address to put back", "元に戻すWebhookのアドレス"),
    "setting.label.line.webhook.our_endpoint": ("the webhook address Shiftcast set", "Shiftcast が設定したWebhookのアドレス"),
    "setting.label.line.webhook.restore_pending": (
        "whether the earlier webhook address is still to be put back",
        "元のWebhookのアドレスに戻す必要があるかどうか"),
    "setting.label.line.receive.address": ("where LINE reaches Shiftcast", "LINEからShiftcastへの接続先"),
    "setting.label.line.receive.own_url": ("your own HTTPS address for LINE", "LINE用のご自身のHTTPSアドレス"),
    "setting.label.line.receive.port": ("the port your address forwards to", "アドレスの転送先のポート"),
    "setting.label.line.receive.endpoint": ("the webhook address last set at LINE", "LINEに最後に設定したWebhookのアドレス"),
    "setting.label.line.receive.status": ("whether the app received LINE's webhooks, as it last said",
                                          "アプリがLINEのWebhookを受信していたかどうか（最後の記録）"),
    "setting.label.line.ack_button": ("whether LINE reminders carry a 了解 button", "LINEのリマインダーに了解ボタンを付けるかどうか"),
    "setting.label.line.cover_button": ("whether LINE reminders carry an “Ask for cover” button",
                                        "LINEのリマインダーに「代講を頼む」ボタンを付けるかどうか"),
    "setting.label.line_works.last_test": ("the last LINE WORKS test", "LINE WORKS の前回のテスト"),
    "setting.label.line.ack_secret": ("the 了解 button key", "了解ボタンの署名キー"),
    "setting.label.publication.group_owed": ("a published month waiting for its LINE group",
                                             "LINEグループを待っている公開済みの月"),
    "setting.label.line.group_members": ("a LINE group's member count", "LINEグループのメンバー数"),
    "setting.label.sender.concurrency": ("the number of sending threads", "送信スレッドの数"),
    "setting.label.sender.lease_seconds": ("the sender's lease in seconds", "送信プロセスのリース時間（秒）"),
    "setting.label.sender.poll_seconds": ("the sender's poll interval in seconds", "送信プロセスの確認間隔（秒）"),
    "setting.label.sender.backoff_base_seconds": ("the first retry's delay in seconds", "最初の再送までの待ち時間（秒）"),
    "setting.label.sender.max_retries": ("the number of retries", "再送の回数"),
    "setting.label.sender.http_timeout_seconds": ("the LINE request timeout in seconds", "LINEへのリクエストのタイムアウト（秒）"),
    # ----- LINE WORKS (core/channels/line_works*.py); its send errors and cancel reasons are its driver's -----
    "line_works.missing": ("{field} is missing", "{field}が入力されていません。"),
    "line_works.bad_id": ("{field} '{value}' has characters LINE WORKS does not use in it",
                          "{field}「{value}」にLINE WORKSでは使われない文字が含まれています。"),
    "line_works.bad_domain": ("the domain ID '{value}' must be a number", "Domain ID「{value}」は数字で入力してください。"),
    "line_works.bad_key": ("the private key is not an RSA private key in PEM form (the text of the private_….key file "
                           "the Developer Console gives, from -----BEGIN PRIVATE KEY----- to its END line)",
                           "Private KeyがPEM形式のRSA秘密鍵ではありません。Developer Consoleで発行した private_….key "
                           "ファイルの中身を -----BEGIN PRIVATE KEY----- からEND行まで貼り付けてください。"),
    "line_works.field.client_id": ("the client ID", "クライアントID（Client ID）"),
    "line_works.field.client_secret": ("the client secret", "クライアントシークレット（Client Secret）"),
    "line_works.field.service_account": ("the service account", "サービスアカウント（Service Account）"),
    "line_works.field.private_key": ("the private key", "秘密鍵（Private Key）"),
    "line_works.field.bot_id": ("the bot ID", "BotのID（Bot ID）"),
    "line_works.field.bot_secret": ("the bot secret", "Botのシークレット（Bot Secret）"),
    "line_works.insecure_base": ("the LINE WORKS address must use HTTPS (plain HTTP only to this computer): {address}",
                                 "LINE WORKSのアドレスはHTTPSにしてください（HTTPはこのパソコン内のみ）: {address}"),
    "line_works.timeout": ("LINE WORKS did not answer in time; check the internet connection and try again",
                           "LINE WORKSから時間内に応答がありませんでした。インターネット接続を確認して、もう一度お試しください。"),
    "line_works.no_connection": ("could not connect to LINE WORKS: {detail}", "LINE WORKSに接続できませんでした: {detail}"),
    "line_works.token_refused": ("LINE WORKS refused the app's credentials (HTTP {status}: {said}); check the client ID "
                                 "and secret, the service account and its private key, and that the app has the bot "
                                 "scope",
                                 "LINE WORKSがアプリの認証情報を受け付けませんでした（HTTP {status}: {said}）。Client ID と "
                                 "Client Secret、Service Account と Private Key、アプリのスコープに bot があるかを確認して"
                                 "ください。"),
    "line_works.bad_user_id": ("malformed LINE WORKS ID '{value}': expected the member's login ID (name@domain) or "
                               "their user ID (8-4-4-4-12 hexadecimal digits)",
                               "LINE WORKS ID「{value}」の形式が正しくありません。メンバーのログインID（name@domain）か"
                               "ユーザーID（8-4-4-4-12桁の16進数）を入力してください。"),
    "alert.line_works_held": ("LINE WORKS refused the app's credentials: LINE WORKS sending is paused until they change",
                              "LINE WORKSがアプリの認証情報を受け付けませんでした。認証情報を変更するまでLINE WORKSの"
                              "配信を停止します。"),
    "setting.label.line_works.client_id": ("the LINE WORKS client ID", "LINE WORKSのClient ID"),
    "setting.label.line_works.service_account": ("the LINE WORKS service account", "LINE WORKSのService Account"),
    "setting.label.line_works.bot_id": ("the LINE WORKS bot ID", "LINE WORKSのBot ID"),
    "setting.label.line_works.domain_id": ("the LINE WORKS domain ID", "LINE WORKSのDomain ID"),
    "setting.label.line_works.auth_base": ("the LINE WORKS sign-in address", "LINE WORKSの認証サーバーのアドレス"),
    "setting.label.line_works.api_base": ("the LINE WORKS API address", "LINE WORKSのAPIのアドレス"),
    "setting.label.line_works.hold": ("the LINE WORKS hold", "LINE WORKSの配信停止の記録"),
    "setting.label.smtp.host": ("the mail server", "メールサーバー"),
    "setting.label.smtp.port": ("the mail server's port", "メールサーバーのポート番号"),
    "setting.label.smtp.security": ("the mail server's security", "メールサーバーの暗号化方式"),
    "setting.label.smtp.user": ("the mail server's user name", "メールサーバーのユーザー名"),
    "setting.label.smtp.from": ("the from address", "送信元アドレス"),
    "setting.label.smtp.from_name": ("the sender name", "送信者名"),
    "setting.label.smtp.ca_file": ("the CA file", "CAファイル"),
    "setting.label.smtp.timeout_seconds": ("the mail server timeout in seconds", "メールサーバーのタイムアウト（秒）"),
    "setting.label.smtp.hold": ("the e-mail hold", "メールの配信停止の記録"),
    "setting.label.alerts.webhook_url": ("the webhook address", "Webhookのアドレス"),
    "setting.label.alerts.email": ("the manager's e-mail address", "管理者のメールアドレス"),
    "setting.label.alerts.line_user_id": ("the manager's LINE user ID", "管理者のLINEユーザーID"),
    "setting.label.nudge.unacknowledged": ("telling the manager when a reminder is not acknowledged",
                                           "了解がないリマインダーを管理者に知らせる設定"),
    "setting.label.nudge.hours": ("the hours before a shift in which its reminder should be acknowledged",
                                  "了解を確認するシフト開始前の時間"),
    "setting.label.hosting.endpoint": ("the image hosting endpoint", "画像ホスティングのエンドポイント"),
    "setting.label.hosting.bucket": ("the bucket", "バケット"),
    "setting.label.hosting.region": ("the region", "リージョン"),
    "setting.label.hosting.access_key_id": ("the access key ID", "アクセスキーID"),
    "setting.label.hosting.public_base_url": ("the public address", "公開用のアドレス"),
    "setting.label.hosting.presign_days": ("how many days image links stay valid", "画像のリンクの有効日数"),
    "setting.label.hosting.local_root": ("the demo image folder", "デモ用の画像フォルダー"),
    "setting.label.hosting.local_base_url": ("the demo image address", "デモ用の画像のアドレス"),
    "setting.label.ui.language": ("the interface language", "表示言語"),
    "setting.label.ui.tray_hint_shown": ("whether the tray hint was shown", "タスクトレイの案内を表示したかどうか"),
    "setting.label.ui.first_run_done": ("whether the first-run question was asked", "初回起動時の確認をしたかどうか"),
    "setting.label.relay.deployment": ("what deploying the relay made at Cloudflare",
                                       "中継サーバーの設置でCloudflareに作成したもの"),
    "setting.label.ui.last_folder": ("the folder of the file last opened or saved", "最後にファイルを開いた、または保存したフォルダー"),
    # the rule a setting's value must follow (core/store/settings.py)
    "setting.rule.text": ("text", "文字列"),
    "setting.rule.text_length": ("text of at most {length} characters", "{length}文字以内の文字列"),
    "setting.rule.choice": ("one of {choices}", "{choices} のいずれか"),
    "setting.rule.whole_range": ("a whole number from {minimum} to {maximum}", "{minimum}〜{maximum}の整数"),
    "setting.rule.whole_at_least": ("a whole number of at least {minimum}", "{minimum}以上の整数"),
    "setting.rule.whole_at_most": ("a whole number of at most {maximum}", "{maximum}以下の整数"),
    "setting.rule.whole": ("a whole number", "整数"),
    "setting.rule.number_between": ("a number above {above} and at most {maximum}", "{above}より大きく{maximum}以下の数値"),
    "setting.rule.number_above": ("a number above {above}", "{above}より大きい数値"),
    "setting.rule.number_at_most": ("a number at most {maximum}", "{maximum}以下の数値"),
    "setting.rule.number": ("a number", "数値"),
    "setting.rule.yes_no": ("yes or no", "yes か no のどちらか"),
    "setting.rule.yes_no_words": ("\"yes\" or \"no\"", "「yes」か「no」"),
    "setting.rule.hold": ("an error code and a fingerprint without '|'", "「|」を含まないエラーコードとフィンガープリント"),
    "setting.rule.hold_since": ("held since an aware time", "タイムゾーン付きの開始時刻"),
    "setting.rule.quota": ("a quota reading", "送信数の記録"),
    "setting.rule.quota_counts": ("a quota reading with counts of 0 or more", "0以上の数を記録した送信数の記録"),
    "setting.rule.quota_time": ("a quota reading with an ISO time", "ISO形式の時刻を含む送信数の記録"),
    "setting.rule.json": ("a JSON object", "JSONオブジェクト"),
    "setting.rule.receiving": ("a receiving state with an aware time", "タイムゾーン付きの時刻を含む受信の状態"),
    "setting.rule.web_address": (
        "an https:// address (plain http:// only to this computer)",
        "https:// のアドレス（http:// はこのコンピューター宛てのみ）"),
    "setting.rule.email": ("an e-mail address", "メールアドレス"),
    "setting.rule.digits": ("digits only", "数字のみ"),
    "setting.rule.liff_id": ("a LIFF ID (digits, a hyphen, then 8 to 40 letters and digits)",
                             "LIFF ID（数字、ハイフン、続いて8〜40文字の英数字）"),
    "setting.rule.line_user_id": ("a LINE user ID (U and 32 characters of 0–9 and a–f)",
                                  "LINEのユーザーID（Uに続く0〜9とa〜fの32文字）"),
    # ----- deploying the relay to Cloudflare (core/setup/relay_deploy.py; Settings → Always on, `shiftcast relay deploy`) -----
    "relay_setup.no_token": ("no Cloudflare API token is saved: create one with the link in Settings → Always on and paste it there",
                             "Cloudflare のAPIトークンが保存されていません。「設定」→「常時稼働」のリンクからトークンを作成し、貼り付けてください。"),
    "relay_setup.no_line": ("the relay needs LINE's channel ID and channel secret: connect LINE first (Settings → LINE → "
                            "Connect LINE)",
                            "中継サーバーにはLINEのチャネルIDとチャネルシークレットが必要です。先にLINEを接続してください"
                            "（「設定」→「LINE」→「LINEに接続」）。"),
    "relay_setup.token_refused": ("Cloudflare did not accept the API token: check that it was copied whole and has not been "
                                  "deleted or expired",
                                  "Cloudflare がAPIトークンを受け付けませんでした。トークン全体をコピーしたか、削除や期限切れになっていないか確認してください。"),
    "relay_setup.token_inactive": ("the Cloudflare API token is {status}: create a new one with the link in Settings → Always on",
                                   "Cloudflare のAPIトークンが使えない状態です（{status}）。「設定」→「常時稼働」のリンクから新しいトークンを作成してください。"),
    "relay_setup.permission_missing": ("the Cloudflare API token lacks a permission needed for {doing}: create a token with the "
                                       "link in Settings → Always on (Workers Scripts: Edit, D1: Edit, Account Settings: Read). "
                                       "Nothing was changed at Cloudflare by this step",
                                       "Cloudflare のAPIトークンに{doing}に必要な権限がありません。「設定」→「常時稼働」のリンクから"
                                       "トークンを作成してください（Workers スクリプト: 編集、D1: 編集、アカウント設定: 読み取り）。"
                                       "この手順ではCloudflareで何も変更していません。"),
    "relay_setup.rate_limited": ("Cloudflare asks to slow down (too many requests): try again in five minutes",
                                 "Cloudflare へのリクエストが多すぎます。5分ほど待ってからもう一度お試しください。"),
    "relay_setup.cloudflare_said": ("Cloudflare refused {doing}: {detail}", "Cloudflare で{doing}ができませんでした: {detail}"),
    "relay_setup.unreachable": ("could not reach Cloudflare ({detail}): check the internet connection and try again",
                                "Cloudflare に接続できませんでした（{detail}）。インターネット接続を確認して、もう一度お試しください。"),
    "relay_setup.no_account": ("the Cloudflare API token sees no account: create it with “All accounts” or your account chosen",
                               "Cloudflare のAPIトークンからアカウントが見えません。「すべてのアカウント」またはご自分のアカウントを選んで作成してください。"),
    "relay_setup.several_accounts": ("the Cloudflare API token sees several accounts ({accounts}): choose one with --account",
                                     "Cloudflare のAPIトークンから複数のアカウントが見えます（{accounts}）。--account で1つ選んでください。"),
    "relay_setup.account_not_seen": ("the Cloudflare API token does not see the account {account}",
                                     "Cloudflare のAPIトークンからアカウント {account} が見えません。"),
    "relay_setup.no_subdomain": ("this Cloudflare account has no workers.dev subdomain yet: open Workers & Pages in the "
                                 "Cloudflare dashboard once to choose it, then deploy again",
                                 "このCloudflareアカウントにはまだ workers.dev のサブドメインがありません。Cloudflare のダッシュボードで"
                                 "「Workers & Pages」を一度開いてサブドメインを決めてから、もう一度設置してください。"),
    "relay_setup.health_missing": ("the relay at {url} does not answer with this version yet (it says {version}): try again in a minute",
                                   "{url} の中継サーバーがまだこのバージョンで応答しません（{version}）。1分ほど待ってからもう一度お試しください。"),
    "relay_setup.doing.token": ("checking the token", "トークンの確認"),
    "relay_setup.doing.account": ("finding the account", "アカウントの確認"),
    "relay_setup.doing.subdomain": ("the workers.dev address", "workers.dev のアドレスの設定"),
    "relay_setup.doing.database": ("the relay's database", "中継サーバーのデータベースの作成"),
    "relay_setup.doing.migrations": ("preparing the relay's database", "中継サーバーのデータベースの準備"),
    "relay_setup.doing.upload": ("uploading the relay", "中継サーバーのアップロード"),
    "relay_setup.doing.schedule": ("the relay's schedule", "中継サーバーの定期実行の設定"),
    "relay_setup.doing.remove": ("removing the relay", "中継サーバーの削除"),
    "relay_setup.doing.secrets": ("giving the relay the new LINE credentials", "中継サーバーへの新しいLINE認証情報の設定"),
    "relay_setup.step.token": ("Check the Cloudflare token and account", "Cloudflare のトークンとアカウントを確認"),
    "relay_setup.step.database": ("Create the database", "データベースを作成"),
    "relay_setup.step.migrations": ("Prepare the database's tables", "データベースの表を準備"),
    "relay_setup.step.upload": ("Upload the relay", "中継サーバーをアップロード"),
    "relay_setup.step.workers_dev": ("Switch on its workers.dev address", "workers.dev のアドレスを有効化"),
    "relay_setup.step.schedule": ("Run it every minute", "毎分の実行を設定"),
    "relay_setup.step.health": ("Wait for the relay to answer", "中継サーバーの応答を確認"),
    "relay_setup.step.line": ("Point LINE's webhook at the relay", "LINEのWebhookを中継サーバーに設定"),
    "relay_setup.step.save": ("Remember the relay", "中継サーバーを記録"),
    "relay_setup.step.line_back": ("Put LINE's earlier webhook address back", "LINEのWebhookを元のアドレスに戻す"),
    "relay_setup.step.delete_worker": ("Delete the relay", "中継サーバーを削除"),
    "relay_setup.step.delete_database": ("Delete its database", "データベースを削除"),
    "relay_setup.step.forget": ("Forget the relay's key and address", "中継サーバーの鍵とアドレスを削除"),
    # ----- why a delivery is planned (the dry run: `main.py plan`) -----
    "plan.why.reminder": ("reminder", "リマインダー"),
    "plan.why.reminder_held": ("reminder (held until quiet hours end)", "リマインダー（通知しない時間帯が終わってから送ります）"),
    "plan.why.reminder_late": ("late reminder (the app was not running when it was due)",
                               "遅れて送るリマインダー（予定の時刻にアプリが動いていませんでした）"),
    "plan.why.reminder_after_its_time": (
        "late reminder (the shift was confirmed or changed after the reminder's time)",
        "遅れて送るリマインダー（リマインダーの時刻より後にシフトが確定または変更されました）"),
    "plan.why.by_email": ("{why} by e-mail (LINE cannot reach this teacher)",
                          "{why}をメールで送ります（LINEではこの講師に届きません）"),
    "plan.why.other_teacher": ("the shift went to another teacher", "シフトの担当が別の講師に変わりました"),
    "plan.why.canceled": ("the shift was canceled", "シフトが取消になりました"),
    "plan.why.changed": ("the shift changed after the teacher was told", "講師に伝えたあとでシフトが変更されました"),
    "plan.why.correction": ("correction", "変更の連絡"),
    "plan.why.correction_held": ("{why} (held until quiet hours end)", "{why}（通知しない時間帯が終わってから送ります）"),
    "plan.why.correction_in_quiet_hours": ("{why} (sent in quiet hours: the shift starts before they end)",
                                           "{why}（シフトが通知しない時間帯のうちに始まるため、今送ります）"),
    "plan.why.publication": ("publication", "シフト表の公開"),
    "plan.why.alert": ("alert", "アラート"),
    "plan.why.teacher_month": ("the published month, to each teacher", "公開したシフト表（講師ごと）"),
    "plan.why.cover_call": ("a shift that needs cover", "代講が必要なシフト"),
    "plan.why.cover_declined": ("the manager declined this teacher's request for cover",
                                "この講師の代講の依頼を担当者が見送りました"),
    "plan.why.cover_assigned": ("the manager chose this teacher to cover the shift", "この講師が代講に決まりました"),
    "plan.why.unacknowledged_nudge": ("a reminder was not acknowledged before its shift",
                                      "シフト前のリマインダーに了解がありません"),
    "plan.why.retry": ("{why} (retry {attempt}: {code})", "{why}（再送 {attempt}回目: {code}）"),
    # ----- the kinds of message, as the Deliveries view names them (core/sending/kinds/) -----
    "kind.shift_reminder": ("Shift reminder", "シフトのリマインダー"),
    "kind.shift_correction": ("Shift changed", "シフトの変更"),
    "kind.shift_publication": ("Month published", "月間シフトの公開"),
    "kind.alert": ("Alert", "アラート"),
    "kind.teacher_month": ("Month for a teacher", "講師ごとの月間シフト"),
    "kind.cover_call": ("Call for cover", "代講の募集"),
    "kind.cover_assigned": ("Cover assigned", "代講の決定"),
    "kind.cover_declined": ("Cover declined", "代講の見送り"),
    "kind.unacknowledged_nudge": ("Not acknowledged", "了解なしのお知らせ"),
    # ----- the manager's nudge about a reminder not acknowledged (core/sending/kinds/unacknowledged_nudge.py) -----
    "nudge.message": ("{teacher} has not acknowledged the reminder for the shift at {classroom}, {day} {start}.",
                      "{teacher}さんから、{day} {start}（{classroom}）のシフトのリマインダーに了解がまだありません。"),
    "nudge.subject": ("[Shiftcast] Not acknowledged: {teacher}", "[Shiftcast] 了解がありません: {teacher}さん"),
    # ----- the published month as Flex messages (core/messages/month_flex.py) -----
    "month_flex.title": ("{classroom} — {month}", "{classroom} {month} シフト表"),
    "month_flex.revision": (Plural("count", "Revision {revision}: {count} change, marked ●", "Revision {revision}: {count} changes, marked ●"),
                            "第{revision}版です。変更{count}件に●を付けています。"),
    "month_flex.alt": ("Shift roster published: {classroom}, {month}.",
                       "【シフト表】{classroom} {month}のシフト表を公開しました。"),
    "month_flex.alt_update": (Plural("count", "Updated shift roster: {classroom}, {month} (revision {revision}, {count} change).",
                                     "Updated shift roster: {classroom}, {month} (revision {revision}, {count} changes)."),
                              "【シフト表・更新】{classroom} {month}のシフト表が更新されました（第{revision}版・変更{count}件）。"),
    "month_flex.part": (" ({part} of {parts})", "（{parts}件中{part}件目）"),
    "month_flex.none": ("no shift", "シフトなし"),
    "month_flex.no_shifts": ("No shifts", "シフトはありません。"),
    "teacher_month.title": ("{name}'s shifts, {month}", "{name}さんの{month}のシフト"),
    "teacher_month.changed": ("Changed since the last roster: marked ●", "前回から変わったシフトに●を付けています。"),
    # ----- LINE's webhooks -----
    "receiving.not_json": ("the webhook body is not JSON", "Webhookの本文がJSONではありません。"),
    "receiving.no_events": ('the webhook body has no "events" list', "Webhookの本文に events の一覧がありません。"),
    "receiving.cannot_listen": ("cannot listen on {address}: {detail}", "{address} で待ち受けできません: {detail}"),
    "receiving.not_started": ("the webhook receiver did not start on {address}", "{address} でWebhookの受信を開始できませんでした。"),
    # whether LINE reaches Shiftcast now (core/setup/receiving.py), on the window's status line
    "receiving.status.at": ("receiving from LINE at {address}", "LINEから受信中（{address}）"),
    "receiving.status.not": ("not receiving from LINE: {why}", "LINEから受信していません: {why}"),
    "receiving.why.not_connected": ("LINE is not connected (Settings → LINE → Connect LINE)",
                                    "LINEが接続されていません（設定 → LINE → LINEに接続）"),
    "receiving.why.starting": ("starting", "開始しています"),
    "receiving.why.stopped": ("stopped", "停止しました"),
    "receiving.why.no_secret": ("the channel secret is not in the keyring", "チャネルシークレットがキーリングにありません"),
    "receiving.why.no_credentials": ("no LINE credentials are saved", "LINEの認証情報が保存されていません"),
    "receiving.why.failed": ("an unexpected error ({detail}); see the log file", "予期しないエラーが発生しました（{detail}）。ログファイルをご確認ください"),
    "receiving.why.line_unreachable": ("LINE could not be asked to call {address} ({detail})",
                                       "{address} に送信するようLINEに設定できませんでした（{detail}）"),
    "receiving.why.webhook_off": ("“Use webhook” is off in the LINE Developers console",
                                  "LINE Developers コンソールで「Webhookの利用」がオフになっています"),
    "receiving.why.test_failed": ("LINE's test of {address} failed (HTTP {code})",
                                  "LINEによる {address} のテストが失敗しました（HTTP {code}）"),
    # the address LINE calls (core/receiving/address.py: your own, or a Cloudflare quick tunnel)
    "address.too_long": ("the webhook address is {length} characters long; LINE allows at most {limit}",
                         "Webhookのアドレスが{length}文字あります。LINEで使えるのは{limit}文字までです。"),
    "address.not_https": ("{value} is not an https:// address; LINE calls https only",
                          "{value} は https:// のアドレスではありません。LINEは https のアドレスにだけ送信します。"),
    "address.extra_parts": ("{value}: give the address without ?…, #… or a user name",
                            "{value}: ?… や #…、ユーザー名を付けずにアドレスを入力してください。"),
    "address.not_installed": (
        "cloudflared (Cloudflare's tunnel program) is not installed on this computer. Install it from {page} "
        "(Windows: winget install --id Cloudflare.cloudflared; macOS: brew install cloudflared), then try again, "
        "or use an HTTPS address of your own.",
        "このコンピューターには cloudflared（Cloudflare のトンネルプログラム）がインストールされていません。"
        "{page} からインストールして（Windows: winget install --id Cloudflare.cloudflared、macOS: brew install "
        "cloudflared）もう一度お試しいただくか、お持ちの HTTPS アドレスを使ってください。"),
    "address.stopped_before_start": ("the tunnel was stopped before it started", "トンネルは開始する前に停止されました。"),
    "address.stopped_before_up": ("the tunnel was stopped before it was up", "トンネルは接続が確立する前に停止されました。"),
    "address.cannot_start": ("cloudflared could not be started ({detail})", "cloudflared を起動できませんでした（{detail}）。"),
    "address.exited_without_address": ("cloudflared stopped (exit code {code}) and did not give an address",
                                       "cloudflared がアドレスを返さずに終了しました（終了コード {code}）。"),
    "address.exited_after_address": ("cloudflared stopped (exit code {code}) right after giving its address",
                                     "cloudflared がアドレスを返した直後に終了しました（終了コード {code}）。"),
    "address.timeout": ("cloudflared did not give an address within {seconds} seconds; check this computer's "
                        "internet connection and try again",
                        "cloudflared から{seconds}秒以内にアドレスが返りませんでした。このコンピューターのインターネット接続を"
                        "確認して、もう一度お試しください。"),
    # ----- start at login -----
    "autostart.windows_only": ("start at login through the registry is for Windows only",
                               "レジストリによるログイン時の起動は Windows 専用です。"),
    "autostart.windows_save": ("Windows refused to save the start-at-login setting: {detail}",
                               "ログイン時に起動する設定を Windows に保存できませんでした: {detail}"),
    "autostart.windows_remove": ("Windows refused to remove the start-at-login setting: {detail}",
                                 "ログイン時に起動する設定を Windows から削除できませんでした: {detail}"),
    "autostart.save": ("could not save the start-at-login setting: {detail}", "ログイン時に起動する設定を保存できませんでした: {detail}"),
    "autostart.remove": ("could not remove the start-at-login setting: {detail}",
                         "ログイン時に起動する設定を削除できませんでした: {detail}"),
    # ----- one window per data folder (said before the window's own translations are loaded) -----
    "window.not_answering": ("Shiftcast is already open for the data folder {folder} but does not answer. Quit it "
                             "(or end it in the task manager) and start Shiftcast again.",
                             "データフォルダー {folder} のShiftcastはすでに起動していますが、応答がありません。"
                             "そのShiftcastを終了して（終了できないときはタスクマネージャーで終了して）から、"
                             "もう一度起動してください。"),
    # ----- a folder or file that cannot be written (core/store/data_folder.py, for the CLI and the window) -----
    # The command line's own words are in cli/texts.py; these keep their codes, which logs quote.
    "cli.disk_full": ("the disk is full: cannot write {what} at {where}", "ディスクがいっぱいです。{where} に{what}を書き込めません。"),
    "cli.not_a_folder": ("cannot create {what} at {path}: {where} is a file, not a folder",
                         "{path} に{what}を作成できません。{where} はフォルダーではなくファイルです。"),
    "cli.not_writable": ("{what} is not writable: {where} (check its permissions)",
                         "{what}に書き込めません: {where}（アクセス権を確認してください）"),
    "cli.no_log.read_only_folder": ("the data folder {path} is read-only: this run kept no log",
                                    "データフォルダー {path} は読み取り専用のため、今回はログを残していません"),
    "cli.no_log.log_file": ("the log file {path} is not writable: this run kept no log (check its permissions)",
                            "ログファイル {path} に書き込めないため、今回はログを残していません（アクセス権を確認してください）"),
    "cli.cannot_write": ("cannot write {what} at {where}: {detail}", "{where} に{what}を書き込めません: {detail}"),
    # ----- will the teachers get their messages? (core/setup/readiness.py) -----
    "readiness.summary.ready": ("ready to send: the teachers will get their messages",
                                "送信の準備ができています。講師にメッセージが届きます。"),
    "readiness.summary.partly": (Plural("count", "messages can go, but {count} thing needs a look",
                                        "messages can go, but {count} things need a look"),
                                 "メッセージは送信できますが、{count}件の確認が必要です。"),
    "readiness.summary.blocked": (Plural("count", "not ready: {count} thing stops the teachers' messages",
                                         "not ready: {count} things stop the teachers' messages"),
                                  "準備ができていません。{count}件の問題のため、講師にメッセージを送信できません。"),
    "readiness.more": ("and {count} more", "ほか{count}件"),
    # No account name known: a token was saved (or changed) and no connection test has asked LINE since.
    "readiness.line.ok": ("LINE is connected; which account has not been checked yet (Settings, LINE, "
                          "Test connection)",
                          "LINEに接続済みです。どのアカウントかはまだ確認していません（設定の「LINE」の「接続テスト」）。"),
    "readiness.line.ok_named": ("LINE is connected as {account}", "LINE公式アカウント「{account}」に接続済みです。"),
    "readiness.line.missing": ("LINE is not connected: no message can be sent",
                               "LINEに接続していないため、メッセージを送信できません。"),
    "readiness.line.not_used": ("LINE is not connected, and no classroom or teacher uses it",
                                "LINEには接続していませんが、LINEを使う教室・講師はいません。"),
    "readiness.line.fix": ("connect LINE (Settings, LINE)", "LINEに接続してください（設定の「LINE」）。"),
    "readiness.keyring.broken": ("the keyring cannot be used, so the LINE credentials cannot be read: {detail}",
                                 "キーリングを使えないため、LINEの認証情報を読み込めません: {detail}"),
    "readiness.keyring.fix": ("make the keyring work, or give the credentials in the environment",
                              "キーリングを使えるようにするか、認証情報を環境変数で指定してください。"),
    "readiness.receiving.ok": ("LINE can reach Shiftcast at {address}", "LINEからShiftcast（{address}）に届きます。"),
    "readiness.receiving.recorded": ("as Shiftcast said at {at}", "{at} 時点のShiftcastの記録です。"),
    "readiness.receiving.last_heard": ("LINE last delivered an event at {at}", "LINEから最後に届いたのは {at} です。"),
    "readiness.receiving.closed": ("LINE cannot reach Shiftcast now: pairing codes and 了解 taps are not received "
                                   "while Shiftcast is closed",
                                   "現在LINEからShiftcastに届きません。Shiftcastを閉じている間は、ペアリングコードと"
                                   "了解ボタンの操作を受け取れません。"),
    "readiness.receiving.not": ("LINE cannot reach Shiftcast now, so pairing codes and 了解 taps are not received: "
                                "{why}",
                                "現在LINEからShiftcastに届かないため、ペアリングコードと了解ボタンの操作を受け取れません: "
                                "{why}"),
    "readiness.receiving.elsewhere": ("LINE's webhook points at {elsewhere}, not at Shiftcast ({address}): pairing "
                                      "codes and 了解 taps go there",
                                      "LINEのWebhookはShiftcast（{address}）ではなく {elsewhere} を指しています。"
                                      "ペアリングコードと了解ボタンの操作はそちらに届きます。"),
    "readiness.receiving.not_chosen": ("Shiftcast does not receive from LINE: pairing codes and 了解 taps are not "
                                       "received",
                                       "ShiftcastはLINEからの受信をしていないため、ペアリングコードと了解ボタンの操作を"
                                       "受け取れません。"),
    "readiness.receiving.works_ok": ("LINE WORKS' bot reaches Shiftcast at {address} (its callback address)",
                                     "LINE WORKSのBotからShiftcast（{address}、コールバックURL）に届きます。"),
    "readiness.receiving.works_not": ("LINE WORKS cannot reach Shiftcast now: 了解 taps are not received",
                                      "LINE WORKSからShiftcastに届かないため、「了解」のタップを受け取れません。"),
    "readiness.receiving.no_line": ("LINE cannot reach Shiftcast until LINE is connected",
                                    "LINEに接続するまで、LINEからShiftcastには届きません。"),
    "readiness.receiving.fix": ("keep Shiftcast open or in the tray: while it runs it receives and points LINE's "
                                "webhook at itself",
                                "Shiftcastを開いておくかトレイに置いてください。動いている間は受信し、LINEのWebhookを"
                                "Shiftcastに向けます。"),
    "readiness.receiving.fix_connect": ("connect LINE and keep receiving at its last step",
                                        "LINEに接続し、最後の手順で「LINEからのイベントを受信し続ける」を選んでください。"),
    "readiness.groups.no_classroom": ("there is no classroom yet", "教室がまだありません。"),
    "readiness.groups.fix_add": ("add a classroom and choose its LINE group", "教室を追加して、LINEグループを選んでください。"),
    "readiness.groups.ok": (Plural("count", "the classroom has its LINE group", "all {count} classrooms have their LINE group"),
                            "すべての教室（{count}教室）にLINEグループがあります。"),
    "readiness.groups.missing": (Plural("count", "{count} of {total_count} classrooms has no LINE group",
                                        "{count} of {total_count} classrooms have no LINE group"),
                                 "{count}教室でLINEグループが選ばれていません（全{total_count}教室）。"),
    "readiness.groups.missing_one": ("{classroom}: no LINE group chosen", "{classroom}: LINEグループが選ばれていません"),
    "readiness.groups.fix": ("choose each classroom's group in Connect LINE; until then reminders still reach each "
                             "teacher, and a published month waits for its group",
                             "「LINEに接続」で教室ごとのグループを選んでください。それまでも講師ごとのリマインダーは"
                             "届き、公開した月はグループが選ばれると送信されます。"),
    "readiness.teachers.none": ("there are no teachers yet", "講師がまだ登録されていません。"),
    "readiness.teachers.count": (Plural("count", "{reached_count} of {count} teacher can be reached",
                                        "{reached_count} of {count} teachers can be reached"),
                                 "{count}人中{reached_count}人の講師に届きます。"),
    "readiness.teachers.why": ("{teacher}: {reasons}", "{teacher}さん: {reasons}"),
    "readiness.teachers.fix": ("pair the teachers on LINE, or ask them to agree", "講師の登録を行うか、講師に同意を依頼してください。"),
    "readiness.teachers.fix_email": ("set up e-mail in Settings", "設定でメールを設定してください。"),
    "readiness.teacher.no_way": ("chose no way to be reached", "連絡方法が選ばれていません"),
    "readiness.teacher.no_address": ("no {channel} address (not paired)", "{channel}の連絡先がありません（未登録）"),
    "readiness.teacher.not_agreed": ("has not agreed to {channel}", "{channel}での連絡に同意していません"),
    # Any channel's: LINE's block or unfollow, a mail server's refusal.
    "readiness.teacher.unreachable": ("{channel} can no longer reach them (blocked, unfollowed or refused)",
                                      "{channel}で届かなくなりました（ブロック、友だち解除、受信拒否など）"),
    "readiness.teacher.channel_not_set_up": ("{channel} is not set up", "{channel}が設定されていません"),
    "readiness.month.ok": ("the month image is posted through image hosting",
                           "月のシフト表の画像は画像ホスティング経由で投稿します。"),
    "readiness.month.relay": ("the month image is posted through the relay",
                              "月のシフト表の画像は中継サーバー経由で投稿します。"),
    "readiness.month.button": ("the month goes to the group as a button to the teachers' page: no image hosting needed",
                               "月のシフト表は講師ページへのボタンでグループに送ります（画像ホスティングは不要です）。"),
    "readiness.month.no_hosting": ("no image hosting: the month goes to the group as a list, not as the image",
                                   "画像ホスティングがないため、月のシフト表は画像ではなく一覧でグループに送ります。"),
    "readiness.month.fix": ("set up image hosting in Settings", "設定で画像ホスティングを設定してください。"),
    "readiness.month.broken": ("image hosting is set up but does not work, so the month goes to the group as a "
                               "list, not as the image: {why}",
                               "画像ホスティングは設定されていますが使えないため、月のシフト表は画像ではなく一覧で"
                               "グループに送ります: {why}"),
    "readiness.month.refused": ("the image hosting refused the month sent at {at}: {said}",
                                "{at} に送った月のシフト表を画像ホスティングが受け付けませんでした: {said}"),
    "readiness.month.fix_broken": ("check the image hosting settings and its secret access key in Settings, then "
                                   "try Test upload",
                                   "設定で画像ホスティングの設定とシークレットアクセスキーを確認し、"
                                   "「テストアップロード」を試してください。"),
    "readiness.autostart.on": ("Shiftcast starts at login", "ログイン時にShiftcastが起動します。"),
    "readiness.autostart.off": ("Shiftcast does not start at login: after a restart nothing sends until it is opened",
                                "ログイン時に起動しないため、再起動後はShiftcastを開くまで何も送信しません。"),
    "readiness.autostart.unknown": ("cannot tell whether Shiftcast starts at login",
                                    "ログイン時にShiftcastが起動するかどうかわかりません。"),
    "readiness.autostart.fix": ("turn on start at login", "ログイン時に起動する設定をオンにしてください。"),
    "readiness.relay.ok": ("the relay on Cloudflare holds the LINE credentials saved here",
                           "Cloudflare の中継サーバーは、ここに保存したLINEの認証情報を使っています。"),
    "readiness.relay.old": ("the relay on Cloudflare still holds the LINE credentials saved before: while every PC sleeps, "
                            "LINE may refuse what it sends",
                            "Cloudflare の中継サーバーは、以前に保存したLINEの認証情報をまだ使っています。すべてのPCが止まっている間、"
                            "中継サーバーからの送信がLINEに拒否されることがあります。"),
    "readiness.relay.fix": ("deploy again in Settings → Always on (Shiftcast also does it at its next start while the "
                            "Cloudflare token is saved)",
                            "「設定」→「常時稼働」でもう一度設置してください（Cloudflare のトークンが保存されていれば、"
                            "次の起動時にも自動で更新します）。"),
    # ----- the teachers' page: its settings and readiness (core/setup/teachers_page.py) -----
    "teachers_page.opt_in": ("Your relay will keep each paired teacher's name and published shifts, open availability "
                             "requests and cover calls, until 7 days after each month ends",
                             "中継サーバーは、登録済みの各講師の名前と公開済みのシフト、受付中の希望調査と代講の募集を、"
                             "各月の終わりから7日後まで保管します"),
    "teachers_page.both_ids": ("paste both the LINE Login channel ID and the LIFF ID, or leave both empty",
                               "LINEログインのチャネルIDとLIFF IDの両方を貼り付けるか、両方とも空にしてください。"),
    "teachers_page.needs_ids": ("the teachers' page needs the LINE Login channel ID and the LIFF ID: paste them before "
                                "turning it on",
                                "講師ページにはLINEログインのチャネルIDとLIFF IDが必要です。オンにする前に貼り付けてください。"),
    "teachers_page.other_channel": ("the LIFF ID {liff_id} belongs to LINE Login channel {owner}, not {channel}: add the "
                                    "LIFF app to the channel whose ID you pasted, or paste that channel's ID",
                                    "LIFF ID {liff_id} はLINEログインのチャネル {owner} のもので、{channel} のものではありません。"
                                    "貼り付けたIDのチャネルにLIFFアプリを追加するか、そのチャネルのIDを貼り付けてください。"),
    "teachers_page.messaging_channel": ("{channel} is the Messaging API channel's ID: the page needs the ID of a LINE Login "
                                        "channel made under the same provider",
                                        "{channel} はMessaging APIチャネルのIDです。講師ページには、同じプロバイダーで作成した"
                                        "LINEログインチャネルのIDが必要です。"),
    "page.button.mine": ("Open my page", "マイページを開く"),
    "page.button.classroom": ("See the month", "今月のシフトを見る"),
    "readiness.pages.ok": ("teachers' page on", "講師ページはオンです。"),
    "readiness.pages.no_ids": ("the teachers' page is on but its LINE Login channel ID or LIFF ID is missing: messages go "
                               "without its buttons",
                               "講師ページはオンですが、LINEログインのチャネルIDまたはLIFF IDがありません。メッセージはボタンなしで送られます。"),
    "readiness.pages.no_relay": ("the teachers' page is on but no relay is attached to serve it: messages go without its "
                                 "buttons",
                                 "講師ページはオンですが、配信する中継サーバーが設定されていません。メッセージはボタンなしで送られます。"),
    "readiness.pages.fix": ("fill in the Teachers' page step of Connect LINE", "「LINEに接続」の「講師ページ」の手順を完了してください。"),
    # ----- LINE WORKS: set-up and readiness (core/setup/line_works.py) -----
    "line_works.state.not_set_up": ("LINE WORKS is not set up", "LINE WORKS はまだ設定されていません。"),
    "line_works.state.set_up": ("LINE WORKS is set up; not tested yet", "LINE WORKS は設定済みです（まだテストしていません）。"),
    "line_works.state.tested": ("LINE WORKS is set up; the test at {at} worked",
                                "LINE WORKS は設定済みです。{at} のテストは成功しました。"),
    "line_works.state.test_failed": ("the LINE WORKS test at {at} failed: {why}",
                                     "{at} の LINE WORKS のテストは失敗しました：{why}"),
    "line_works.state.refused": ("LINE WORKS refused the saved credentials when sending: its messages wait",
                                 "送信時に LINE WORKS が保存済みの認証情報を拒否しました。LINE WORKS のメッセージは送信を待っています。"),
    "line_works.state.refused_since": ("LINE WORKS refused the saved credentials when sending at {since}: its "
                                       "messages wait", "{since} の送信時に LINE WORKS が保存済みの認証情報を拒否しました。"
                                       "LINE WORKS のメッセージは送信を待っています。"),
    "line_works.test.ok": ("LINE WORKS gave Shiftcast an access token: the app, its service account and private key work",
                           "LINE WORKS からアクセストークンを取得できました。アプリ・サービスアカウント・秘密鍵は正しく使えます。"),
    "line_works.test.failed": ("the test failed: {why}", "テストに失敗しました：{why}"),
    "line_works.test.not_set_up": ("save the LINE WORKS values first", "先に LINE WORKS の値を保存してください。"),
    "line_works.key.unreadable": ("the private key file {path} cannot be read: {detail}",
                                  "秘密鍵のファイル {path} を読み込めません：{detail}"),
    "line_works.key.not_pem": ("{path} is not a private key file: choose the .key file the Developer Console gave "
                               "when the private key was issued",
                               "{path} は秘密鍵のファイルではありません。Developer Console で秘密鍵を発行したときに保存した .key ファイルを選んでください。"),
    "readiness.line_works.ok": (Plural("count", "LINE WORKS is set up and reaches {count} teacher",
                                       "LINE WORKS is set up and reaches {count} teachers"),
                                "LINE WORKS は設定済みで、{count}人の講師に届きます。"),
    "readiness.line_works.tested": ("Tested at {at}: it worked", "{at} のテストは成功しました"),
    "readiness.line_works.not_tested": ("Not tested yet (Settings → LINE WORKS, Test)",
                                        "まだテストしていません（「設定」→「LINE WORKS」の「テスト」）"),
    "readiness.line_works.missing": (Plural("count", "LINE WORKS is not set up: {count} teacher with a LINE WORKS ID "
                                            "gets nothing on it", "LINE WORKS is not set up: {count} teachers with a "
                                            "LINE WORKS ID get nothing on it"),
                                     "LINE WORKS が設定されていないため、LINE WORKS ID のある講師{count}人には LINE WORKS で届きません。"),
    "readiness.line_works.keyring": ("the keyring cannot be used, so the LINE WORKS credentials cannot be read: {detail}",
                                     "キーリングを使えないため、LINE WORKS の認証情報を読み込めません：{detail}"),
    "readiness.line_works.fix": ("enter the LINE WORKS values in Settings → LINE WORKS, then Test",
                                 "「設定」→「LINE WORKS」で値を入力し、「テスト」を押してください。"),
    "readiness.line_works.rooms_ok": (Plural("count", "the classroom with teachers on LINE WORKS has its LINE WORKS "
                                             "channel", "all {count} classrooms with teachers on LINE WORKS have their "
                                             "LINE WORKS channel"),
                                      "LINE WORKS の講師がいる教室（{count}教室）には、すべて LINE WORKS のトークルームがあります。"),
    "readiness.line_works.rooms_missing": (Plural("count", "{count} classroom with teachers on LINE WORKS has no LINE "
                                                  "WORKS channel for its month", "{count} classrooms with teachers on "
                                                  "LINE WORKS have no LINE WORKS channel for their month"),
                                           "LINE WORKS の講師がいる{count}教室に、月のシフトを送る LINE WORKS のトークルームがありません。"),
    "readiness.line_works.rooms_missing_one": ("{classroom}: no LINE WORKS channel", "{classroom}: LINE WORKS のトークルームがありません"),
    "readiness.line_works.rooms_fix": ("enter each classroom's LINE WORKS channel ID in Settings → Classrooms; until then "
                                       "reminders still reach each teacher",
                                       "「設定」→「教室」で各教室の LINE WORKS チャンネルIDを入力してください。それまでもリマインドは各講師に届きます。"),
    "readiness.sender.now": ("a sender is running", "送信処理が動いています。"),
    "readiness.sender.last": ("nothing is sending now; a sender last checked in at {at}",
                              "現在は何も送信していません。最後に送信処理が動いていたのは {at} です。"),
    "readiness.sender.never": ("nothing is sending now: messages wait until Shiftcast runs",
                               "現在は何も送信していません。Shiftcastが動くまでメッセージは送信されません。"),
    "readiness.sender.fix": ("leave this computer on with Shiftcast open or in the tray",
                             "このコンピューターの電源を入れたまま、Shiftcastを開いておくかトレイに置いてください。"),
    "readiness.unacknowledged": (Plural("count", "{count} shift in the next {hours} hours is not acknowledged: {shifts}",
                                        "{count} shifts in the next {hours} hours are not acknowledged: {shifts}"),
                                 "{hours}時間以内に始まる{count}件のシフトに了解がありません: {shifts}"),
    "word.shift_not_acknowledged": ("{teacher} ({classroom} {start})", "{teacher}さん（{classroom} {start}）"),
    "readiness.unacknowledged.ok": ("every reminder for a shift in the next {hours} hours is acknowledged",
                                    "{hours}時間以内に始まるシフトのリマインダーはすべて了解済みです。"),
    "readiness.unacknowledged.fix": ("ask these teachers whether they saw their reminder",
                                     "これらの講師にリマインダーを見たかご確認ください。"),
    # ----- a publication's dry run (core/publication/publish.py) -----
    "publish.warn.unchanged": ("nothing changed since revision {revision}", "第{revision}版から変更はありません"),
    "publish.warn.quota": (Plural("left_count", "LINE's monthly quota would not cover it: {left_count} message left, this publication "
                                  "needs {needed_count}", "LINE's monthly quota would not cover it: {left_count} messages "
                                  "left, this publication needs {needed_count}"),
                           "LINEの今月の送信数が足りません: 残り {left_count}通に対し、この公開には {needed_count}通必要です"),
    # ----- why a delivery was not sent (Deliveries' Last error, its attempts, the CLI) -----
    # "send_error.<ErrorCode value>" (core/outbox/policy.py); a channel's own codes' words are its
    # driver's `texts` (core/channels/). `said` is the answer's own words (LINE's message and details,
    # the mail server's reply), kept as they came: send_error.said, or text.plain with "" when the
    # answer had none.
    "send_error.said": (": {words}", ": {words}"),
    "send_error.coded": ("{code}: {error}", "{code}: {error}"),  # the code first, as the Deliveries detail shows it
    "send_error.AUTH_FAILED": ("LINE refused the channel access token (HTTP {status}){said}",
                               "LINEがチャネルアクセストークンを受け付けませんでした（HTTP {status}）{said}"),
    "send_error.RATE_LIMITED": ("too many requests in a short time (HTTP {status}){said}",
                                "短時間の送信が多すぎるため、受け付けられませんでした（HTTP {status}）{said}"),
    "send_error.QUOTA_EXHAUSTED": ("the LINE account has used up this month's messages (HTTP {status}){said}",
                                   "LINE公式アカウントの今月の送信数が上限に達しました（HTTP {status}）{said}"),
    "send_error.TIMEOUT": ("no answer before the timeout{said}", "時間内に応答がありませんでした{said}"),
    "send_error.CONNECTION_ERROR": ("could not connect{said}", "接続できませんでした{said}"),
    "send_error.UPLOAD_FAILED": ("the image upload failed{said}", "画像のアップロードに失敗しました{said}"),
    "send_error.HOSTING_UNUSABLE": ("image hosting cannot be used, so the month goes to the group as a message, "
                                    "without the image{said}",
                                    "画像ホスティングを使えないため、月のシフト表は画像ではなくメッセージで"
                                    "グループに送ります{said}"),
    "sending.not_set_up": ("{channel} is not set up", "{channel}が設定されていません。"),
    "sending.not_usable": ("{channel} cannot be used: {detail}", "{channel}を使えません: {detail}"),
    "send_error.NOT_SET_UP": ("waiting, not tried: {missing}", "送信待ちです（まだ送信していません）: {missing}"),
    "send_error.DEFERRED": ("not tried yet: its batch ran out of time{said}",
                            "まだ送信していません（まとめて送信する時間が足りませんでした）{said}"),
    "send_error.RETRY_KEY_EXPIRED": ("the retry key is older than 24 hours, so LINE could no longer recognise a "
                                     "duplicate; whether the last attempt arrived is unknown",
                                     "再送キーが発行から24時間を過ぎたため、LINEが重複を見分けられません。"
                                     "前回の送信が届いたかどうかはわかりません。"),
    "send_error.SMTP_NOT_CONFIGURED": ("set up e-mail (server and from address) in Settings first",
                                       "先に設定でメール（メールサーバーと送信元アドレス）を設定してください。"),
    "send_error.HOSTING_NOT_CONFIGURED": ("LINE shows images only from a public HTTPS address: set up image hosting "
                                          "in Settings",
                                          "LINEは公開されたHTTPSのアドレスにある画像しか表示できません。"
                                          "設定で画像ホスティングを設定してください。"),
    "send_error.UNSUPPORTED_KIND": ("no {channel} message is defined for {kind} deliveries",
                                    "{kind} の配信には {channel} のメッセージがありません。"),
    "send_error.MONTH_TOO_LARGE": ("the month needs {count} LINE messages, more than one push carries; set up "
                                   "image hosting in Settings to send it as an image",
                                   "この月のシフト表はLINEのメッセージ{count}件になり、一度に送れる数を超えます。"
                                   "画像として送るには、設定で画像ホスティングを設定してください。"),
    # ----- availability requests (core/roster/availability.py, core/messages/availability_flex.py) -----
    "kind.availability_request": ("Availability request", "シフト希望の確認"),
    "plan.why.availability_request": ("asks when the teacher can work", "出勤できる日の確認"),
    "cancel.AVAILABILITY_MISSING": ("the availability request no longer exists", "シフト希望の依頼の記録がありません"),
    "cancel.AVAILABILITY_ANSWERED": ("the teacher answered before the reminder went",
                                     "リマインドの前に講師が回答しました"),
    "availability.no_request": ("no availability request was found", "シフト希望の依頼が見つかりません。"),
    "availability.bad_month": ("the month must be 1 to 12", "月は1から12で指定してください。"),
    "availability.bad_remind_days": ("the days before the deadline cannot be negative",
                                     "締切の何日前かは0以上で指定してください。"),
    "availability.nobody": ("no teacher to ask: none of them can be reached on LINE or by e-mail",
                            "依頼できる講師がいません。LINEでもメールでも連絡できる講師がいません。"),
    "availability.title": ("{classroom}: when can you work in {month}?", "{classroom} {month}のシフト希望"),
    "availability.deadline": ("Please answer by {deadline}.", "{deadline}までに回答してください。"),
    "availability.alt": ("When can you work in {month}? Please answer by {deadline}.",
                         "{month}のシフト希望を{deadline}までに教えてください。"),
    "availability.alt_reminder": ("Reminder: when can you work in {month}? Please answer by {deadline}.",
                                  "【再送】{month}のシフト希望を{deadline}までに教えてください。"),
    "availability.reminder_line": ("We have not had your answer yet.", "まだ回答をいただいていません。"),
    "availability.how_buttons": ("Tap ○ for a day you can work, × for a day you cannot, △ to give the hours.",
                                 "出勤できる日は○、できない日は×、時間を指定するときは△を押してください。"),
    "availability.how_text": ("You can also write it, for example \u201ctue/thu 17:00~\u201d, \u201c12/5 \u00d7\u201d or "
                              "\u201call ok\u201d.",
                              "「火木 17時以降」「12/5 ×」「全部OK」のように文字で送ることもできます。"),
    "availability.until_label": ("Until when", "終わりの時刻"),
    "availability.ask_until": ("{day}: from the time you chose. Until when? Tap below, or leave it open.",
                               "{day}：選んだ時刻から出勤できます。終わりの時刻があれば下のボタンで選んでください。"),
    "availability.summary": (Plural("count", "Your availability for {month}: {count} day answered, {missing_count} not yet.",
                                     "Your availability for {month}: {count} days answered, {missing_count} not yet."),
                             "{month}のシフト希望を受け付けました（回答 {count}日、未回答 {missing_count}日）。"),
    "availability.tap_summary": (Plural("count", "{day}: {mark}. {count} day of {month} answered, {missing_count} not yet.",
                                         "{day}: {mark}. {count} days of {month} answered, {missing_count} not yet."),
                                 "{day}：{mark} を受け付けました（{month} 回答 {count}日、未回答 {missing_count}日）。"),
    "availability.month_over": ("{month} is over, so this answer was not recorded. If something needs changing, "
                                "please tell the classroom manager.",
                                "{month}はすでに終わっているため、この回答は記録していません。変更が必要な場合は、"
                                "教室の担当者にお知らせください。"),
    "availability.correct": ("To correct a day, tap its button again or write it.",
                             "直すときは、もう一度ボタンを押すか、文字で送ってください。"),
    "availability.not_understood": ("Sorry, we could not read that for certain. Write, for example, "
                                    "\u201ctue/thu 17:00~\u201d, \u201c12/5 \u00d7\u201d or \u201call ok\u201d, "
                                    "or use the buttons below.",
                                    "内容を確かに読み取れませんでした。「火木 17時以降」「12/5 ×」「全部OK」のように"
                                    "送るか、下のボタンで回答してください。"),
    "send_error.BUTTONS_UNSIGNED": ("the answer buttons cannot be signed without a keyring: {detail}",
                                    "キーリングがないため回答ボタンに署名できません: {detail}"),
    "availability.late": ("after the deadline", "締切後"),
    # The request by e-mail (core/messages/availability_mail.py), and the manager's entry of the reply.
    "availability.mail.how": ("Please reply to this e-mail: write ○ (you can work), × (you cannot) or the hours"
                              " (for example 17:00~ or 17:00-21:00) after each day below, or write it in a few words"
                              " such as \u201ctue/thu 17:00~\u201d or \u201call ok\u201d. The manager enters your"
                              " answers.",
                              "このメールに返信してお知らせください。下の日付のあとに ○（出勤できる）、×（できない）、"
                              "または時間（例：17時以降、17:00-21:00）を書いてください。「火木 17時以降」「全部OK」の"
                              "ような書き方でもかまいません。担当者が入力します。"),
    "availability.mail.deadline_short": ("answers by {deadline}", "締切 {deadline}"),
    "availability.nothing_entered": ("no answer to enter: give at least one day", "入力する回答がありません。"
                                     "1日以上の回答を指定してください。"),
    # ----- the draft month (core/drafting; `shiftcast draft`) -----
    "draft.file.bad": ("{field}: expected {expected}", "項目 {field} の値が正しくありません。{expected}"),
    "draft.expect.object": ("a JSON object", "JSON のオブジェクトを指定してください。"),
    "draft.expect.list": ("a JSON list", "JSON のリストを指定してください。"),
    "draft.expect.text": ("a name (text)", "名前（文字列）を指定してください。"),
    "draft.expect.date": ("a date such as \"2027-01-04\"", "\"2027-01-04\" のような日付を指定してください。"),
    "draft.expect.time": ("a time such as \"16:50\"", "\"16:50\" のような時刻を指定してください。"),
    "draft.expect.count": ("a whole number, 0 or more", "0以上の整数を指定してください。"),
    "draft.expect.answer": ("\"yes\", \"no\" or a time window with \"from\" and \"to\"",
                            "\"yes\"、\"no\"、または \"from\" と \"to\" のある時間帯を指定してください。"),
    "draft.expect.policy": ("\"no\" or \"yes\"", "\"no\" または \"yes\" を指定してください。"),
    "draft.expect.seconds": ("seconds, more than 0 and at most 3600", "0より大きく3600以下の秒数を指定してください。"),
    "draft.expect.present": ("a value (it is missing)", "この項目がありません。"),
    "draft.expect.known_field": ("one of {fields} (this field is unknown)",
                                 "不明な項目です。使える項目：{fields}"),
    "draft.expect.after_start": ("a time after the start", "開始より後の時刻を指定してください。"),
    "draft.expect.unique": ("a name used once only", "重複しない名前を指定してください。"),
    "draft.expect.listed_day": ("one of the days in \"days\"", "\"days\" にある日付を指定してください。"),
    "draft.expect.listed_slot": ("one of the slots in \"slots\" (of the same classroom)",
                                 "\"slots\" にある（同じ教室の）コマを指定してください。"),
    "draft.expect.listed_teacher": ("one of the teachers' ids", "講師の id のいずれかを指定してください。"),
    "draft.expect.json": ("JSON (the file cannot be read as JSON here)", "JSON として読めません。"),
    "draft.why": ("{parts}", "{parts}"),
    "draft.reason.nobody_teaches": ("nobody can teach this slot", "このコマを担当できる講師がいません。"),
    "draft.reason.all_on_it": ("everyone who can teach it is on it already",
                               "担当できる講師は全員すでに入っています。"),
    "draft.reason.nobody_yes": ("nobody answered ○ for that day", "この日に○と回答した講師がいません。"),
    "draft.reason.at_limit": ("at their monthly limit: {teachers}", "月の上限に達しています：{teachers}"),
    "draft.reason.days_in_a_row": ("it would make more days in a row than allowed for {teachers}",
                                   "{teachers}の連続勤務日数の上限を超えてしまいます。"),
    "draft.reason.weekend_days": ("it would make more weekend days than allowed for {teachers}",
                                  "{teachers}の土日の勤務日数の上限を超えてしまいます。"),
    "draft.reason.outside_window": ("only outside their time window: {teachers}",
                                    "回答した時間帯の外です：{teachers}"),
    "draft.reason.busy": ("on another shift at that time: {teachers}", "同じ時間に別のシフトがあります：{teachers}"),
    "draft.reason.said_no": ("answered ×: {teachers}", "×と回答：{teachers}"),
    "draft.reason.no_answer": ("did not answer (counted as not available): {teachers}",
                               "未回答（出勤不可として扱います）：{teachers}"),
    "draft.reason.could": ("could still take it; the search stopped before finding it: {teachers}",
                           "入れる可能性があります（探索が途中で止まりました）：{teachers}"),
    "send_error.IMAGE_MISSING": ("the image of revision {revision} is missing from the data folder",
                                 "第{revision}版の画像がデータフォルダーにありません。"),
}

# Core's messages first, then each registered front end's: what `t()` and `render` look codes up in.
MESSAGES: ChainMap[str, tuple[Template, Template]] = ChainMap(CATALOG)


def register_catalog(entries: Mapping[str, tuple[Template, Template]]) -> None:
    """Make a front end's own messages known to `t()` and `render`. A code means one thing everywhere:
    one already known with other words is refused; registering the same entries again changes nothing."""
    clash = sorted(code for code, texts in entries.items() if MESSAGES.get(code, texts) != texts)
    if clash:
        raise ValueError(f"codes already in the catalog with other words: {', '.join(clash)}")
    MESSAGES.maps.append({code: texts for code, texts in entries.items() if code not in MESSAGES})
