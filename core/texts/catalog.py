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
    "roster.classroom_exists": ("a classroom named '{name}' already exists", "「{name}」という教室はすでにあります。"),
    "roster.teacher_exists": ("a teacher named '{name}' already exists", "「{name}」という講師はすでに登録されています。"),
    "roster.name_missing": ("the {what} needs a name", "{what}の名前を入力してください。"),
    "roster.name_too_long": ("the {what} name is longer than 200 characters",
                             "{what}の名前は200文字以内で入力してください。"),
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
    "roster.unknown_shift_fields": ("unknown shift field(s): {fields}", "シフトにない項目です: {fields}"),
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
    "roster.bad_email": ("malformed e-mail address '{value}'", "メールアドレス「{value}」の形式が正しくありません。"),
    "copy.day": ("{day}: {reason}", "{day}: {reason}"),
    "copy.rejected": ("nothing was copied: {problems}", "コピーしていません: {problems}"),
    "copy.same_day": ("this is the day of the shift being copied", "コピー元のシフトと同じ日です。"),
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
    "csv.missing_columns": ("the header lacks column(s) {missing} (found: {found})",
                            "見出しに必要な列がありません: {missing}（見つかった列: {found}）"),
    "csv.duplicate_columns": ("column(s) {columns} appear more than once", "同じ列が2回以上あります: {columns}"),
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
    "alert.pairing_paused": ("Connecting teachers on LINE is paused: too many wrong pairing codes came within an hour",
                             "1時間のうちに誤った登録コードが多数送られたため、LINEでの講師の登録を一時停止しています。"),
    "alert.pairing_paused.detail": (
        "No pairing code from anyone is accepted until {until} UTC, so that codes cannot be guessed. A teacher who "
        "sends their code before then gets no answer and can send it again afterwards.",
        "コードを推測されないよう、{until}（UTC）まで、だれからの登録コードも受け付けません。それまでにコードを送った講師には"
        "返信がありませんので、その後にもう一度送ってもらってください。"),
    # ----- why a delivery was canceled (Deliveries, the CLI) -----
    "cancel.SHIFT_MISSING": ("the shift no longer exists", "シフトが削除されています"),
    "cancel.SHIFT_CHANGED": ("the shift changed since; the newer version is sent instead",
                             "シフトが変更されたため、新しい内容を送ります"),
    "cancel.SHIFT_STARTED": ("the shift had already started", "シフトの開始時刻を過ぎていました"),
    "cancel.SHIFT_NOT_CONFIRMED": ("the shift is not confirmed", "シフトが確定していません"),
    "cancel.TEACHER_INACTIVE": ("the teacher has left or was erased", "講師が在籍していないか、削除されています"),
    "cancel.TEACHER_CHANGED": ("the shift went to another teacher", "シフトの担当が別の講師に変わりました"),
    "cancel.CHANNEL_CHANGED": ("the teacher no longer receives messages this way", "講師がこの連絡方法を使わなくなりました"),
    "cancel.LINE_NOT_OPTED_IN": ("the teacher does not receive LINE messages", "講師はLINEでの通知を受け取らない設定です"),
    "cancel.EMAIL_NOT_OPTED_IN": ("the teacher does not receive e-mail", "講師はメールでの通知を受け取らない設定です"),
    "cancel.LINE_UNREACHABLE": ("LINE could not reach the teacher; sent by e-mail instead",
                                "LINEで講師に届かないため、メールで送りました"),
    "cancel.UNREACHABLE": ("the teacher could not be reached this way; sent another way instead",
                           "この方法では講師に届かないため、別の方法で送りました"),
    "cancel.LINE_UNFOLLOWED": ("the teacher blocked the LINE account", "講師がLINE公式アカウントをブロックしています"),
    "cancel.NOTHING_TOLD": ("the teacher was never told the earlier version", "講師には変更前の内容を伝えていません"),
    "cancel.NO_HISTORY": ("the earlier version of the shift is not on record", "変更前のシフトの記録がありません"),
    "cancel.NO_GROUP": ("the classroom has no LINE group any more", "教室にLINEグループが設定されていません"),
    "cancel.CLASSROOM_MISSING": ("the classroom no longer exists", "教室が削除されています"),
    "cancel.PUBLICATION_MISSING": ("the published month no longer exists", "公開した月の記録がありません"),
    "cancel.SUPERSEDED": ("a newer revision of the month replaces it", "この月の新しい版が公開されました"),
    "cancel.ALERT_MISSING": ("the alert no longer exists", "アラートが削除されています"),
    "cancel.WEBHOOK_NOT_CONFIGURED": ("no webhook is set up for alerts", "アラート用のWebhookが設定されていません"),
    "cancel.MANAGER_EMAIL_NOT_CONFIGURED": ("no e-mail address is set up for alerts",
                                            "アラート用のメールアドレスが設定されていません"),
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
    "line.answered": ("LINE answered HTTP {status}: {message}{extra}", "LINEからエラーが返されました（HTTP {status}）: {message}{extra}"),
    "line.network_error": ("LINE answered network error: {message}{extra}", "LINEに接続できませんでした: {message}{extra}"),
    "line.timeout": ("LINE did not answer in time", "LINEから時間内に応答がありませんでした"),
    "line.unreachable": ("could not reach LINE ({detail})", "LINEに接続できませんでした（{detail}）"),
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
    "publish.nowhere": ("{classroom} has no LINE group ID and none of its teachers receives e-mail; "
                        "set the group ID in Settings first",
                        "{classroom}にはLINEグループIDがなく、メールで受け取る講師もいません。先に設定画面でグループIDを設定してください。"),
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
    "keyring.missing": ("no usable keyring was found on this computer. On Linux, start a Secret Service provider "
                        "(GNOME Keyring or KWallet) in your desktop session",
                        "このコンピューターで使えるキーリングが見つかりません。Linux ではデスクトップで Secret Service"
                        "（GNOME Keyring や KWallet）を起動してください。"),
    "keyring.missing_env": ("no usable keyring was found on this computer. On Linux, start a Secret Service provider "
                            "(GNOME Keyring or KWallet) in your desktop session; for a headless sender, set the {env} "
                            "environment variable instead",
                            "このコンピューターで使えるキーリングが見つかりません。Linux ではデスクトップで Secret Service"
                            "（GNOME Keyring や KWallet）を起動してください。画面なしで送信する場合は、代わりに環境変数 {env} を設定してください。"),
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
    "setting.label.line.hold": ("the LINE hold", "LINEの配信停止の記録"),
    "setting.label.line.quota": ("LINE's monthly quota", "LINEの今月の送信数"),
    "setting.label.line.webhook.saved_endpoint": ("the webhook address to put back", "元に戻すWebhookのアドレス"),
    "setting.label.line.webhook.our_endpoint": ("the webhook address Shiftcast set", "Shiftcast が設定したWebhookのアドレス"),
    "setting.label.line.webhook.restore_pending": (
        "whether the earlier webhook address is still to be put back",
        "元のWebhookのアドレスに戻す必要があるかどうか"),
    "setting.label.line.ack_button": ("whether LINE reminders carry a 了解 button", "LINEのリマインダーに了解ボタンを付けるかどうか"),
    "setting.label.line.ack_secret": ("the 了解 button key", "了解ボタンの署名キー"),
    "setting.label.line.group_members": ("a LINE group's member count", "LINEグループのメンバー数"),
    "setting.label.sender.concurrency": ("the number of sending threads", "送信スレッドの数"),
    "setting.label.sender.lease_seconds": ("the sender's lease in seconds", "送信プロセスのリース時間（秒）"),
    "setting.label.sender.poll_seconds": ("the sender's poll interval in seconds", "送信プロセスの確認間隔（秒）"),
    "setting.label.sender.backoff_base_seconds": ("the first retry's delay in seconds", "最初の再送までの待ち時間（秒）"),
    "setting.label.sender.max_retries": ("the number of retries", "再送の回数"),
    "setting.label.sender.http_timeout_seconds": ("the LINE request timeout in seconds", "LINEへのリクエストのタイムアウト（秒）"),
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
    "setting.rule.web_address": (
        "an https:// address (plain http:// only to this computer)",
        "https:// のアドレス（http:// はこのコンピューター宛てのみ）"),
    "setting.rule.email": ("an e-mail address", "メールアドレス"),
    # ----- why a delivery is planned (the dry run: `main.py plan`) -----
    "plan.why.reminder": ("reminder", "リマインダー"),
    "plan.why.reminder_held": ("reminder (held until quiet hours end)", "リマインダー（通知しない時間帯が終わってから送ります）"),
    "plan.why.reminder_late": ("late reminder (the app was not running when it was due)",
                               "遅れて送るリマインダー（予定の時刻にアプリが動いていませんでした）"),
    "plan.why.by_email": ("{why} by e-mail (LINE cannot reach this teacher)",
                          "{why}をメールで送ります（LINEではこの講師に届きません）"),
    "plan.why.other_teacher": ("the shift went to another teacher", "シフトの担当が別の講師に変わりました"),
    "plan.why.canceled": ("the shift was canceled", "シフトが取消になりました"),
    "plan.why.changed": ("the shift changed after the teacher was told", "講師に伝えたあとでシフトが変更されました"),
    "plan.why.correction": ("correction", "変更の連絡"),
    "plan.why.publication": ("publication", "シフト表の公開"),
    "plan.why.alert": ("alert", "アラート"),
    "plan.why.retry": ("{why} (retry {attempt}: {code})", "{why}（再送 {attempt}回目: {code}）"),
    # ----- LINE's webhooks -----
    "receiving.not_json": ("the webhook body is not JSON", "Webhookの本文がJSONではありません。"),
    "receiving.no_events": ('the webhook body has no "events" list', "Webhookの本文に events の一覧がありません。"),
    "receiving.no_secret": ("the LINE channel secret is not set: webhooks cannot be checked without it",
                            "LINEのチャネルシークレットが設定されていないため、Webhookを確認できません。"),
    "receiving.cannot_listen": ("cannot listen on {address}: {detail}", "{address} で待ち受けできません: {detail}"),
    "receiving.not_started": ("the webhook receiver did not start on {address}", "{address} でWebhookの受信を開始できませんでした。"),
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
    "cli.cannot_write": ("cannot write {what} at {where}: {detail}", "{where} に{what}を書き込めません: {detail}"),
    # ----- a publication's dry run (core/publication/publish.py) -----
    "publish.warn.no_group": ("no LINE group ID is set for this classroom", "この教室にはLINEグループIDが設定されていません"),
    "publish.warn.unchanged": ("nothing changed since revision {revision}", "第{revision}版から変更はありません"),
    "publish.warn.quota": ("LINE's monthly quota would not cover it: {left_count} message(s) left, "
                           "this publication needs {needed_count}",
                           "LINEの今月の送信数が足りません: 残り {left_count}通に対し、この公開には {needed_count}通必要です"),
    # ----- why a delivery was not sent (Deliveries' Last error, its attempts, the CLI) -----
    # "send_error.<ErrorCode value>" (core/outbox/policy.py). `said` is the answer's own words (LINE's
    # message and details, the mail server's reply), kept as they came: send_error.said, or text.plain
    # with "" when the answer had none.
    "send_error.said": (": {words}", ": {words}"),
    "send_error.coded": ("{code}: {error}", "{code}: {error}"),  # the code first, as the Deliveries detail shows it
    "send_error.LINE_400": ("LINE refused the request as invalid (HTTP {status}){said}",
                            "リクエストの内容に誤りがあるため、LINEが受け付けませんでした（HTTP {status}）{said}"),
    "send_error.AUTH_FAILED": ("LINE refused the channel access token (HTTP {status}){said}",
                               "LINEがチャネルアクセストークンを受け付けませんでした（HTTP {status}）{said}"),
    "send_error.LINE_403": ("LINE does not allow this account to send this (HTTP {status}){said}",
                            "このLINE公式アカウントでは、この送信は許可されていません（HTTP {status}）{said}"),
    "send_error.LINE_404": ("LINE does not know this recipient (HTTP {status}){said}",
                            "LINEにこの宛先が見つかりません（HTTP {status}）{said}"),
    "send_error.LINE_4XX": ("LINE refused the request (HTTP {status}){said}",
                            "LINEがリクエストを受け付けませんでした（HTTP {status}）{said}"),
    "send_error.LINE_5XX": ("LINE had a server error (HTTP {status}){said}",
                            "LINEのサーバーでエラーが発生しました（HTTP {status}）{said}"),
    "send_error.RATE_LIMITED": ("too many requests in a short time (HTTP {status}){said}",
                                "短時間の送信が多すぎるため、受け付けられませんでした（HTTP {status}）{said}"),
    "send_error.QUOTA_EXHAUSTED": ("the LINE account has used up this month's messages (HTTP {status}){said}",
                                   "LINE公式アカウントの今月の送信数が上限に達しました（HTTP {status}）{said}"),
    "send_error.SMTP_AUTH_FAILED": ("the mail server refused the user name or password (SMTP {status}){said}",
                                    "メールサーバーがユーザー名またはパスワードを受け付けませんでした（SMTP {status}）{said}"),
    "send_error.SMTP_4XX": ("the mail server could not take the message for now (SMTP {status}){said}",
                            "メールサーバーが一時的にメールを受け付けませんでした（SMTP {status}）{said}"),
    "send_error.SMTP_5XX": ("the mail server refused the message (SMTP {status}){said}",
                            "メールサーバーがメールを受け付けませんでした（SMTP {status}）{said}"),
    "send_error.WEBHOOK_4XX": ("the webhook address refused the request (HTTP {status}){said}",
                               "Webhookのアドレスがリクエストを受け付けませんでした（HTTP {status}）{said}"),
    "send_error.WEBHOOK_5XX": ("the webhook server had an error (HTTP {status}){said}",
                               "Webhookのサーバーでエラーが発生しました（HTTP {status}）{said}"),
    "send_error.TIMEOUT": ("no answer before the timeout{said}", "時間内に応答がありませんでした{said}"),
    "send_error.CONNECTION_ERROR": ("could not connect{said}", "接続できませんでした{said}"),
    "send_error.UPLOAD_FAILED": ("the image upload failed{said}", "画像のアップロードに失敗しました{said}"),
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
