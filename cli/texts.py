"""The command line's own words: its messages and the lines it prints, code → (English, Japanese).

The same form as core's catalog (core/texts/catalog.py) and the same rules: stable codes that logs
quote, named parameters, a Plural where a count changes the English words, and Japanese in the
glossary's words (resources/i18n/glossary.md, です・ます). Only the CLI says these, so they live here;
a code core or the window uses stays in core's catalog. Importing this module registers them with
core's `t()` (cli/__init__.py does, before any verb speaks). tests/test_texts_catalog.py checks them
as it checks core's, and tests/test_texts_scan.py that each code lives where it is used.
--help texts are not here: they are argparse's keys, translated in cli/words.py.
"""

from __future__ import annotations

from core.texts.catalog import register_catalog
from core.texts.template import Plural, Template

CATALOG: dict[str, tuple[Template, Template]] = {
    # a word used inside other messages
    "word.and": ("{first} and {second}", "{first}と{second}"),
    # the lines and problems of the verbs
    "cli.data_folder_read_only": ("the data folder {path} is read-only, and this command changes it: nothing was "
                                  "changed (commands that only read, such as `teachers`, still work)",
                                  "データフォルダー {path} は読み取り専用で、このコマンドは変更を伴うため、何も変更して"
                                  "いません（`teachers` など読み取るだけのコマンドは使えます）"),
    "cli.sender.claimed_on_full_disk": (
        Plural("count",
               "the disk is full: {path} cannot grow. {count} delivery was claimed before it filled and stays "
               "claimed: it is tried again once there is space, and a LINE message that already went out is not sent "
               "twice (free some space)",
               "the disk is full: {path} cannot grow. {count} deliveries were claimed before it filled and stay "
               "claimed: they are tried again once there is space, and a LINE message that already went out is not "
               "sent twice (free some space)"),
        "ディスクがいっぱいのため、{path} に書き込めません。いっぱいになる前に{count}件の配信を送信処理中にしたため、"
        "それらは処理中のまま残っています。空き容量ができると送信をやり直します。LINEで送信済みのメッセージが二重に"
        "送られることはありません（ディスクの空き容量を増やしてください）。"),
    "cli.usage": ("{message} (see --help)", "{message}（--help をご覧ください）"),
    "cli.bad_quiet_hours": ("bad quiet hours '{text}': write HH:MM-HH:MM or off",
                            "通知しない時間帯「{text}」は読めません。HH:MM-HH:MM か off で指定してください。"),
    "cli.missing_library": ("Shiftcast's libraries are not installed for this Python ({python}): module {module} is "
                            "missing. Run `make run` in Shiftcast's folder, or `python -m pip install -e .` there "
                            "in a virtual environment",
                            "このPython（{python}）にはShiftcastのライブラリがインストールされていません（{module} "
                            "がありません）。Shiftcastのフォルダで `make run` を実行するか、仮想環境で "
                            "`python -m pip install -e .` を実行してください。"),
    "cli.missing_extra": ("module {module} is missing: it comes with Shiftcast's {extra} extra. Run "
                          "`python -m pip install -e '.[{extra}]'` in Shiftcast's folder with the Python that runs it",
                          "{module} がインストールされていません。Shiftcastの {extra} 追加機能に含まれています。"
                          "Shiftcastのフォルダで、Shiftcastを動かすPythonを使って "
                          "`python -m pip install -e '.[{extra}]'` を実行してください。"),
    "cli.cannot_read": ("cannot read {path}: {detail}", "{path} を読み込めません: {detail}"),
    "cli.draft.summary": ("{shifts}, {uncovered} ({status})", "{shifts}、{uncovered}（{status}）"),
    "cli.draft.shifts": (Plural("count", "{count} shift drafted", "{count} shifts drafted"), "下書き {count}件"),
    "cli.draft.left": (Plural("count", "{count} teacher-slot left uncovered", "{count} teacher-slots left uncovered"),
                       "不足 {count}コマ・人"),
    "cli.draft.status.optimal": ("proven best", "最適と証明済み"),
    "cli.draft.status.feasible": ("the best found in the time given", "時間内に見つかった最良の案"),
    "cli.draft.status.infeasible": ("no draft possible", "作成できません"),
    "cli.draft.shift": ("{day} {start}–{end} {teacher} {classroom}", "{day} {start}〜{end} {teacher} {classroom}"),
    "cli.draft.uncovered": (Plural("count", "{day} {slot}: {count} teacher missing: {why}",
                                   "{day} {slot}: {count} teachers missing: {why}"),
                            "{day} {slot}：{count}人不足：{why}"),
    "cli.draft.what": ("say what to draft: --problem FILE.json, or --classroom NAME --month YYYY-MM",
                       "下書きの対象を指定してください: --problem FILE.json、または --classroom 教室名 --month YYYY-MM"),
    "cli.draft.one_source": ("--problem drafts a file; --classroom and --apply are for the database: give one of them",
                             "--problem はファイルから、--classroom と --apply はデータベースから作ります。どちらか一方を指定してください。"),
    "cli.draft.gap": ("at most {percent} % more teacher-slots left uncovered than the best possible",
                      "最善と比べて不足は最大{percent}%多い可能性があります"),
    "cli.draft.teacher": (Plural("count", "{teacher}: {count} shift", "{teacher}: {count} shifts"),
                          "{teacher}：{count}件"),
    "cli.draft.new": ("(new)", "（新規）"),
    "cli.draft.changes": ("against the current drafts: {added} added, {removed} removed, {unchanged} unchanged",
                          "今ある下書きとの違い：追加 {added}件、削除 {removed}件、変更なし {unchanged}件"),
    "cli.draft.applied": ("written as drafts ({added} added, {removed} removed); teachers are told when the month is "
                          "confirmed",
                          "下書きとして書き込みました（追加 {added}件、削除 {removed}件）。講師には月を確定したときに知らせます。"),
    "cli.not_a_number": ("'{value}' is not a whole number", "「{value}」は整数ではありません。"),
    "cli.number_range": ("{value} is out of range: give a number from {low} to {high}",
                         "{value} は範囲外です。{low}〜{high}の数を指定してください。"),
    "cli.closed.row": ("{day}  {note}", "{day}  {note}"),
    "cli.closed.holiday_row": ("{day}  {note} (national holiday)", "{day}  {note}（祝日）"),
    "cli.closed.count": (Plural("count", "{count} closed day in {month} at {classroom}",
                                "{count} closed days in {month} at {classroom}"),
                         "{classroom}の{month}の休業日: {count}日"),
    "cli.closed.added": ("{day} is now closed at {classroom}", "{classroom}の{day}を休業日にしました。"),
    "cli.closed.removed": ("{day} is now open at {classroom}", "{classroom}の{day}を開校日にしました。"),
    "cli.closed.note_without_add": ("--note goes with --add", "--note は --add と一緒に指定してください。"),
    "cli.patterns.row": ("{number}. {weekday} {start}–{end} at {classroom}", "{number}. {weekday} {start}〜{end}（{classroom}）"),
    "cli.patterns.from": ("from {day}", "{day}から"),
    "cli.patterns.until": ("until {day}", "{day}まで"),
    "cli.patterns.count": (Plural("count", "{count} weekly pattern for {teacher}", "{count} weekly patterns for {teacher}"),
                           "{teacher}の毎週の予定: {count}件"),
    "cli.slots.row": ("{name}  {start}–{end}", "{name}  {start}〜{end}"),
    "cli.slots.count": (Plural("count", "{count} lesson slot at {classroom}", "{count} lesson slots at {classroom}"),
                        "{classroom}のコマ: {count}件"),
    "cli.slots.times_missing": ("--add needs --start and --end", "--add には --start と --end を指定してください。"),
    "cli.slots.times_without_add": ("--start and --end go with --add", "--start と --end は --add と一緒に指定してください。"),
    "cli.needs.set": ("{classroom} needs {count} in {slot} on {when}", "{classroom}の{when}の{slot}の必要人数を{count}人にしました。"),
    "cli.needs.cleared": (Plural("count", "{count} staffing need cleared at {classroom}",
                                 "{count} staffing needs cleared at {classroom}"),
                          "{classroom}の必要人数を{count}件消去しました。"),
    "cli.needs.date_row": ("{day}  {slot}: {count}", "{day}  {slot}: {count}人"),
    "cli.needs.closed_row": ("{day}  closed, needs nobody  {note}", "{day}  休業日（必要人数0人）  {note}"),
    "cli.needs.count": (Plural("count", "{count} staffing need set at {classroom} (a date's number wins over its weekday's)",
                               "{count} staffing needs set at {classroom} (a date's number wins over its weekday's)"),
                        "{classroom}の必要人数: {count}件（日付の指定は曜日の指定より優先されます）"),
    "cli.needs.no_slots": ("{classroom} has no lesson slots yet: add them with `shiftcast lesson-slots` first",
                           "{classroom}にはまだコマがありません。先に `shiftcast lesson-slots` で追加してください。"),
    "cli.needs.weekday_or_date": ("set needs --weekday or --date", "--weekday か --date を指定してください。"),
    "cli.what.teachers": ("teachers", "講師"),
    "cli.what.shifts": ("shifts", "シフト"),
    "cli.import.rejected": (Plural("count", "{path}: {count} problem, nothing was imported",
                                   "{path}: {count} problems, nothing was imported"),
                            "{path}: {count}件の問題があるため、何もインポートしていません。"),
    "cli.import.rejected_one": ("{path}: nothing was imported: {problem}", "{path}: 何もインポートしていません。{problem}"),
    "cli.import.progress": ("reading line {line_count} of {lines_count}…", "{lines_count}行中{line_count}行目まで読み込みました…"),
    "cli.import.done": ("imported {what}: {added_count} added, {updated_count} updated",
                        "{what}をインポートしました: 追加 {added_count}件、更新 {updated_count}件"),
    "cli.wrote": ("wrote {path}", "{path} に保存しました。"),
    "cli.export.ics_needs_teacher": ("export ics needs --teacher NAME: whose shifts to write",
                                     "export ics には --teacher（講師の名前）が必要です。"),
    "cli.export.not_with": ("{option} does not go with export {what}", "{option} は export {what} には指定できません。"),
    "cli.calendar.revoked": ("{teacher}'s calendar has a new address; the old one stops working at the next sync "
                             "with the relay",
                             "{teacher}さんのカレンダーのアドレスを新しくしました。古いアドレスは次の中継サーバーとの同期で"
                             "使えなくなります。"),
    "cli.calendar.revoked_at": ("{teacher}'s calendar has a new address: {url} (the old one stops working at the next "
                                "sync with the relay)",
                                "{teacher}さんのカレンダーのアドレスを新しくしました: {url}（古いアドレスは次の中継サーバーとの"
                                "同期で使えなくなります）"),
    "cli.shift_count": (Plural("count", "{count} shift", "{count} shifts"), "シフト {count}件"),
    "cli.teacher_count": (Plural("count", "{count} teacher", "{count} teachers"), "講師 {count}人"),
    # The flags `teachers` prints in brackets; English keeps the field names of the CSV and --json.
    "cli.teachers.flag.active": ("active", "在籍"),
    "cli.deliveries.dead_letters": ("dead_letters", "配信不能"),
    "cli.deliveries.group": ("{classroom} ({channel} group)", "{classroom}（{channel}グループ）"),
    "cli.teachers.place": ("place {place}", "{place}番目"),
    "cli.teachers.own_order": ("Listed in your own order; `shiftcast teachers order --by-reading` lists them by reading again.",
                               "並び順を指定して表示しています。`shiftcast teachers order --by-reading` でふりがな順に戻せます。"),
    "cli.cover.assigned": ("assigned to {teacher}", "代講：{teacher}"),
    "cli.cover.volunteer": ("volunteer: {teacher}", "申し出：{teacher}"),
    "cli.cover.volunteer_busy": ("volunteer: {teacher} (no longer free then)", "申し出：{teacher}（その時間は入れなくなりました）"),
    "cli.cover.count": (Plural("count", "{count} request for cover", "{count} requests for cover"), "代講の依頼：{count}件"),
    "cli.cover.called": (Plural("count", "request #{id}: the call for cover goes out in {count} message",
                                "request #{id}: the call for cover goes out in {count} messages"),
                         "依頼 #{id}：代講の募集を{count}件送ります。"),
    "cli.cover.assigned_now": ("request #{id}: the shift is now {teacher}'s; both teachers will be told",
                               "依頼 #{id}：シフトを{teacher}さんの担当にしました。両方の講師にお知らせが届きます。"),
    "cli.cover.declined": ("request #{id} declined: the shift stays with the teacher who asked, who will be told",
                           "依頼 #{id} を見送りました。シフトは依頼した講師の担当のままです。講師にお知らせが届きます。"),
    "cli.cover.declined_untold": ("request #{id} declined: the shift stays with the teacher who asked; no channel"
                                  " reaches them now, so please tell them yourself",
                                  "依頼 #{id} を見送りました。シフトは依頼した講師の担当のままです。今は講師に連絡できる"
                                  "方法がないため、直接お伝えください。"),
    "cli.teachers.classrooms": ("at {classrooms}", "所属：{classrooms}"),
    "cli.teachers.limits": ("limits: {limits}", "制限：{limits}"),
    "cli.limits.saved": ("saved {teacher}'s limits", "{teacher}さんの制限を保存しました。"),
    "cli.limits.none": ("no limits set", "制限は設定されていません。"),
    "cli.limits.slots": ("lesson slots they can teach: {names}", "担当できるコマ：{names}"),
    "cli.limits.all_slots": ("lesson slots they can teach: all of their classrooms'", "担当できるコマ：所属教室のすべてのコマ"),
    "cli.teachers.joined": ("{teacher} is now one of {classroom}'s teachers", "{teacher}さんを{classroom}の所属講師にしました。"),
    "cli.teachers.member_already": ("{teacher} was one of {classroom}'s teachers already",
                                    "{teacher}さんはすでに{classroom}の所属講師です。"),
    "cli.teachers.left": ("{teacher} is no longer one of {classroom}'s teachers",
                          "{teacher}さんを{classroom}の所属講師から外しました。"),
    "cli.teachers.not_member": ("{teacher} was not one of {classroom}'s teachers",
                                "{teacher}さんは{classroom}の所属講師ではありませんでした。"),
    "cli.teachers.moved": ("moved {teacher} to place {place} of {count}", "{teacher}さんを{count}人中{place}番目に移動しました。"),
    "cli.teachers.by_reading": (Plural("count", "{count} teacher is listed by reading again",
                                       "{count} teachers are listed by reading again"),
                                "講師 {count}人をふりがな順に戻しました。"),
    "cli.classroom_count": (Plural("count", "{count} classroom", "{count} classrooms"), "教室 {count}件"),
    "cli.classroom_created": ("created classroom #{id} {name}", "教室 #{id} {name} を作成しました。"),
    "cli.confirmed": (Plural("count", "confirmed {count} shift of {classroom} {month}",
                             "confirmed {count} shifts of {classroom} {month}"),
                      "{classroom}の{month}のシフトを{count}件確定しました。"),
    "cli.details_in": ("; details in {path}", "（詳細は {path} に記録しました）"),
    "cli.unexpected": ("unexpected error ({kind}){where}", "予期しないエラーが発生しました（{kind}）{where}"),
    "cli.sender.busy": ("another Shiftcast (the app, the tray or a sender) is already sending from this data folder",
                        "このデータフォルダーからは、別の Shiftcast（アプリ、タスクトレイ、送信プロセス）がすでに送信しています。"),
    "cli.hint.line": ("the LINE channel access token is missing: save it with `main.py line-token < token.txt`, or set "
                      "the SHIFTCAST_LINE_TOKEN environment variable for a headless sender",
                      "LINEのチャネルアクセストークンがありません。`main.py line-token < token.txt` で保存するか、"
                      "画面なしで送信する場合は環境変数 SHIFTCAST_LINE_TOKEN を設定してください。"),
    "cli.hint.email": ("e-mail is not set up: set the SMTP server in Settings (smtp.host), and the password with "
                       "`main.py smtp-password < pw.txt` or the SHIFTCAST_SMTP_PASSWORD environment variable",
                       "メールが設定されていません。設定画面でSMTPサーバー（smtp.host）を設定し、パスワードを "
                       "`main.py smtp-password < pw.txt` か環境変数 SHIFTCAST_SMTP_PASSWORD で設定してください。"),
    "cli.credential.line": ("the LINE channel access token", "LINEのチャネルアクセストークン"),
    "cli.credential.email": ("the SMTP password", "SMTPのパスワード"),
    "cli.credential.other": ("its credentials", "認証情報"),
    "cli.credential.unreadable": ("{what} cannot be read: {detail}", "{what}を読み出せません: {detail}"),
    "cli.not_set_up": ("{channel} is not set up", "{channel}が設定されていません。"),
    "cli.stranded": (Plural("count", "{count} due {channel} delivery was not sent: {reason}",
                            "{count} due {channel} deliveries were not sent: {reason}"),
                     "送信予定の{channel}の配信{count}件を送信できませんでした: {reason}"),
    "cli.sending_from": ("sending from {path} (Ctrl+C to stop)", "{path} から送信しています（Ctrl+C で停止）"),
    "cli.retry.what": ("give a delivery id or --dead", "配信のIDか --dead を指定してください。"),
    "cli.retry.new_key": ("a new retry key was issued (the old one expired): if an earlier attempt did arrive, "
                          "the teacher may see this message twice",
                          "再送キーを新しく発行しました（以前のキーは期限切れです）。前回の送信が届いていた場合、講師に2回届くことがあります"),
    "cli.retry.same_key": ("the same retry key is reused", "同じ再送キーを使います"),
    "cli.retry.done": ("delivery {id} {when}; {note}", "配信 {id}: {when}。{note}。"),
    "cli.retry.none": ("no dead letters", "配信不能のものはありません。"),
    "cli.retry.now": ("will be sent now", "いますぐ送信します"),
    "cli.retry.at": ("will be sent on {day} at {time} ({zone}), its due time, "
                     "unless its shift or teacher no longer allow it then",
                     "予定どおり {day} {time}（{zone}）に送信します（その時点でシフトや講師の状況が変わっていれば送信しません）"),
    "cli.canceled": ("delivery {id} canceled", "配信 {id} を取り消しました。"),
    "cli.no_token": ("no token given", "トークンが入力されていません。"),
    "cli.no_password": ("no password given", "パスワードが入力されていません。"),
    "cli.prompt.relay_key": ("relay key (64 hexadecimal digits): ", "中継サーバーのキー（16進数64桁）: "),
    "cli.relay.no_key_given": ("no relay key given: set SHIFTCAST_RELAY_KEY or write it to standard input",
                               "中継サーバーのキーが指定されていません。SHIFTCAST_RELAY_KEY に設定するか、標準入力に書いてください。"),
    "cli.relay.not_attached": ("no relay is attached (shiftcast relay attach URL)",
                               "中継サーバーが接続されていません（shiftcast relay attach URL で接続してください）。"),
    "cli.relay.attached": ("relay attached: {url} (version {version}); its key is in the keyring",
                           "中継サーバーを接続しました: {url}（バージョン {version}）。キーはキーリングに保存しました。"),
    "cli.relay.local_ready": ("the local relay answers at {url} and is attached; Ctrl+C stops it",
                              "ローカルの中継サーバーが {url} で動いています（接続済みです）。Ctrl+C で停止します。"),
    "cli.relay.local_stopped": ("the local relay stopped", "ローカルの中継サーバーを停止しました。"),
    "cli.relay.no_line_credentials": (
        "the local relay needs LINE's channel ID and channel secret: connect LINE first",
        "ローカルの中継サーバーにはLINEのチャネルIDとチャネルシークレットが必要です。先にLINEを接続してください。"),
    "cli.relay.old_credentials": (
        "the relay still holds the LINE credentials saved before; it gets the new ones from `shiftcast relay deploy`, or "
        "at the window's next start while the Cloudflare token is saved",
        "中継サーバーは以前に保存したLINEの認証情報をまだ使っています。`shiftcast relay deploy` を実行するか、Cloudflare の"
        "トークンが保存されていれば次にウィンドウを起動したときに新しい認証情報が設定されます。"),
    "cli.relay.detached": ("relay detached: its address and key are forgotten",
                           "中継サーバーの接続を解除しました。アドレスとキーは削除しました。"),
    "cli.relay_credentials.not_delivered": (
        "saved on this computer, but not given to the relay on Cloudflare: {why}. Until it has them, the relay "
        "sends with the LINE credentials saved before. It gets them at the window's next start while the Cloudflare "
        "token is saved, or now with `shiftcast relay deploy`",
        "このコンピューターには保存しましたが、Cloudflare の中継サーバーにはまだ渡せていません（{why}）。それまで中継"
        "サーバーは以前に保存したLINEの認証情報で送信します。Cloudflare のトークンが保存されていれば次にウィンドウを起動"
        "したときに渡します。今すぐ渡すには `shiftcast relay deploy` を実行してください。"),
    "cli.relay_credentials.no_cloudflare_token": ("the Cloudflare API token is not saved on this computer",
                                                  "Cloudflare のAPIトークンがこのコンピューターに保存されていません"),
    "cli.relay_credentials.older": ("the relay is older than this app's and is updated first",
                                    "中継サーバーがこのアプリのものより古いため、先に更新が必要です"),
    "cli.relay_credentials.unreachable": ("the relay did not answer", "中継サーバーから応答がありませんでした"),
    "cli.saved_in_keyring": ("saved in the keyring", "キーリングに保存しました。"),
    "cli.alerts.open": ("OPEN   ", "未解決"),
    "cli.alerts.cleared": ("cleared", "解決済"),
    "cli.alerts.summary": ("{open_count} open, {count} in the last 7 days", "未解決 {open_count}件、過去7日間 {count}件"),
    "cli.doctor.ok": ("ok", "OK"),
    "cli.doctor.warning": ("warn", "注意"),
    "cli.doctor.blocking": ("BLOCKS", "要対応"),
    "cli.doctor.fix": ("to fix: {fix}", "対処: {fix}"),
    "cli.plan.days": ("--days must be between 1 and 62", "--days は1〜62で指定してください。"),
    "cli.plan.span": (Plural("days", "the next day", "the next {days} days"), "今後{days}日間"),
    "cli.plan.count": (Plural("count", "{count} delivery in {span}", "{count} deliveries in {span}"),
                       "{span}の配信 {count}件"),
    "cli.plan.no_limit": ("LINE messages planned for the rest of this month: {planned_count} (no monthly limit known)",
                          "今月の残りに送る予定のLINEメッセージ: {planned_count}通（月の上限は不明です）"),
    "cli.plan.quota": ("LINE quota: {used_count} of {limit_count} used; {planned_count} planned for the rest of the month; "
                       "{remaining_count} would remain",
                       "LINEの送信数: {limit_count}通中 {used_count}通を使用済み、今月の残りに {planned_count}通の予定、"
                       "残りは {remaining_count}通の見込みです"),
    "cli.render.suffix": ("--out must end in .png or .pdf", "--out のファイル名は .png か .pdf で終わるようにしてください。"),
    "cli.prompt.cloudflare_token": ("Cloudflare API token: ", "Cloudflare のAPIトークン: "),
    "cli.relay_setup.step_done": ("✓ {step}", "✓ {step}"),
    "cli.relay_setup.step_already": ("✓ {step} (already done)", "✓ {step}（完了済み）"),
    "cli.relay_setup.deployed": ("the relay {version} runs at {url}", "中継サーバー {version} が {url} で動いています。"),
    "cli.relay_setup.removed": ("the relay is removed from Cloudflare", "Cloudflare から中継サーバーを削除しました。"),
    "cli.relay_setup.nothing_to_remove": ("no relay deployed from this app is known: nothing to remove",
                                          "このアプリから設置した中継サーバーはありません。削除するものはありません。"),
    "cli.webhook.port": ("--port {port}: a TCP port is 1–65535", "--port {port}: TCPポートは1〜65535です。"),
    "cli.webhook.secret_unreadable": ("cannot read the LINE channel secret ({detail}); or set {env}",
                                      "LINEのチャネルシークレットを読み出せません（{detail}）。環境変数 {env} でも設定できます。"),
    "cli.webhook.no_secret": ("no LINE channel secret: save it in the keyring or set {env}",
                              "LINEのチャネルシークレットがありません。キーリングに保存するか、環境変数 {env} を設定してください。"),
    "cli.webhook.receiving_works": ("receiving LINE WORKS callbacks on {url}", "{url} でLINE WORKSのコールバックを受け付けています"),
    "cli.webhook.receiving": ("receiving LINE webhooks on {url}", "{url} でLINEのWebhookを受け付けています"),
    "cli.webhook.bad_id": ("--id '{value}': the channel ID is digits (LINE Developers console, Basic settings)",
                           "--id「{value}」: チャネルIDは数字です（LINE Developers コンソールの「チャネル基本設定」）。"),
    "cli.webhook.no_secret_given": ("no channel secret given", "チャネルシークレットが入力されていません。"),
    "cli.webhook.saved": ("saved: the channel ID in the settings, the secret in the keyring",
                          "保存しました: チャネルIDは設定に、シークレットはキーリングに保存しています。"),
    "cli.deliveries.row": ("{id}  {kind} {channel} {status} due {due} {zone}  {who}  tries {attempts}  {problem}",
                           "{id}  {kind} {channel} {status} 予定 {due} {zone}  {who}  試行 {attempts}回  {problem}"),
    "cli.classrooms.row": ("{id}  {name}  {zone}  lead {lead} min  quiet {quiet}",
                           "{id}  {name}  {zone}  リマインダー {lead}分前  通知しない時間帯 {quiet}"),
    "cli.quiet_off": ("off", "なし"),
    "cli.publish.plan": ("{classroom} {month}: revision {revision}, drafts to confirm: {draft_count}, "
                         "changed cells: {changed_count}",
                         "{classroom} {month}: 第{revision}版、確定する下書き {draft_count}件、変更したセル {changed_count}件"),
    "cli.publish.group": ("to LINE group {group}: members: {members}, messages it costs: {messages}",
                          "LINEグループ {group} へ: メンバー {members}人、送信数 {messages}通"),
    "cli.publish.room": ("to the {channel} room {room}: one message", "{channel}のトーク {room} へ: 1通"),
    "cli.publish.quota": ("quota: {used_count} of {limit_count} used this month", "送信数: 今月 {limit_count}通中 {used_count}通を使用済み"),
    "cli.availability.bad_deadline": ("bad deadline '{text}': write YYYY-MM-DD",
                                      "締切「{text}」は読めません。YYYY-MM-DD の形で指定してください。"),
    "cli.availability.none": ("{classroom} has no availability request for {month}: ask first with `availability ask`",
                              "{classroom}の{month}のシフト希望の依頼はありません。先に `availability ask` で依頼してください。"),
    "cli.availability.asked": (Plural("teacher_count", "asked {teacher_count} teacher of {classroom} for {month}, answers by "
                                      "{deadline}: {names}", "asked {teacher_count} teachers of {classroom} for {month}, "
                                      "answers by {deadline}: {names}"),
                               "{classroom}の{month}のシフト希望を講師{teacher_count}人に依頼しました（締切 {deadline}）: "
                               "{names}"),
    "cli.availability.dry_run": (Plural("teacher_count", "would ask {teacher_count} teacher of {classroom} for {month}, "
                                        "answers by {deadline}: {names}", "would ask {teacher_count} teachers of "
                                        "{classroom} for {month}, answers by {deadline}: {names}"),
                                 "{classroom}の{month}のシフト希望を講師{teacher_count}人に依頼します（締切 {deadline}）: "
                                 "{names}"),
    "cli.availability.unreachable": ("not asked, reachable neither on LINE nor by e-mail: {names}",
                                     "LINEでもメールでも連絡できないため依頼しません: {names}"),
    "cli.availability.by_email": ("by e-mail, not on LINE (they reply to you; enter their answers with `availability"
                                  " answer`): {names}",
                                  "LINEではなくメールで送ります（返信をもとに `availability answer` で回答を入力してください）:"
                                  " {names}"),
    "cli.availability.cost": (Plural("message_count", "costs {message_count} LINE message of the monthly quota",
                                     "costs {message_count} LINE messages of the monthly quota"),
                              "今月の送信数を{message_count}通使います。"),
    "cli.availability.would_remind": (Plural("teacher_count", "would remind {teacher_count} teacher who has not answered: {names}",
                                             "would remind {teacher_count} teachers who have not answered: {names}"),
                                      "未回答の講師{teacher_count}人にリマインドします: {names}"),
    "cli.availability.reminded": (Plural("teacher_count", "reminded {teacher_count} teacher who has not answered: {names}",
                                         "reminded {teacher_count} teachers who have not answered: {names}"),
                                  "未回答の講師{teacher_count}人にリマインドしました: {names}"),
    "cli.availability.status": ("{classroom}, {month} (answers by {deadline}): {answered_count} of {teacher_count} "
                                "answered",
                                "{classroom} {month}（締切 {deadline}）: {teacher_count}人中{answered_count}人が回答済み"),
    "cli.availability.not_read": ("the answers could not be read for certain; write them as a teacher would on LINE,"
                                  " for example \u201c12/5 \u00d7\u201d, \u201ctue/thu 17:00~\u201d or"
                                  " \u201call ok\u201d, each day once",
                                  "回答を確かに読み取れませんでした。「12/5 ×」「火木 17時以降」「全部OK」のように、"
                                  "1日に1つの回答で入力してください。"),
    "cli.availability.entered": (Plural("day_count", "entered {day_count} day of {teacher}'s answers for {month}",
                                        "entered {day_count} days of {teacher}'s answers for {month}"),
                                 "{teacher}さんの{month}の回答を{day_count}日分入力しました。"),
    "cli.availability.entered_late": (Plural("day_count",
                                             "entered {day_count} day of {teacher}'s answers for {month}, after the"
                                             " deadline (marked late)",
                                             "entered {day_count} days of {teacher}'s answers for {month}, after the"
                                             " deadline (marked late)"),
                                      "{teacher}さんの{month}の回答を{day_count}日分入力しました（締切後のため"
                                      "「締切後」として記録しました）。"),
    "cli.availability.entered_mark": ("(entered by the manager)", "（管理者が入力）"),
    "cli.availability.page_mark": ("(from the teachers' page)", "（ページから）"),
    "cli.availability.state_none": ("not answered", "未回答"),
    "cli.availability.state_reminded": ("not answered (reminded {at})", "未回答（{at}にリマインド済み）"),
    "cli.availability.state_answered": ("answered {at}: days {day_count}, available {available_count}, "
                                        "corrections {correction_count}",
                                        "回答済み {at}: {day_count}日分、出勤可 {available_count}日、修正 {correction_count}回"),
    "cli.availability.state_late": ("answered late {at}: days {day_count}, available {available_count}, "
                                    "corrections {correction_count}",
                                    "締切後に回答 {at}: {day_count}日分、出勤可 {available_count}日、"
                                    "修正 {correction_count}回"),
    "cli.publish.warning": ("warning: {warning}", "注意: {warning}"),
    "cli.publish.group_message": ("the LINE group message (delivery {id})", "LINEグループへのメッセージ（配信 {id}）"),
    "cli.publish.room_message": ("the {channel} room message (delivery {id})", "{channel}のトークへのメッセージ（配信 {id}）"),
    "cli.publish.emails": (Plural("count", "{count} e-mail", "{count} e-mails"), "メール {count}通"),
    "cli.plan.blocked": ("NOT SENT until fixed: {blocker}", "この問題が解決するまで送信しません: {blocker}"),
    "cli.publish.not_ready": ("{refusal}; to publish now and send it once that is fixed, add --when-ready",
                              "{refusal} 今公開して、解決したときに送信するには --when-ready を付けてください。"),
    "cli.publish.waiting": ("revision {revision} saved. {promise} Not yet: {missing}. It goes by itself while the "
                            "sender runs (the app, the tray or `shiftcast sender`)",
                            "第{revision}版を保存しました。{promise}現在の状況: {missing} 送信プロセス（アプリ、"
                            "タスクトレイ、`shiftcast sender`）が動いていれば、自動で送信されます。"),
    "cli.publish.queued_now": ("queued now: {queued}", "今すぐ送信待ちにしたもの: {queued}"),
    "cli.publish.teacher_months": (Plural("count", "{count} teacher's own month", "{count} teachers' own months"),
                                   "講師ごとの月間シフト {count}通"),
    "cli.publish.each_teacher": ("to each teacher their own month: teachers {teacher_count}, "
                                 "LINE messages it costs {message_count}",
                                 "講師ごとの月間シフト: 講師 {teacher_count}人、LINEの送信数 {message_count}通"),
    "cli.publish.done": ("revision {revision} saved; queued {queued}; it goes out as soon as the sender runs "
                         "(the app, the tray or `main.py sender`)",
                         "第{revision}版を保存し、{queued}を送信待ちにしました。送信プロセス（アプリ、タスクトレイ、"
                         "`main.py sender`）が動いていれば、すぐに送信されます。"),
    # what the command line asks for when it reads a secret from the keyboard
    "cli.prompt.line_token": ("LINE channel access token: ", "LINEのチャネルアクセストークン: "),
    "cli.prompt.smtp_password": ("SMTP password: ", "SMTPのパスワード: "),
    "cli.prompt.works_client_secret": ("LINE WORKS client secret (blank: keep the saved one): ",
                                       "LINE WORKS の Client Secret（空欄なら保存済みのまま）: "),
    "cli.prompt.works_bot_secret": ("LINE WORKS bot secret (blank: keep the saved one): ",
                                    "LINE WORKS の Bot Secret（空欄なら保存済みのまま）: "),
    "cli.rich_menu.set": ("The rich menu {id} is under the chat of everyone who has added the LINE account; its tiles "
                          "open the teachers' page",
                          "リッチメニュー {id} を、LINE公式アカウントを友だち追加した全員のトーク画面に表示しました。"
                          "ボタンから講師ページを開けます。"),
    "cli.rich_menu.replaced": ("The rich menu set before ({id}) is deleted", "以前のリッチメニュー（{id}）は削除しました。"),
    "cli.rich_menu.removed": ("The rich menu {id} is deleted: LINE shows no menu under the chat now",
                              "リッチメニュー {id} を削除しました。トーク画面にメニューは表示されません。"),
    "cli.rich_menu.none": ("Shiftcast has set no rich menu: nothing to remove",
                           "Shiftcastが設定したリッチメニューはありません。削除するものはありません。"),
    "cli.line_works.saved": ("LINE WORKS values saved (secrets and the private key in the keyring); "
                             "`shiftcast line-works test` tests them",
                             "LINE WORKS の値を保存しました（シークレットと秘密鍵はキーリングに保存）。"
                             "`shiftcast line-works test` でテストできます。"),
    "cli.prompt.channel_secret": ("LINE channel secret: ", "LINEのチャネルシークレット: "),
    # the senders and the health check (main.py senders, main.py health)
    "cli.senders.none": ("no sender has sent from this database yet", "このデータベースから送信した送信プロセスはまだありません。"),
    "cli.senders.sending": ("{host} pid {pid} ({app}, {home}): sending since {since}",
                            "{host} pid {pid}（{app}、{home}）: {since} から送信中"),
    "cli.senders.stale": ("{host} pid {pid} ({app}, {home}): STALE (no heartbeat for {seconds} s), started {since}",
                          "{host} pid {pid}（{app}、{home}）: 応答なし（{seconds}秒間ハートビートがありません）、{since} に開始"),
    "cli.senders.stopped": ("{host} pid {pid} ({app}, {home}): stopped at {since}",
                            "{host} pid {pid}（{app}、{home}）: {since} に停止"),
    "cli.health.unhealthy": ("unhealthy: the database answers, but no sender on {host} has a heartbeat from the last "
                             "{seconds} s",
                             "異常: データベースは応答していますが、{host} の送信プロセスから直近{seconds}秒間ハートビートがありません。"),
    "cli.health.ok": (Plural("count", "ok: the database answers; {count} sender on {host}, last heartbeat {seconds} s ago",
                             "ok: the database answers; {count} senders on {host}, last heartbeat {seconds} s ago"),
                      "正常: データベースは応答しています。{host} の送信プロセス {count}件、最後のハートビートは{seconds}秒前です。"),
}

register_catalog(CATALOG)
