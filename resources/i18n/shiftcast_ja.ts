<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP" sourcelanguage="en">
<context>
    <name>AddressPage</name>
    <message>
        <source>LINE tells Shiftcast about your group and your teachers by calling an internet address. Shiftcast listens on this computer only, so it needs a public address while you connect.</source>
        <translation>LINEは、インターネット上のアドレスを呼び出して、グループや講師の情報をShiftcastに知らせます。Shiftcastはこのコンピューター上でのみ待ち受けるため、接続の間は公開アドレスが必要です。</translation>
    </message>
    <message>
        <source>A Cloudflare quick tunnel (free, no account needed)</source>
        <translation>Cloudflareのクイックトンネル（無料、アカウント不要）</translation>
    </message>
    <message>
        <source>My own HTTPS address (a reverse proxy, Tailscale Funnel …)</source>
        <translation>自分で用意したHTTPSアドレス（リバースプロキシ、Tailscale Funnelなど）</translation>
    </message>
    <message>
        <source>This computer only (the built-in LINE simulator)</source>
        <translation>このコンピューターのみ（内蔵のLINEシミュレーター）</translation>
    </message>
    <message>
        <source>Shiftcast starts Cloudflare&apos;s cloudflared program, which gives a temporary address ending in trycloudflare.com, and stops it when you finish.</source>
        <translation>ShiftcastはCloudflareのcloudflaredプログラムを起動します。cloudflaredは末尾がtrycloudflare.comの一時的なアドレスを用意し、完了するとShiftcastが停止します。</translation>
    </message>
    <message>
        <source>Address:</source>
        <translation>アドレス:</translation>
    </message>
    <message>
        <source>Forwarded to port:</source>
        <translation>転送先のポート:</translation>
    </message>
    <message>
        <source>A public address for Shiftcast</source>
        <translation>Shiftcastの公開アドレス</translation>
    </message>
    <message>
        <source>Starting the receiver and the tunnel… (this can take half a minute)</source>
        <translation>受信とトンネルを開始しています…（30秒ほどかかることがあります）</translation>
    </message>
    <message>
        <source>Starting the receiver…</source>
        <translation>受信を開始しています…</translation>
    </message>
    <message>
        <source>Shiftcast is reachable at {0}</source>
        <translation>Shiftcastは {0} で受信できます</translation>
    </message>
    <message>
        <source>Cloudflare&apos;s cloudflared program is not installed on this computer. Install it from {0} (on Windows: winget install --id Cloudflare.cloudflared; on a Mac: brew install cloudflared) and try again, or use an HTTPS address of your own.</source>
        <translation>このコンピューターにはCloudflareのcloudflaredプログラムがインストールされていません。{0} からインストールして（Windowsの場合: winget install --id Cloudflare.cloudflared、Macの場合: brew install cloudflared）もう一度お試しいただくか、ご自分のHTTPSアドレスをお使いください。</translation>
    </message>
    <message>
        <source>cloudflared did not give an address in time. Check this computer&apos;s internet connection and try again.</source>
        <translation>cloudflaredから時間内にアドレスが返されませんでした。このコンピューターのインターネット接続を確認して、もう一度お試しください。</translation>
    </message>
    <message>
        <source>cloudflared stopped without giving an address. Try again in a moment.</source>
        <translation>cloudflaredがアドレスを返さずに終了しました。しばらくしてからもう一度お試しください。</translation>
    </message>
</context>
<context>
    <name>AlertsBanner</name>
    <message>
        <source>Open Settings</source>
        <translation>設定を開く</translation>
    </message>
    <message>
        <source>Show dead letters</source>
        <translation>配信不能を表示</translation>
    </message>
    <message>
        <source>Show deliveries</source>
        <translation>配信状況を表示</translation>
    </message>
</context>
<context>
    <name>AlertsSection</name>
    <message>
        <source>Alerts</source>
        <translation>アラート</translation>
    </message>
    <message>
        <source>Shiftcast alerts you when something needs you: deliveries that failed after every retry (dead letters), LINE or e-mail sending paused because the token or password was refused, LINE&apos;s monthly message quota used up, or deliveries waiting more than 15 minutes. Each problem sends one message, not one per delivery, and is shown at the top of the window until it clears.</source>
        <translation>Shiftcastは、対応が必要なことが起きるとアラートでお知らせします。対象は、すべての再送に失敗した配信（配信不能）、トークンまたはパスワードが拒否されたことによるLINEやメールの送信停止、LINEの月間メッセージ数の上限到達、15分を超えて送信待ちの配信です。アラートは配信ごとではなく問題ごとに1通だけ送られ、解消するまでウィンドウの上部に表示されます。</translation>
    </message>
    <message>
        <source>Webhook address:</source>
        <translation>Webhookのアドレス:</translation>
    </message>
    <message>
        <source>Optional: an incoming webhook of Slack, or of another chat service that accepts Slack-compatible webhooks, posts each alert to a channel.</source>
        <translation>任意: Slack、またはSlack互換のWebhookに対応したチャットサービスの受信Webhookを指定すると、各アラートがチャンネルに投稿されます。</translation>
    </message>
    <message>
        <source>Optional</source>
        <translation>任意</translation>
    </message>
    <message>
        <source>Your e-mail address:</source>
        <translation>管理者のメールアドレス:</translation>
    </message>
    <message>
        <source>Alerts to this address go out through the mail server above.</source>
        <translation>このアドレスへのアラートは、上のメールサーバーから送信されます。</translation>
    </message>
    <message>
        <source>Pair my LINE…</source>
        <translation>自分のLINEを登録…</translation>
    </message>
    <message>
        <source>Your LINE user ID:</source>
        <translation>管理者のLINEユーザーID:</translation>
    </message>
    <message>
        <source>Optional: where you are told on LINE that a teacher has not acknowledged a reminder (Classrooms section); with the teachers&apos; page on, it also opens your manager&apos;s view. Your e-mail address above is told too. Pair my LINE shows a code to send the LINE Official Account from your own LINE, as teachers do; Shiftcast then fills this in.</source>
        <translation>任意です。講師がリマインダーに了解していないことをLINEでお知らせする宛先です（「教室」の設定）。講師ページがオンのときは、管理者用の画面もこのLINEで開けます。上のメールアドレスにもお知らせします。「自分のLINEを登録」を押すとコードが表示されます。講師と同じように、ご自分のLINEからLINE公式アカウントに送ると、Shiftcastがここに入力します。</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Making your code…</source>
        <translation>コードを作成しています…</translation>
    </message>
    <message>
        <source>From your own LINE, send this code to the LINE Official Account: {0} (valid until {1}). It replies “paired as manager” and your LINE user ID appears here.</source>
        <translation>ご自分のLINEから、LINE公式アカウントにこのコードを送ってください：{0}（{1}まで有効）。「管理者として登録しました」と返信があり、ここにLINEユーザーIDが表示されます。</translation>
    </message>
    <message>
        <source>Paired: your LINE is the manager&apos;s.</source>
        <translation>登録しました。このLINEが管理者のLINEです。</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>保存中…</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>保存しました。</translation>
    </message>
</context>
<context>
    <name>AskDialog</name>
    <message>
        <source>Ask for availability</source>
        <translation>シフト希望を依頼</translation>
    </message>
    <message>
        <source>no automatic reminder</source>
        <translation>自動リマインドなし</translation>
    </message>
    <message numerus="yes">
        <source>Goes to %n teachers on LINE: one message each of the monthly quota.</source>
        <translation>
            <numerusform>LINEの講師%n人に送ります。1人につき今月の送信数を1通使います。</numerusform>
        </translation>
    </message>
    <message>
        <source>Used this month: {0} of {1}.</source>
        <translation>今月の送信数: {1}通中 {0}通を使用済みです。</translation>
    </message>
    <message>
        <source>By e-mail, not on LINE: {0}. They reply to you, and you enter their answers with Enter answers….</source>
        <translation>LINEではなくメールで送ります: {0}。講師からの返信をもとに「回答を入力…」で入力してください。</translation>
    </message>
    <message>
        <source>Reachable neither on LINE nor by e-mail, not asked: {0}</source>
        <translation>LINEでもメールでも連絡できないため依頼しません: {0}</translation>
    </message>
    <message>
        <source>Ask</source>
        <translation>依頼</translation>
    </message>
    <message>
        <source>Answers by:</source>
        <translation>回答の締切:</translation>
    </message>
    <message>
        <source>Remind:</source>
        <translation>締切の何日前にリマインド:</translation>
    </message>
    <message numerus="yes">
        <source> days before the deadline</source>
        <translation>
            <numerusform>日前</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AutostartSection</name>
    <message>
        <source>Start at login</source>
        <translation>ログイン時に起動</translation>
    </message>
    <message>
        <source>Start Shiftcast in the system tray when I log in</source>
        <translation>ログイン時にShiftcastをシステムトレイで起動する</translation>
    </message>
    <message>
        <source>Recommended: reminders are sent by Shiftcast on this computer, so it should be running whenever the computer is on. It starts quietly in the tray, without opening the window.</source>
        <translation>おすすめ: リマインダーはこのコンピューターのShiftcastから送信されるため、コンピューターの電源が入っている間は常に起動しておく必要があります。ウィンドウは開かず、トレイで静かに起動します。</translation>
    </message>
    <message>
        <source>Shiftcast will start at login.</source>
        <translation>ログイン時にShiftcastを起動します。</translation>
    </message>
    <message>
        <source>Shiftcast will not start at login.</source>
        <translation>ログイン時にShiftcastを起動しません。</translation>
    </message>
</context>
<context>
    <name>AvailabilityDialog</name>
    <message>
        <source>Availability — {0}, {1}</source>
        <translation>シフト希望 — {0} {1}</translation>
    </message>
    <message>
        <source>Teacher</source>
        <translation>講師</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>Days</source>
        <translation>日数</translation>
    </message>
    <message>
        <source>Answered</source>
        <translation>回答済み</translation>
    </message>
    <message>
        <source>Ask…</source>
        <translation>依頼…</translation>
    </message>
    <message>
        <source>Remind</source>
        <translation>リマインド</translation>
    </message>
    <message>
        <source>Send the request again to the teachers who have not answered</source>
        <translation>未回答の講師にだけ依頼をもう一度送ります</translation>
    </message>
    <message>
        <source>Send every teacher the month&apos;s days to answer: on LINE with buttons, by e-mail to those LINE cannot reach</source>
        <translation>講師全員に月の日付を送り、回答をお願いします（LINEでは回答ボタン付き、LINEで届かない講師にはメールで）</translation>
    </message>
    <message>
        <source>Enter answers…</source>
        <translation>回答を入力…</translation>
    </message>
    <message>
        <source>Enter a teacher&apos;s answers for them: their reply to the e-mailed request, or what they told you</source>
        <translation>講師の回答を代わりに入力します（メールで送った依頼への返信や、直接聞いた内容）</translation>
    </message>
    <message>
        <source>Nobody was asked about this month yet. Ask… sends every teacher the month&apos;s days to answer: on LINE with buttons, by e-mail to those LINE cannot reach.</source>
        <translation>この月のシフト希望はまだ依頼していません。「依頼…」で講師全員に月の日付を送ります（LINEでは回答ボタン付き、LINEで届かない講師にはメールで）。</translation>
    </message>
    <message>
        <source>Answers by {0}: {1} of {2} teachers answered.</source>
        <translation>締切 {0}: 講師{2}人中{1}人が回答済みです。</translation>
    </message>
    <message>
        <source>Not answered (reminded)</source>
        <translation>未回答（リマインド済み）</translation>
    </message>
    <message>
        <source>Not answered</source>
        <translation>未回答</translation>
    </message>
    <message>
        <source>Answered late</source>
        <translation>締切後に回答</translation>
    </message>
    <message>
        <source>{0} (entered by you)</source>
        <translation>{0}（管理者が入力）</translation>
    </message>
    <message>
        <source>{0} (from the page)</source>
        <translation>{0}（ページから）</translation>
    </message>
    <message>
        <source>{0} of {1} can</source>
        <translation>{1}日中 {0}日 出勤可</translation>
    </message>
    <message numerus="yes">
        <source>Asked %n teachers.</source>
        <translation>
            <numerusform>講師%n人に依頼しました。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Send the request again to the %n teachers who have not answered? Each on LINE costs one LINE message; an e-mail costs none.</source>
        <translation>
            <numerusform>未回答の講師%n人に依頼をもう一度送りますか？ LINEで送る講師1人につきLINEのメッセージを1通使います（メールは使いません）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Reminded %n teachers.</source>
        <translation>
            <numerusform>講師%n人にリマインドしました。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Entered %n days for {0}.</source>
        <translation>
            <numerusform>{0}さんの回答を%n日分入力しました。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CalendarRow</name>
    <message>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <source>Put the address of this teacher&apos;s calendar on the clipboard, to send them; their phone&apos;s calendar follows their shifts from it</source>
        <translation>この講師のカレンダーのアドレスをクリップボードにコピーします。講師に送ると、スマートフォンのカレンダーにシフトが表示されるようになります</translation>
    </message>
    <message>
        <source>New address…</source>
        <translation>新しいアドレス…</translation>
    </message>
    <message>
        <source>Give this teacher&apos;s calendar a new address: the old one stops working</source>
        <translation>この講師のカレンダーのアドレスを新しくします（古いアドレスは使えなくなります）</translation>
    </message>
    <message>
        <source>New calendar address</source>
        <translation>カレンダーの新しいアドレス</translation>
    </message>
    <message>
        <source>Give this teacher&apos;s calendar a new address?

The old address stops working at the next sync with the relay: a phone that follows it no longer gets the shifts. Send the teacher the new one.</source>
        <translation>この講師のカレンダーのアドレスを新しくしますか？

古いアドレスは次の中継サーバーとの同期で使えなくなり、そのアドレスを登録したスマートフォンにはシフトが届かなくなります。新しいアドレスを講師に送ってください。</translation>
    </message>
    <message>
        <source>Copied.</source>
        <translation>コピーしました。</translation>
    </message>
    <message>
        <source>New address copied.</source>
        <translation>新しいアドレスをコピーしました。</translation>
    </message>
</context>
<context>
    <name>ClassroomDialog</name>
    <message>
        <source>Add classroom</source>
        <translation>教室を追加</translation>
    </message>
    <message>
        <source>e.g. 本校, Ekimae branch</source>
        <translation>例: 本校、駅前校</translation>
    </message>
    <message>
        <source>Shift times are written in this zone&apos;s wall time.</source>
        <translation>シフトの時刻は、このタイムゾーンの現地時刻で入力します。</translation>
    </message>
    <message>
        <source>optional: C followed by 32 hex digits</source>
        <translation>任意: C に続く16進数32桁</translation>
    </message>
    <message>
        <source>The teachers&apos; LINE group the month&apos;s roster is posted to. It can be added later in Settings.</source>
        <translation>毎月のシフト表を投稿する、講師のLINEグループです。後から「設定」で追加することもできます。</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>教室名(&amp;N):</translation>
    </message>
    <message>
        <source>&amp;Time zone:</source>
        <translation>タイムゾーン(&amp;T):</translation>
    </message>
    <message>
        <source>LINE &amp;group ID:</source>
        <translation>LINEグループID(&amp;G):</translation>
    </message>
    <message>
        <source>Reminder time and quiet hours start with the usual values (2 hours before, quiet 22:00–7:00) and can be changed in Settings.</source>
        <translation>リマインダーの時刻と通知しない時間帯は標準の値（シフトの2時間前、22:00〜7:00は通知しない）で始まり、「設定」で変更できます。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>Give the classroom a name.</source>
        <translation>教室名を入力してください。</translation>
    </message>
</context>
<context>
    <name>ClassroomSection</name>
    <message>
        <source>Classrooms</source>
        <translation>教室</translation>
    </message>
    <message>
        <source>There are no classrooms yet.</source>
        <translation>教室はまだありません。</translation>
    </message>
    <message>
        <source>Classroom:</source>
        <translation>教室:</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>確認</translation>
    </message>
    <message>
        <source>LINE group ID:</source>
        <translation>LINEグループID:</translation>
    </message>
    <message>
        <source>The teachers&apos; LINE group, where each month&apos;s roster is posted. LINE hands out the group ID (a C followed by 32 letters and digits) only when your LINE Official Account joins the group, in the message it sends to the account&apos;s webhook; whoever set up the account can copy it from there. “Check” asks LINE whether the account is in that group.</source>
        <translation>毎月のシフト表を投稿する、講師のLINEグループです。グループID（C に続く英数字32文字）は、LINE公式アカウントがグループに参加したときにアカウントのWebhookへ送られるメッセージでのみ通知されます。アカウントを設定した担当者がそこからコピーできます。「確認」を押すと、アカウントがそのグループに参加しているかをLINEに問い合わせます。</translation>
    </message>
    <message>
        <source> minutes before the shift</source>
        <translation> 分前（シフト開始時刻の）</translation>
    </message>
    <message>
        <source>Reminder:</source>
        <translation>リマインダー:</translation>
    </message>
    <message>
        <source>Quiet hours:</source>
        <translation>通知しない時間帯:</translation>
    </message>
    <message>
        <source>and</source>
        <translation>〜</translation>
    </message>
    <message>
        <source>No reminders between</source>
        <translation>リマインダーを送らない時間帯</translation>
    </message>
    <message>
        <source>Messages in:</source>
        <translation>メッセージの言語:</translation>
    </message>
    <message>
        <source>Optional</source>
        <translation>任意</translation>
    </message>
    <message>
        <source>LINE WORKS channel ID:</source>
        <translation>LINE WORKS チャンネルID：</translation>
    </message>
    <message>
        <source>The LINE WORKS talk room (channel) where each month&apos;s roster is posted, for teachers on LINE WORKS. Invite the bot into the room; its channel ID is in the room&apos;s menu, or in the callback the bot receives when it joins.</source>
        <translation>LINE WORKS を使う講師向けに、毎月のシフト表を投稿する LINE WORKS のトークルーム（チャンネル）です。ボットをトークルームに招待してください。チャンネルIDはトークルームのメニュー、またはボットが参加したときに受け取るコールバックで確認できます。</translation>
    </message>
    <message>
        <source>Optional, from before the teachers&apos; page: a LIFF app of your own that opens the roster inside LINE. The teachers&apos; page (Settings → Teachers&apos; page) is the way to open the month inside LINE: while it is on, the month opens there and this field is not used.</source>
        <translation>任意。講師ページより前からある、シフト表をLINEの中で開く独自のLIFFアプリです。LINEの中で月のシフト表を開くには、講師ページ（「設定」→「講師ページ」）を使ってください。講師ページがオンの間は、月のシフト表は講師ページで開き、この欄は使いません。</translation>
    </message>
    <message>
        <source>LIFF ID:</source>
        <translation>LIFF ID:</translation>
    </message>
    <message>
        <source>Tell me when a reminder is not acknowledged</source>
        <translation>リマインダーに了解がないときに知らせる</translation>
    </message>
    <message>
        <source> hours before the shift</source>
        <translation> 時間前（シフト開始時刻の）</translation>
    </message>
    <message>
        <source>Not acknowledged:</source>
        <translation>了解の確認:</translation>
    </message>
    <message>
        <source>With the 了解 button on (LINE section), a shift this soon whose reminder nobody acknowledged is listed in the readiness check, and, when ticked, told to you on LINE and by e-mail at the alerts&apos; addresses (Alerts section).</source>
        <translation>了解ボタンがオン（「LINE」の設定）のとき、この時間内に始まるシフトでリマインダーに了解がないものを準備状況に表示します。チェックを入れると、アラートの宛先（「アラート」の設定）にLINEとメールでもお知らせします。</translation>
    </message>
    <message>
        <source>Save classroom settings</source>
        <translation>教室の設定を保存</translation>
    </message>
    <message>
        <source>Off: each reminder goes out {0} minutes before its shift, at any hour of the day or night.</source>
        <translation>オフ：リマインダーは時刻を問わず、シフトの{0}分前に送ります。</translation>
    </message>
    <message>
        <source>A reminder that would fall in quiet hours moves earlier, to {0} minutes before they begin.</source>
        <translation>通知しない時間帯にかかるリマインダーは、その時間帯が始まる{0}分前に早めて送ります。</translation>
    </message>
    <message>
        <source>A reminder that would fall in quiet hours moves earlier, to {0} minutes before they begin. Example: for a shift at {1}, the reminder due at {2} goes out at {3}.</source>
        <translation>通知しない時間帯にかかるリマインダーは、その時間帯が始まる{0}分前に早めて送ります。例：{1}開始のシフトでは、{2}に送る予定のリマインダーを{3}に送ります。</translation>
    </message>
    <message>
        <source>A reminder that would fall in quiet hours moves earlier, to {0} minutes before they begin. Example: for a shift at {1}, the reminder due at {2} goes out at {3} the day before.</source>
        <translation>通知しない時間帯にかかるリマインダーは、その時間帯が始まる{0}分前に早めて送ります。例：{1}開始のシフトでは、{2}に送る予定のリマインダーを前日の{3}に送ります。</translation>
    </message>
    <message>
        <source>A reminder that would fall in quiet hours moves earlier, to {0} minutes before they begin. Example: for a shift at {1}, the reminder due at {2} goes out at {3}, {4} days before.</source>
        <translation>通知しない時間帯にかかるリマインダーは、その時間帯が始まる{0}分前に早めて送ります。例：{1}開始のシフトでは、{2}に送る予定のリマインダーを{4}日前の{3}に送ります。</translation>
    </message>
    <message>
        <source>Asking LINE…</source>
        <translation>LINEに問い合わせ中…</translation>
    </message>
    <message>
        <source>✓ The account is in the group “{0}”.</source>
        <translation>✓ アカウントはグループ「{0}」に参加しています。</translation>
    </message>
    <message>
        <source>✓ The account is in the group “{0}” ({1} members).</source>
        <translation>✓ アカウントはグループ「{0}」（メンバー{1}人）に参加しています。</translation>
    </message>
    <message>
        <source>LINE says the account is not in this group. Invite the LINE Official Account into the teachers&apos; group, or check the group ID.</source>
        <translation>LINEによると、アカウントはこのグループに参加していません。LINE公式アカウントを講師のグループに招待するか、グループIDを確認してください。</translation>
    </message>
    <message>
        <source>LINE refused the channel access token; correct it in the LINE section above.</source>
        <translation>LINEがチャネルアクセストークンを拒否しました。上の「LINE」欄で修正してください。</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>保存中…</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>保存しました。</translation>
    </message>
</context>
<context>
    <name>ClosedDayActions</name>
    <message>
        <source>Mark {0} open</source>
        <translation>{0}を開校日にする</translation>
    </message>
    <message>
        <source>Mark {0} closed</source>
        <translation>{0}を休業日にする</translation>
    </message>
    <message>
        <source>{0} is now closed.</source>
        <translation>{0}を休業日にしました。</translation>
    </message>
    <message>
        <source>{0} is now open.</source>
        <translation>{0}を開校日にしました。</translation>
    </message>
</context>
<context>
    <name>ConnectLineDialog</name>
    <message>
        <source>Connect LINE</source>
        <translation>LINEに接続</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>戻る</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Step {0} of {1}</source>
        <translation>ステップ {0}/{1}</translation>
    </message>
</context>
<context>
    <name>CopyDaysDialog</name>
    <message>
        <source>Copy shift to other days</source>
        <translation>シフトを他の日にコピー</translation>
    </message>
    <message>
        <source>Copy {0}&apos;s shift {1}–{2} of {3} to the days ticked below. The copies are drafts; if any day clashes, nothing is copied.</source>
        <translation>{0}の{3}のシフト（{1}〜{2}）を、下でチェックした日にコピーします。コピーは下書きになります。重複する日が1日でもあると、何もコピーされません。</translation>
    </message>
    <message>
        <source>{0} — this shift</source>
        <translation>{0} — このシフト</translation>
    </message>
    <message>
        <source>{0} — already has a shift</source>
        <translation>{0} — シフトあり</translation>
    </message>
    <message>
        <source>Same &amp;weekday</source>
        <translation>同じ曜日(&amp;W)</translation>
    </message>
    <message>
        <source>Tick every {0} of the month</source>
        <translation>この月のすべての{0}をチェック</translation>
    </message>
    <message>
        <source>&amp;All</source>
        <translation>すべて(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;None</source>
        <translation>すべて解除(&amp;N)</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <source>Tick at least one day.</source>
        <translation>1日以上チェックしてください。</translation>
    </message>
    <message>
        <source>Nothing was copied:</source>
        <translation>何もコピーされませんでした:</translation>
    </message>
</context>
<context>
    <name>CoverDialog</name>
    <message>
        <source>Cover requests</source>
        <translation>代講の依頼</translation>
    </message>
    <message>
        <source>Assign</source>
        <translation>代講に決める</translation>
    </message>
    <message>
        <source>Call for volunteers</source>
        <translation>代講を募集</translation>
    </message>
    <message>
        <source>Decline</source>
        <translation>見送る</translation>
    </message>
    <message>
        <source>The shift stays with the teacher who asked; they are told, with your reason if you write one</source>
        <translation>シフトは依頼した講師の担当のままです。講師にお知らせが届きます（理由を入力すると、あわせて伝えます）</translation>
    </message>
    <message>
        <source>Reason for declining (optional; the teacher reads it)</source>
        <translation>見送る理由（任意。講師に伝わります）</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>No request waits for you.</source>
        <translation>対応を待っている依頼はありません。</translation>
    </message>
    <message>
        <source>{0} (offered)</source>
        <translation>{0}（申し出あり）</translation>
    </message>
    <message>
        <source>Volunteers: {0}</source>
        <translation>申し出た講師: {0}</translation>
    </message>
</context>
<context>
    <name>CredentialsPage</name>
    <message>
        <source>Shiftcast connects to the Messaging API channel of your LINE Official Account with two values from the LINE Developers console ({0}): open your provider, then the channel, and the “Basic settings” tab. The secret is kept in this computer&apos;s keyring; Shiftcast makes its own short-lived access tokens from it.</source>
        <translation>Shiftcastは、LINE Developersコンソール（{0}）にある2つの値を使って、LINE公式アカウントのMessaging APIチャネルに接続します。プロバイダー、チャネルの順に開き、「チャネル基本設定」タブをご覧ください。チャネルシークレットはこのコンピューターのキーリングに保存され、Shiftcastはそこから短期間有効なアクセストークンを自動で発行します。</translation>
    </message>
    <message>
        <source>e.g. 2001234567</source>
        <translation>例: 2001234567</translation>
    </message>
    <message>
        <source>32 letters and digits</source>
        <translation>英数字32文字</translation>
    </message>
    <message>
        <source>Channel ID:</source>
        <translation>チャネルID:</translation>
    </message>
    <message>
        <source>Channel secret:</source>
        <translation>チャネルシークレット:</translation>
    </message>
    <message>
        <source>Use a long-lived access token instead…</source>
        <translation>代わりに長期のチャネルアクセストークンを使う…</translation>
    </message>
    <message>
        <source>An account that already has a “Channel access token (long-lived)” can paste it in Settings → LINE instead. Receiving LINE&apos;s events (to find the group and the teachers) still needs the channel secret.</source>
        <translation>「チャネルアクセストークン（長期）」をすでにお持ちの場合は、代わりに「設定」→「LINE」に貼り付けることもできます。ただし、LINEからのイベントを受信する（グループや講師を見つける）には、チャネルシークレットが必要です。</translation>
    </message>
    <message>
        <source>Channel ID and secret</source>
        <translation>チャネルIDとチャネルシークレット</translation>
    </message>
    <message>
        <source>Asking LINE for an access token…</source>
        <translation>LINEにアクセストークンを要求しています…</translation>
    </message>
    <message>
        <source>Connected to “{0}” ({1}).</source>
        <translation>「{0}」（{1}）に接続しました。</translation>
    </message>
</context>
<context>
    <name>CsvActions</name>
    <message>
        <source>teachers</source>
        <translation>講師</translation>
    </message>
    <message>
        <source>shifts</source>
        <translation>シフト</translation>
    </message>
    <message>
        <source>Import {0} from CSV</source>
        <translation>CSVから{0}をインポート</translation>
    </message>
    <message>
        <source>Import finished</source>
        <translation>インポート完了</translation>
    </message>
    <message>
        <source>Imported {0}: {1} added, {2} updated.</source>
        <translation>{0}をインポートしました: 追加 {1}件、更新 {2}件。</translation>
    </message>
    <message>
        <source>Import stopped</source>
        <translation>インポートを中止しました</translation>
    </message>
    <message>
        <source>The import was stopped. Nothing was imported.</source>
        <translation>インポートを中止しました。何もインポートされていません。</translation>
    </message>
    <message>
        <source>Importing</source>
        <translation>インポート中</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>中止</translation>
    </message>
    <message>
        <source>Reading line {0} of {1}…</source>
        <translation>{1}行中{0}行目まで読み込みました…</translation>
    </message>
    <message>
        <source>Export teachers to CSV</source>
        <translation>講師をCSVにエクスポート</translation>
    </message>
    <message>
        <source>Export shifts to CSV</source>
        <translation>シフトをCSVにエクスポート</translation>
    </message>
    <message>
        <source>Export finished</source>
        <translation>エクスポート完了</translation>
    </message>
    <message numerus="yes">
        <source>%n rows written to {0}</source>
        <translation>
            <numerusform>%n行を{0}に書き出しました</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CsvProblemsDialog</name>
    <message>
        <source>Nothing was imported</source>
        <translation>インポートされませんでした</translation>
    </message>
    <message numerus="yes">
        <source>The {0} file has %n problems. Nothing was imported; fix these lines and import the file again.</source>
        <translation>
            <numerusform>{0}のファイルに問題が%n件あります。何もインポートしていません。該当する行を直して、もう一度インポートしてください。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DataFolderSection</name>
    <message>
        <source>Data folder</source>
        <translation>データフォルダー</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>開く</translation>
    </message>
    <message>
        <source>Location:</source>
        <translation>場所:</translation>
    </message>
    <message>
        <source>Everything Shiftcast keeps is in this folder: the database, the roster images and the log. Before every upgrade the database is copied into its “backups” folder (the last ten copies are kept). To back up by hand, copy the whole folder while Shiftcast is closed.</source>
        <translation>Shiftcastのデータ（データベース、シフト表の画像、ログ）はすべてこのフォルダーにあります。アップグレードの前には毎回、データベースが「backups」フォルダーにコピーされます（最新の10件を保持）。手動でバックアップするには、Shiftcastを終了してからフォルダー全体をコピーしてください。</translation>
    </message>
</context>
<context>
    <name>DatabaseSection</name>
    <message>
        <source>Database</source>
        <translation>データベース</translation>
    </message>
    <message>
        <source>This computer (a file in the data folder)</source>
        <translation>このコンピューター（データフォルダー内のファイル）</translation>
    </message>
    <message>
        <source>A PostgreSQL server shared by several computers</source>
        <translation>複数のコンピューターで共有するPostgreSQLサーバー</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>接続テスト</translation>
    </message>
    <message>
        <source>Copy this computer&apos;s data to the server…</source>
        <translation>このコンピューターのデータをサーバーにコピー…</translation>
    </message>
    <message>
        <source>Save and restart…</source>
        <translation>保存して再起動…</translation>
    </message>
    <message>
        <source>Keep the roster in:</source>
        <translation>シフト表の保存先:</translation>
    </message>
    <message>
        <source>Server:</source>
        <translation>サーバー:</translation>
    </message>
    <message>
        <source>Database:</source>
        <translation>データベース:</translation>
    </message>
    <message>
        <source>User:</source>
        <translation>ユーザー:</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>パスワード:</translation>
    </message>
    <message>
        <source>The password is kept in this computer&apos;s keyring, never in the data folder.</source>
        <translation>パスワードはこのコンピューターのキーリングに保存され、データフォルダーには保存されません。</translation>
    </message>
    <message>
        <source>A change takes effect when Shiftcast starts again. Before a server&apos;s database is upgraded, it is saved with pg_dump into the “backups” folder when pg_dump is installed; otherwise the server&apos;s own backups apply.</source>
        <translation>変更はShiftcastの次回の起動から反映されます。サーバーのデータベースを更新する前に、pg_dumpがインストールされていれば「backups」フォルダーに保存します。インストールされていない場合は、サーバー側のバックアップをご利用ください。</translation>
    </message>
    <message>
        <source>The environment variable {0} is set: it decides the database, whatever is chosen here.</source>
        <translation>環境変数{0}が設定されているため、ここでの選択にかかわらず、そちらのデータベースを使います。</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>接続しています…</translation>
    </message>
    <message>
        <source>Copy to the server</source>
        <translation>サーバーにコピー</translation>
    </message>
    <message>
        <source>Copy every classroom, teacher, shift and delivery on this computer to the server&apos;s database? The server&apos;s database must be empty; if anything goes wrong, nothing is copied.</source>
        <translation>このコンピューターの教室・講師・シフト・配信をすべてサーバーのデータベースにコピーしますか？サーバーのデータベースは空である必要があります。途中で問題が起きた場合は、何もコピーされません。</translation>
    </message>
    <message>
        <source>Copying…</source>
        <translation>コピーしています…</translation>
    </message>
    <message>
        <source>Copied {0} rows to the server. Choose “Save and restart” to use it.</source>
        <translation>{0}行をサーバーにコピーしました。使い始めるには「保存して再起動」を選んでください。</translation>
    </message>
    <message>
        <source>Saved. Shiftcast uses the new database from its next start.</source>
        <translation>保存しました。次回の起動から新しいデータベースを使います。</translation>
    </message>
    <message>
        <source>The new database is used from the next start. Restart Shiftcast now?</source>
        <translation>新しいデータベースは次回の起動から使われます。今すぐShiftcastを再起動しますか？</translation>
    </message>
    <message>
        <source>Restart now</source>
        <translation>今すぐ再起動</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>後で</translation>
    </message>
</context>
<context>
    <name>Dates</name>
    <message>
        <source>en_GB</source>
        <comment>the locale for month and weekday names: ja_JP in Japanese</comment>
        <translation>ja_JP</translation>
    </message>
    <message>
        <source>ddd d MMM yyyy</source>
        <comment>a day with weekday and year, Qt date pattern: yyyy年M月d日(ddd) in Japanese</comment>
        <translation>yyyy年M月d日(ddd)</translation>
    </message>
    <message>
        <source>ddd d MMM</source>
        <comment>a day with weekday, no year, Qt date pattern: M月d日(ddd) in Japanese</comment>
        <translation>M月d日(ddd)</translation>
    </message>
</context>
<context>
    <name>DeliveriesView</name>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>作成日時</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <source>Recipient</source>
        <translation>宛先</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>試行回数</translation>
    </message>
    <message>
        <source>Next attempt / sent</source>
        <translation>次回送信 / 送信日時</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>直近のエラー</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>送信予定</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>送信待ち</translation>
    </message>
    <message>
        <source>Sending</source>
        <translation>送信中</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>送信済み</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>Canceled</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Dead letter</source>
        <translation>配信不能</translation>
    </message>
    <message>
        <source>{0} ({1} group)</source>
        <translation>{0}（{1}グループ）</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>再送</translation>
    </message>
    <message>
        <source>Send the selected delivery again with a fresh retry budget: now, or at its due time if that is still to come</source>
        <translation>選択した配信を再送します（再試行の回数はリセットされます）。予定時刻がまだ先なら、その時刻に送信します</translation>
    </message>
    <message numerus="yes">
        <source>Send all %n dead letters again now, each with a fresh retry budget?</source>
        <translation>
            <numerusform>配信不能の%n件をすべて今すぐ送り直しますか？（再試行の回数はそれぞれ最初に戻ります）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n dead letters are queued again.</source>
        <translation>
            <numerusform>配信不能だった%n件を送信待ちに戻しました。</numerusform>
        </translation>
    </message>
    <message>
        <source>{0} of them got a new retry key because the old one had expired: if an earlier attempt did get through, those recipients may get the message twice.</source>
        <translation>うち{0}件は、以前の再送キーの有効期限が切れていたため、新しい再送キーを発行しました。以前の送信が届いていた場合、その宛先にはメッセージが2回届くことがあります。</translation>
    </message>
    <message>
        <source>(deleted #{0})</source>
        <translation>（削除済み #{0}）</translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation>（不明）</translation>
    </message>
    <message>
        <source>{0} · ✓ 了解 {1}</source>
        <translation>{0} · ✓ 了解 {1}</translation>
    </message>
    <message>
        <source>{0} · {1}</source>
        <translation>{0}・{1}</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>すべての種類</translation>
    </message>
    <message>
        <source>All classrooms</source>
        <translation>すべての教室</translation>
    </message>
    <message>
        <source>Created from</source>
        <translation>作成日</translation>
    </message>
    <message>
        <source>Search recipient, key or error</source>
        <translation>宛先・キー・エラーで検索</translation>
    </message>
    <message>
        <source>Dead letters only</source>
        <translation>配信不能のみ</translation>
    </message>
    <message>
        <source>to</source>
        <translation>〜</translation>
    </message>
    <message>
        <source>Cancel delivery</source>
        <translation>配信を取消</translation>
    </message>
    <message>
        <source>Requeue all dead letters</source>
        <translation>配信不能をすべて再送</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>再読み込み</translation>
    </message>
    <message>
        <source>Times are shown in the classroom&apos;s time zone, {0} ({1}). This computer&apos;s clock is on {2}.</source>
        <translation>時刻は教室のタイムゾーン {0}（{1}）で表示しています。このパソコンの時計は{2}です。</translation>
    </message>
    <message>
        <source>Times are shown in each classroom&apos;s own time zone ({0}). This computer&apos;s clock is on {1}.</source>
        <translation>時刻はそれぞれの教室のタイムゾーン（{0}）で表示しています。このパソコンの時計は{1}です。</translation>
    </message>
    <message>
        <source>Dead letters</source>
        <translation>配信不能</translation>
    </message>
    <message>
        <source>Status: {0}</source>
        <translation>状態: {0}</translation>
    </message>
    <message>
        <source>all</source>
        <translation>すべて</translation>
    </message>
    <message>
        <source>{0} (no heartbeat since {1})</source>
        <translation>{0}（{1}以降応答なし）</translation>
    </message>
    <message>
        <source>{0} (since {1})</source>
        <translation>{0}（{1}から）</translation>
    </message>
    <message>
        <source>Sending from: {0}</source>
        <translation>送信中のコンピューター：{0}</translation>
    </message>
    <message>
        <source>Delivery #{0} will be sent on {1} at {2}, its due time, if its shift and teacher still allow it then.</source>
        <translation>配信 #{0} は予定時刻の{1} {2}に送信します。その時点でシフトや講師の状態が変わっていれば送信しません。</translation>
    </message>
    <message>
        <source>Delivery #{0} will be sent now.</source>
        <translation>配信 #{0} を今すぐ送信します。</translation>
    </message>
    <message>
        <source>It has a new retry key, because its old key had expired. If an earlier attempt did get through, the recipient may get this message twice.</source>
        <translation>以前の再送キーの有効期限が切れていたため、新しい再送キーを発行しました。以前の送信が届いていた場合、宛先にこのメッセージが2回届くことがあります。</translation>
    </message>
    <message>
        <source>Cancel delivery #{0}, {1} to {2}? It will not be sent.

Retry brings it back; it then goes at its due time.</source>
        <translation>配信 #{0}（{2}への{1}）を取り消しますか？このメッセージは送信されません。

「再送」で元に戻すと、予定時刻に送信します。</translation>
    </message>
    <message>
        <source>Requeue dead letters</source>
        <translation>配信不能の再送</translation>
    </message>
    <message>
        <source>{0} of them wait for their due time.</source>
        <translation>うち{0}件は予定時刻まで待ってから送信します。</translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation>配信状況</translation>
    </message>
</context>
<context>
    <name>DeliveryDetail</name>
    <message>
        <source>Sent</source>
        <translation>送信済み</translation>
    </message>
    <message>
        <source>Will retry</source>
        <translation>再送予定</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>Gave up (dead letter)</source>
        <translation>断念（配信不能）</translation>
    </message>
    <message>
        <source>Rate limited; retried soon</source>
        <translation>送信数の制限中。まもなく再送</translation>
    </message>
    <message>
        <source>Not sent: image hosting failed; the month goes as a message next</source>
        <translation>未送信: 画像ホスティングが使えなかったため、次の送信で月のシフト表をメッセージとして送ります</translation>
    </message>
    <message>
        <source>Held: {0} refused our credentials</source>
        <translation>保留: {0}が認証情報を拒否</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Recipient</source>
        <translation>宛先</translation>
    </message>
    <message>
        <source>Delivery key</source>
        <translation>配信キー</translation>
    </message>
    <message>
        <source>Due</source>
        <translation>送信予定日時</translation>
    </message>
    <message>
        <source>Next attempt</source>
        <translation>次回送信</translation>
    </message>
    <message>
        <source>Retry key</source>
        <translation>再送キー</translation>
    </message>
    <message>
        <source>Server&apos;s message</source>
        <translation>サーバーからのメッセージ</translation>
    </message>
    <message>
        <source>{0} — {1} group</source>
        <translation>{0} — {1}グループ</translation>
    </message>
    <message>
        <source>Acknowledged (了解)</source>
        <translation>了解</translation>
    </message>
    <message>
        <source>Request ID</source>
        <translation>リクエストID</translation>
    </message>
    <message>
        <source>#</source>
        <translation>回</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>日時</translation>
    </message>
    <message>
        <source>Late</source>
        <translation>遅れ</translation>
    </message>
    <message>
        <source>Last problem</source>
        <translation>直近の問題</translation>
    </message>
    <message>
        <source>By</source>
        <translation>送信元</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>送信の経過</translation>
    </message>
    <message>
        <source>Technical details</source>
        <translation>技術的な詳細</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>宛先（IDまたはアドレス）</translation>
    </message>
    <message>
        <source>Error code</source>
        <translation>エラーコード</translation>
    </message>
    <message>
        <source>HTTP</source>
        <translation>HTTP</translation>
    </message>
    <message>
        <source>Request IDs</source>
        <translation>リクエストID</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>所要時間</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>Select a delivery to see its attempts.</source>
        <translation>配信を選択すると、送信の試行履歴が表示されます。</translation>
    </message>
    <message>
        <source>This delivery no longer exists (old history is purged).</source>
        <translation>この配信はもう存在しません（古い履歴は削除されます）。</translation>
    </message>
    <message>
        <source>Delivery #{0} · {1} · {2}</source>
        <translation>配信 #{0} · {1} · {2}</translation>
    </message>
    <message>
        <source>{0} — dead letter since {1}</source>
        <translation>{0} — {1}から配信不能</translation>
    </message>
    <message>
        <source>{0} ({1})</source>
        <translation>{0}（{1}）</translation>
    </message>
    <message>
        <source>{0} (issued {1})</source>
        <translation>{0}（{1}発行）</translation>
    </message>
    <message>
        <source>{0} already had it from an earlier attempt, so it was not sent twice</source>
        <translation>先の送信で{0}に届いていたため、二重には送っていません</translation>
    </message>
    <message>
        <source>{0} accepted it</source>
        <translation>{0}が受け付けました</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}: {1}</translation>
    </message>
    <message>
        <source>The relay</source>
        <translation>中継サーバー</translation>
    </message>
    <message>
        <source>Shiftcast</source>
        <translation>Shiftcast</translation>
    </message>
    <message>
        <source>{0} (accepted earlier: {1})</source>
        <translation>{0}（受付済み: {1}）</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>応答なし</translation>
    </message>
    <message>
        <source>{0} ms</source>
        <translation>{0} ms</translation>
    </message>
    <message>
        <source>{0}, by the relay</source>
        <translation>{0}（中継サーバーが送信）</translation>
    </message>
    <message>
        <source>{0}, by Shiftcast</source>
        <translation>{0}（Shiftcastが送信）</translation>
    </message>
    <message>
        <source>1 minute late</source>
        <translation>1分遅れ</translation>
    </message>
    <message>
        <source>{0} minutes late</source>
        <translation>{0}分遅れ</translation>
    </message>
    <message>
        <source>about {0} hours late</source>
        <translation>約{0}時間遅れ</translation>
    </message>
    <message>
        <source>the computer was asleep or off; the relay sent it</source>
        <translation>パソコンがスリープ中か電源オフのため、中継サーバーが送信</translation>
    </message>
    <message>
        <source>the earlier attempts did not go through</source>
        <translation>それまでの送信が届かなかったため</translation>
    </message>
    <message>
        <source>Shiftcast was not sending when it was due (the computer was asleep or off)</source>
        <translation>予定の時刻にShiftcastが送信していなかったため（パソコンがスリープ中か電源オフ）</translation>
    </message>
    <message>
        <source>{0} (by the relay)</source>
        <translation>{0}（中継サーバーから）</translation>
    </message>
</context>
<context>
    <name>DraftDialog</name>
    <message>
        <source>Draft {0}</source>
        <translation>{0}の下書き</translation>
    </message>
    <message>
        <source>Make draft shifts for {0} from the teachers&apos; availability answers, their weekly patterns and limits, to cover the staffing needs. You review the draft before anything is written; teachers are told only when you confirm the month.</source>
        <translation>講師のシフト希望の回答・毎週の予定・上限をもとに、必要人数を満たすよう{0}の下書きシフトを作ります。書き込む前に内容を確認できます。講師に知らせるのは月を確定したときだけです。</translation>
    </message>
    <message>
        <source>Not available (×)</source>
        <translation>勤務不可（×）</translation>
    </message>
    <message>
        <source>Available (○)</source>
        <translation>勤務可（○）</translation>
    </message>
    <message>
        <source>Replace this month&apos;s drafts</source>
        <translation>今月の下書きを置き換える</translation>
    </message>
    <message>
        <source>Keep this month&apos;s drafts and add to them</source>
        <translation>今月の下書きは残して追加する</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>A day a teacher did not answer:</source>
        <translation>講師が回答していない日:</translation>
    </message>
    <message>
        <source>Drafts there now:</source>
        <translation>今ある下書き:</translation>
    </message>
    <message>
        <source>Stop after at most:</source>
        <translation>最長の計算時間:</translation>
    </message>
    <message>
        <source>Draft</source>
        <translation>下書きを作る</translation>
    </message>
    <message>
        <source>Also draft {0}, which share teachers with this classroom</source>
        <translation>講師を共有している{0}もまとめて作る</translation>
    </message>
    <message>
        <source>Drafting…</source>
        <translation>下書きを作っています…</translation>
    </message>
    <message>
        <source>Stop and keep the best so far</source>
        <translation>止めてここまでの最善案を使う</translation>
    </message>
    <message>
        <source>time: {0} s</source>
        <translation>経過 {0}秒</translation>
    </message>
    <message>
        <source>none can miss fewer than: {0}</source>
        <translation>不足の下限（証明済み）: {0}</translation>
    </message>
    <message>
        <source>teacher-slots missing in the best so far: {0}</source>
        <translation>現時点の最善案の不足コマ数: {0}</translation>
    </message>
    <message>
        <source>Against the drafts there now — added: {0}, removed: {1}, unchanged: {2}</source>
        <translation>今ある下書きとの違い — 追加: {0}、削除: {1}、変更なし: {2}</translation>
    </message>
    <message>
        <source>Needs left uncovered: {0}</source>
        <translation>満たせない必要人数: {0}</translation>
    </message>
    <message>
        <source>Shifts proposed: {0}.</source>
        <translation>提案シフト: {0}件。</translation>
    </message>
    <message>
        <source>Stopping; the best draft found so far is kept…</source>
        <translation>止めています。ここまでの最善案を使います…</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>変更</translation>
    </message>
    <message>
        <source>Teacher</source>
        <translation>講師</translation>
    </message>
    <message>
        <source>Day</source>
        <translation>日付</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>時間</translation>
    </message>
    <message>
        <source>Classroom</source>
        <translation>教室</translation>
    </message>
    <message>
        <source>Month</source>
        <translation>月の表</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>変更の一覧</translation>
    </message>
    <message>
        <source>Slot</source>
        <translation>コマ</translation>
    </message>
    <message>
        <source>Missing</source>
        <translation>不足</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>理由</translation>
    </message>
    <message>
        <source>What to do</source>
        <translation>対応</translation>
    </message>
    <message>
        <source>Apply as drafts</source>
        <translation>下書きとして反映</translation>
    </message>
    <message>
        <source>Write the draft into the roster as draft shifts (Ctrl+Z takes it back); teachers are not told until you confirm the month</source>
        <translation>この案を下書きシフトとしてシフト表に書き込みます（Ctrl+Z で元に戻せます）。月を確定するまで講師には知らせません</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>Removed</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Every staffing need is covered.</source>
        <translation>必要人数はすべて満たしています。</translation>
    </message>
    <message>
        <source>added</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>draft kept</source>
        <translation>残す下書き</translation>
    </message>
    <message>
        <source>confirmed</source>
        <translation>確定済み</translation>
    </message>
    <message>
        <source>The best possible draft (proven).</source>
        <translation>最善の案です（証明済み）。</translation>
    </message>
    <message>
        <source>A good draft; at most {0} % from the best possible.</source>
        <translation>良い案です。最善との差は最大{0}%です。</translation>
    </message>
    <message>
        <source>A draft; how far it is from the best possible is not known.</source>
        <translation>案ができました。最善との差はわかっていません。</translation>
    </message>
    <message>
        <source>Stopped: the best draft found by then. </source>
        <translation>途中で止めたため、その時点の最善案です。</translation>
    </message>
    <message>
        <source>The draft cannot be made: this classroom has no lesson slots (コマ). Add them first: Classroom setup → Lesson slots…</source>
        <translation>下書きを作れません。この教室にはコマがありません。先に「教室の設定 → コマ…」で追加してください。</translation>
    </message>
    <message>
        <source>Nothing to draft yet: no staffing needs are set, so no lesson slot needs a teacher. Set how many teachers each slot needs: Classroom setup → Staffing needs…</source>
        <translation>まだ下書きするものがありません。必要人数が設定されていないので、講師が必要なコマがありません。「教室の設定 → 必要人数…」で、コマごとに必要な講師の人数を設定してください。</translation>
    </message>
    <message>
        <source>The draft cannot be made: this classroom has no active teachers.</source>
        <translation>下書きを作れません。この教室には在籍中の講師がいません。</translation>
    </message>
    <message>
        <source>Open Lesson slots…</source>
        <translation>コマ…を開く</translation>
    </message>
    <message>
        <source>Open Staffing needs…</source>
        <translation>必要人数…を開く</translation>
    </message>
    <message>
        <source>Edit {0}&apos;s limits…</source>
        <translation>{0}の上限を編集…</translation>
    </message>
    <message>
        <source>Edit limits…</source>
        <translation>上限を編集…</translation>
    </message>
    <message>
        <source>Open availability…</source>
        <translation>シフト希望を開く…</translation>
    </message>
</context>
<context>
    <name>EmailSection</name>
    <message>
        <source>E-mail</source>
        <translation>メール</translation>
    </message>
    <message>
        <source>Teachers who chose e-mail get their messages through your mail server, and so do your alerts. Your e-mail provider&apos;s help pages list these values under “SMTP” or “outgoing mail”.</source>
        <translation>メールを選んだ講師へのメッセージと、管理者へのアラートは、お使いのメールサーバーから送信されます。以下の値は、メールプロバイダーのヘルプページの「SMTP」や「送信メールサーバー」の項目に載っています。</translation>
    </message>
    <message>
        <source>Mail server (SMTP):</source>
        <translation>メールサーバー（SMTP）:</translation>
    </message>
    <message>
        <source>STARTTLS</source>
        <translation>STARTTLS</translation>
    </message>
    <message>
        <source>TLS</source>
        <translation>TLS</translation>
    </message>
    <message>
        <source>Security:</source>
        <translation>暗号化:</translation>
    </message>
    <message>
        <source>STARTTLS usually uses port 587 and TLS (also called SSL) port 465; your provider says which.</source>
        <translation>通常、STARTTLSはポート587、TLS（SSLとも呼ばれます）はポート465を使います。どちらを使うかはプロバイダーの案内に従ってください。</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>ポート:</translation>
    </message>
    <message>
        <source>Usually your full e-mail address</source>
        <translation>通常はメールアドレス全体</translation>
    </message>
    <message>
        <source>User name:</source>
        <translation>ユーザー名:</translation>
    </message>
    <message>
        <source>Leave it empty only if the server sends without a login.</source>
        <translation>ログインせずに送信できるサーバーの場合だけ空欄にしてください。</translation>
    </message>
    <message>
        <source>Type to replace the saved password</source>
        <translation>入力すると保存済みのパスワードを置き換えます</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>パスワード:</translation>
    </message>
    <message>
        <source>Kept in this computer&apos;s keyring, never in Shiftcast&apos;s database, and never shown again. Some providers (Gmail, Outlook.com, iCloud) want an app password made for Shiftcast here rather than your usual one.</source>
        <translation>パスワードはShiftcastのデータベースではなくこのコンピューターのキーリングに保存され、再び表示されることはありません。プロバイダーによっては（Gmail、Outlook.com、iCloudなど）、普段のパスワードではなく、Shiftcast用に発行したアプリパスワードが必要です。</translation>
    </message>
    <message>
        <source>From address:</source>
        <translation>送信元アドレス:</translation>
    </message>
    <message>
        <source>Optional, e.g. the classroom&apos;s name</source>
        <translation>任意（例: 教室名）</translation>
    </message>
    <message>
        <source>Sender name:</source>
        <translation>送信者名:</translation>
    </message>
    <message>
        <source>Teachers see this name and address as the sender. Many servers accept only your own address here.</source>
        <translation>講師には、この名前とアドレスが送信者として表示されます。多くのサーバーでは、ご自身のアドレスしか使えません。</translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation>詳細設定</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Check login</source>
        <translation>ログインを確認</translation>
    </message>
    <message>
        <source>Check login connects to the server and logs in once, without sending anything. Changes not yet saved are saved first.</source>
        <translation>「ログインを確認」はサーバーに接続して一度ログインするだけで、メールは送信しません。保存していない変更は先に保存されます。</translation>
    </message>
    <message>
        <source>The system&apos;s certificates</source>
        <translation>システムの証明書</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>選択…</translation>
    </message>
    <message>
        <source>A CA certificate file (PEM) to trust instead of the system&apos;s. Only for a mail server of your own whose certificate your organisation issued; leave it empty for any public provider.</source>
        <translation>システムの証明書の代わりに信頼するCA証明書ファイル（PEM形式）です。自組織で発行した証明書を使う独自のメールサーバーの場合だけ指定し、一般のプロバイダーでは空欄のままにしてください。</translation>
    </message>
    <message>
        <source>The password comes from the SHIFTCAST_SMTP_PASSWORD environment variable, which takes the place of the keyring.</source>
        <translation>パスワードは環境変数 SHIFTCAST_SMTP_PASSWORD から読み込まれ、キーリングの代わりに使われています。</translation>
    </message>
    <message>
        <source>✓ A password is saved in this computer&apos;s keyring.</source>
        <translation>✓ パスワードはこのコンピューターのキーリングに保存されています。</translation>
    </message>
    <message>
        <source>No password is saved yet.</source>
        <translation>パスワードはまだ保存されていません。</translation>
    </message>
    <message>
        <source>None (this computer only)</source>
        <translation>なし（このコンピューター内のみ）</translation>
    </message>
    <message>
        <source>Sending e-mail was held because the mail server refused the login. The settings or the password have changed since, so sending resumes with the next e-mail.</source>
        <translation>メールサーバーがログインを拒否したため、メールの送信を保留していました。その後、設定またはパスワードが変更されたので、次のメールから送信を再開します。</translation>
    </message>
    <message>
        <source>Sending e-mail is held since {0}: the mail server refused the login ({1}). E-mails wait in the outbox and none are lost. Correct the password or the settings and save; sending resumes automatically.</source>
        <translation>{0}からメールの送信を保留しています: メールサーバーがログインを拒否しました（{1}）。メールは送信待ちのまま保持され、失われることはありません。パスワードまたは設定を修正して保存すると、自動的に送信を再開します。</translation>
    </message>
    <message>
        <source>CA certificate file</source>
        <translation>CA証明書ファイル</translation>
    </message>
    <message>
        <source>Certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation>証明書 (*.pem *.crt *.cer);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>保存中…</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>保存しました。</translation>
    </message>
    <message>
        <source>Saving, then logging in to the mail server…</source>
        <translation>保存してから、メールサーバーにログインしています…</translation>
    </message>
    <message>
        <source>Logging in to the mail server…</source>
        <translation>メールサーバーにログインしています…</translation>
    </message>
    <message>
        <source>✓ Logged in to {0} as {1}.</source>
        <translation>✓ {0}に{1}としてログインできました。</translation>
    </message>
    <message>
        <source>✓ Connected to {0}; it sends without a login.</source>
        <translation>✓ {0}に接続できました。このサーバーはログインせずに送信します。</translation>
    </message>
    <message>
        <source>Enter the mail server and the from address, and save them first.</source>
        <translation>先にメールサーバーと送信元アドレスを入力して保存してください。</translation>
    </message>
    <message>
        <source>The server refused the user name or password. Check both; some providers want an app password here rather than your usual one.</source>
        <translation>サーバーがユーザー名またはパスワードを拒否しました。両方を確認してください。プロバイダーによっては、普段のパスワードではなくアプリパスワードが必要です。</translation>
    </message>
    <message>
        <source>The server did not accept this way of logging in. Your provider may need the login to be allowed for mail programs, or an app password.</source>
        <translation>サーバーがこのログイン方法を受け付けませんでした。プロバイダー側でメールソフトからのログインを許可するか、アプリパスワードを使う必要があるかもしれません。</translation>
    </message>
    <message>
        <source>The secure connection to {0} failed. Check the security setting and the port (STARTTLS usually uses 587, TLS 465); for a mail server with its own certificate, choose its CA file under Advanced.</source>
        <translation>{0}への暗号化接続に失敗しました。暗号化の設定とポートを確認してください（通常、STARTTLSは587、TLSは465）。独自の証明書を使うメールサーバーの場合は、「詳細設定」でCA証明書ファイルを選択してください。</translation>
    </message>
    <message>
        <source>The CA file cannot be read. Choose it again under Advanced, or leave the field empty.</source>
        <translation>CA証明書ファイルを読み込めません。「詳細設定」で選択し直すか、空欄にしてください。</translation>
    </message>
    <message>
        <source>The mail server {0} did not answer in time. Check the port and the security setting, and that this computer is online.</source>
        <translation>メールサーバー{0}から時間内に応答がありませんでした。ポートと暗号化の設定、このコンピューターがインターネットに接続されていることを確認してください。</translation>
    </message>
    <message>
        <source>Could not connect to the mail server {0}. Check the server&apos;s address and the port, and that this computer is online.</source>
        <translation>メールサーバー{0}に接続できませんでした。サーバーのアドレスとポート、このコンピューターがインターネットに接続されていることを確認してください。</translation>
    </message>
    <message>
        <source>The mail server refused the login.</source>
        <translation>メールサーバーがログインを拒否しました。</translation>
    </message>
</context>
<context>
    <name>EnterDialog</name>
    <message>
        <source>Enter answers</source>
        <translation>回答の入力</translation>
    </message>
    <message>
        <source>For example: 火木 17時以降, 12/5 ×, 全部OK — or paste the reply with ○, × or the hours after each day</source>
        <translation>例: 火木 17時以降、12/5 ×、全部OK。返信の日付一覧（各日のあとに ○・×・時間）をそのまま貼り付けることもできます</translation>
    </message>
    <message>
        <source>Enter</source>
        <translation>入力</translation>
    </message>
    <message>
        <source>Teacher:</source>
        <translation>講師:</translation>
    </message>
    <message>
        <source>Answers:</source>
        <translation>回答:</translation>
    </message>
    <message>
        <source>These answers cannot be read for certain. Write each day once, for example 12/5 ×, 火木 17時以降 or 全部OK.</source>
        <translation>回答を確かに読み取れません。「12/5 ×」「火木 17時以降」「全部OK」のように、1日に1つの回答で入力してください。</translation>
    </message>
</context>
<context>
    <name>FriendsDialog</name>
    <message>
        <source>Pick from the account&apos;s friends</source>
        <translation>アカウントの友だちから選ぶ</translation>
    </message>
    <message>
        <source>Asking LINE for the account&apos;s friends…</source>
        <translation>アカウントの友だちをLINEに問い合わせ中…</translation>
    </message>
    <message>
        <source>Filter by name</source>
        <translation>名前で絞り込み</translation>
    </message>
    <message>
        <source>Use this friend</source>
        <translation>この友だちを使う</translation>
    </message>
    <message>
        <source>The account has no friends yet. Ask the teacher to add it as a friend in LINE.</source>
        <translation>アカウントにはまだ友だちがいません。講師にLINEでアカウントを友だち追加してもらってください。</translation>
    </message>
    <message numerus="yes">
        <source>Reading the names of %n friends…</source>
        <translation>
            <numerusform>友だち%n人の名前を取得しています…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n friends. Pick the teacher and press Use this friend.</source>
        <translation>
            <numerusform>友だちは%n人です。講師を選んで「この友だちを使う」を押してください。</numerusform>
        </translation>
    </message>
    <message>
        <source>{0} — already {1}</source>
        <translation>{0} — 登録済み: {1}</translation>
    </message>
    <message>
        <source>LINE could not be asked.</source>
        <translation>LINEに問い合わせできませんでした。</translation>
    </message>
</context>
<context>
    <name>GroupPage</name>
    <message>
        <source>Classroom:</source>
        <translation>教室:</translation>
    </message>
    <message>
        <source>Groups the account is in:</source>
        <translation>アカウントが参加しているグループ:</translation>
    </message>
    <message>
        <source>Waiting for LINE… The group appears here a moment after the account joins it.</source>
        <translation>LINEからの通知を待っています…。アカウントがグループに参加すると、まもなくここに表示されます。</translation>
    </message>
    <message>
        <source>Use this group</source>
        <translation>このグループを使う</translation>
    </message>
    <message>
        <source>Your teachers&apos; group</source>
        <translation>講師のLINEグループ</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>次へ</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>省略</translation>
    </message>
    <message>
        <source>your LINE Official Account</source>
        <translation>LINE公式アカウント</translation>
    </message>
    <message>
        <source>Invite the account into your teachers&apos; group now: in the LINE app, open the group, tap the menu, then “Invite”, and choose “{0}”. LINE tells Shiftcast, and the group appears below.</source>
        <translation>今すぐ講師のグループにアカウントを招待してください。LINEアプリでグループを開き、メニューの「招待」から「{0}」を選びます。LINEからShiftcastに通知が届くと、下にグループが表示されます。</translation>
    </message>
    <message>
        <source>You can skip this step and come back to it: a group the account has joined stays offered here the next time you open Connect LINE.</source>
        <translation>この手順は省略して、あとで選ぶこともできます。アカウントが参加したグループは、次に「LINEに接続」を開いたときもここに表示されます。</translation>
    </message>
    <message>
        <source>There is no classroom yet: add one in Settings → Classrooms, then open Connect LINE again to choose its group. You can skip this step.</source>
        <translation>教室がまだありません。「設定 → 教室」で教室を追加してから、もう一度「LINEに接続」を開いてグループを選んでください。この手順は省略できます。</translation>
    </message>
    <message>
        <source>A group (LINE did not give its name)</source>
        <translation>グループ（LINEから名前を取得できませんでした）</translation>
    </message>
    <message>
        <source>{0} — {1} members</source>
        <translation>{0} — {1}人</translation>
    </message>
    <message>
        <source>Saving the group…</source>
        <translation>グループを保存中…</translation>
    </message>
    <message>
        <source>The group</source>
        <translation>グループ</translation>
    </message>
    <message>
        <source>✓ “{0}” is now the LINE group of {1}.</source>
        <translation>✓ 「{0}」を{1}のLINEグループに設定しました。</translation>
    </message>
    <message>
        <source>Reminders for {0} go to the LINE group “{1}”.</source>
        <translation>{0}のお知らせはLINEグループ「{1}」に送られます。</translation>
    </message>
</context>
<context>
    <name>HostingSection</name>
    <message>
        <source>Image hosting</source>
        <translation>画像ホスティング</translation>
    </message>
    <message>
        <source>Demo mode: images are served by the demo&apos;s own little web server, so nothing here is used.</source>
        <translation>デモモード: 画像はデモ用の小さなWebサーバーから配信されるため、ここの設定は使われません。</translation>
    </message>
    <message>
        <source>LINE shows pictures only from a public web address, so Shiftcast uploads each month&apos;s roster image to a storage bucket of yours: Cloudflare R2, Amazon S3, MinIO or another S3-compatible service. Your provider&apos;s console shows the values below when you create the bucket and an access key for it.</source>
        <translation>LINEは公開されたWebアドレスの画像しか表示できないため、Shiftcastは毎月のシフト表の画像を、お使いのストレージバケット（Cloudflare R2、Amazon S3、MinIOなどのS3互換サービス）にアップロードします。以下の値は、バケットとそのアクセスキーを作成したときに、各サービスの管理画面に表示されます。</translation>
    </message>
    <message>
        <source>Endpoint address:</source>
        <translation>エンドポイント:</translation>
    </message>
    <message>
        <source>Bucket:</source>
        <translation>バケット:</translation>
    </message>
    <message>
        <source>Region:</source>
        <translation>リージョン:</translation>
    </message>
    <message>
        <source>R2 uses “auto”; on Amazon S3 it is the bucket&apos;s region, such as ap-northeast-1.</source>
        <translation>R2では「auto」です。Amazon S3ではバケットのリージョン（ap-northeast-1など）を指定します。</translation>
    </message>
    <message>
        <source>Access key ID:</source>
        <translation>アクセスキーID:</translation>
    </message>
    <message>
        <source>Type to replace the saved key</source>
        <translation>入力すると保存済みのキーを置き換えます</translation>
    </message>
    <message>
        <source>Secret access key:</source>
        <translation>シークレットアクセスキー:</translation>
    </message>
    <message>
        <source>Optional, e.g. https://pub-….r2.dev</source>
        <translation>任意。例: https://pub-….r2.dev</translation>
    </message>
    <message>
        <source>Public address:</source>
        <translation>公開アドレス:</translation>
    </message>
    <message>
        <source> days</source>
        <translation> 日</translation>
    </message>
    <message>
        <source>Links stay valid for:</source>
        <translation>リンクの有効期間:</translation>
    </message>
    <message>
        <source>If the bucket is published at a public address, links to it never expire. Otherwise each link is signed and stops working after at most 7 days (a limit of S3), so older rosters can no longer be opened from LINE.</source>
        <translation>バケットが公開アドレスで公開されている場合、リンクの有効期限はありません。そうでない場合、各リンクは署名付きで最長7日（S3の制限）で無効になるため、古いシフト表はLINEから開けなくなります。</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Test upload</source>
        <translation>テストアップロード</translation>
    </message>
    <message>
        <source>✓ A secret access key is saved in this computer&apos;s keyring.</source>
        <translation>✓ シークレットアクセスキーはこのコンピューターのキーリングに保存されています。</translation>
    </message>
    <message>
        <source>No secret access key is saved yet.</source>
        <translation>シークレットアクセスキーはまだ保存されていません。</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>保存中…</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>保存しました。</translation>
    </message>
    <message>
        <source>Uploading a small test file…</source>
        <translation>小さなテストファイルをアップロード中…</translation>
    </message>
    <message>
        <source>✓ Uploaded. LINE will load images from links like this one:</source>
        <translation>✓ アップロードしました。LINEは次のようなリンクから画像を読み込みます:</translation>
    </message>
</context>
<context>
    <name>HoursDialog</name>
    <message>
        <source>Hours for payroll</source>
        <translation>給与用の勤務時間</translation>
    </message>
    <message>
        <source>Previous month</source>
        <translation>前の月</translation>
    </message>
    <message>
        <source>Next month</source>
        <translation>次の月</translation>
    </message>
    <message>
        <source>Classroom:</source>
        <translation>教室:</translation>
    </message>
    <message>
        <source>UTF-8 (Excel)</source>
        <translation>UTF-8（Excel）</translation>
    </message>
    <message>
        <source>Shift_JIS (older software)</source>
        <translation>Shift_JIS（古いソフト向け）</translation>
    </message>
    <message>
        <source>The CSV file&apos;s encoding</source>
        <translation>CSVファイルの文字コード</translation>
    </message>
    <message>
        <source>Save CSV…</source>
        <translation>CSVで保存…</translation>
    </message>
    <message>
        <source>Print…</source>
        <translation>印刷…</translation>
    </message>
    <message>
        <source>Encoding:</source>
        <translation>文字コード:</translation>
    </message>
    <message>
        <source>All classrooms</source>
        <translation>すべての教室</translation>
    </message>
    <message>
        <source>all classrooms</source>
        <translation>全教室</translation>
    </message>
    <message>
        <source>hours</source>
        <translation>勤務時間</translation>
    </message>
    <message>
        <source>Save hours as CSV</source>
        <translation>勤務時間をCSVで保存</translation>
    </message>
    <message>
        <source>Saved {0}</source>
        <translation>{0}を保存しました</translation>
    </message>
    <message>
        <source>Sent {0} to the printer.</source>
        <translation>{0}をプリンターに送りました。</translation>
    </message>
    <message>
        <source>Print hours</source>
        <translation>勤務時間を印刷</translation>
    </message>
</context>
<context>
    <name>ImageViewer</name>
    <message>
        <source>Zoom out</source>
        <translation>縮小</translation>
    </message>
    <message>
        <source>Zoom in</source>
        <translation>拡大</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>全体表示</translation>
    </message>
    <message>
        <source>Fit width</source>
        <translation>幅に合わせる</translation>
    </message>
    <message>
        <source>100%</source>
        <translation>100%</translation>
    </message>
    <message>
        <source>No preview yet.</source>
        <translation>プレビューはまだありません。</translation>
    </message>
    <message>
        <source>{0}%</source>
        <translation>{0}%</translation>
    </message>
</context>
<context>
    <name>ImageWindow</name>
    <message>
        <source>Image (demo)</source>
        <translation>画像（デモ）</translation>
    </message>
</context>
<context>
    <name>InboxWindow</name>
    <message>
        <source>Teachers&apos; LINE inbox (demo)</source>
        <translation>講師のLINE受信箱（デモ）</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>What the teachers and their groups received from the built-in LINE and LINE WORKS simulators. Nothing here went to real LINE or LINE WORKS accounts.</source>
        <translation>講師と講師のグループが、内蔵のLINE・LINE WORKSシミュレーターから受け取った内容です。実際のLINEやLINE WORKSのアカウントには何も送られていません。</translation>
    </message>
    <message>
        <source>Invite the account into a group</source>
        <translation>アカウントをグループに招待</translation>
    </message>
    <message>
        <source>The simulator invites the LINE account into a new group of the teachers, as you would in the LINE app: Connect LINE&apos;s group step then offers it.</source>
        <translation>LINEアプリで招待するのと同じように、シミュレーターがLINE公式アカウントを講師の新しいグループに招待します。「LINEに接続」のグループの手順に、そのグループが表示されます。</translation>
    </message>
    <message>
        <source>Simulate the computer sleeping</source>
        <translation>コンピューターのスリープを試す</translation>
    </message>
    <message>
        <source>Shiftcast&apos;s sender stops as if the computer slept, a reminder comes due, and the relay sends it. Wake the computer afterwards to see its attempts.</source>
        <translation>コンピューターがスリープしたときと同じように、Shiftcastの送信プロセスが止まり、送信時刻になったリマインダーを中継サーバーが送信します。そのあとコンピューターを起こすと、送信の記録を確認できます。</translation>
    </message>
    <message>
        <source>Teachers not on LINE yet</source>
        <translation>まだLINEに登録していない講師</translation>
    </message>
    <message>
        <source>The inbox exists only in demo mode.</source>
        <translation>受信箱はデモモードでのみ使えます。</translation>
    </message>
    <message>
        <source>To try Connect LINE with the simulator, enter channel ID {0} and channel secret {1}.</source>
        <translation>シミュレーターで「LINEに接続」を試すには、チャネルID {0} とチャネルシークレット {1} を入力してください。</translation>
    </message>
    <message>
        <source>{0} (LINE WORKS room)</source>
        <translation>{0}（LINE WORKSトークルーム）</translation>
    </message>
    <message>
        <source>{0} (LINE WORKS)</source>
        <translation>{0}（LINE WORKS）</translation>
    </message>
    <message>
        <source>{0} (LINE group)</source>
        <translation>{0}（LINEグループ）</translation>
    </message>
    <message>
        <source>Nothing has been sent yet. Messages appear here as the demo sends them.</source>
        <translation>まだ何も送信されていません。デモが送信したメッセージがここに表示されます。</translation>
    </message>
    <message>
        <source>{0} (code {1})</source>
        <translation>{0}（コード {1}）</translation>
    </message>
    <message>
        <source>Send the code as this teacher</source>
        <translation>この講師としてコードを送る</translation>
    </message>
    <message>
        <source>The simulator acts as {0}: adds the LINE account as a friend and sends it the pairing code, as the teacher would on their phone.</source>
        <translation>シミュレーターが{0}さんの代わりに、講師がスマートフォンで行うのと同じように、LINE公式アカウントを友だち追加して登録コードを送ります。</translation>
    </message>
    <message>
        <source>The relay part of the demo is off: {0}</source>
        <translation>このデモでは中継サーバーを動かしていません: {0}</translation>
    </message>
    <message>
        <source>The relay is starting on this computer…</source>
        <translation>このコンピューターで中継サーバーを起動しています…</translation>
    </message>
    <message>
        <source>The computer is awake again: its sender took over and recorded what the relay sent. Deliveries shows those attempts as by the relay.</source>
        <translation>コンピューターが起動しました。送信プロセスが再開し、中継サーバーが送信した内容を記録しました。配信状況では、それらの送信に「中継サーバーから」と表示されます。</translation>
    </message>
    <message>
        <source>The relay runs on this computer, as it would at Cloudflare: it sends the reminders Shiftcast handed over while no computer is awake.</source>
        <translation>中継サーバーがこのコンピューターで動いています（Cloudflare上と同じ動きです）。どのコンピューターも起動していない間、Shiftcastから預かったリマインダーを送信します。</translation>
    </message>
    <message>
        <source>Wake the computer</source>
        <translation>コンピューターを起こす</translation>
    </message>
    <message>
        <source>Tapped “{0}” as {1} on LINE WORKS.</source>
        <translation>{1}さんとしてLINE WORKSで「{0}」をタップしました。</translation>
    </message>
    <message>
        <source>LINE WORKS</source>
        <translation>LINE WORKS</translation>
    </message>
    <message>
        <source>LINE WORKS sends Shiftcast this message&apos;s button tap as {0} would make it on their phone.</source>
        <translation>{0}さんがスマートフォンでタップしたときと同じように、LINE WORKSがこのメッセージのボタンのタップをShiftcastに送ります。</translation>
    </message>
    <message>
        <source>Sent by the relay while the computer slept</source>
        <translation>コンピューターのスリープ中に中継サーバーが送信</translation>
    </message>
    <message>
        <source>This picture can no longer be shown: it was not kept on this computer.</source>
        <translation>この画像は表示できません。このコンピューターに保存されていませんでした。</translation>
    </message>
    <message>
        <source>Sent the code {0} as {1}.</source>
        <translation>{1}さんとしてコード {0} を送りました。</translation>
    </message>
    <message numerus="yes">
        <source>The computer sleeps: Shiftcast&apos;s sender is stopped, and the relay sent %n messages in its place. Wake the computer to see them in Deliveries.</source>
        <translation>
            <numerusform>コンピューターはスリープ中です。Shiftcastの送信は止まっていて、代わりに中継サーバーがメッセージを%n通送りました。コンピューターを起こすと、配信状況で確認できます。</numerusform>
        </translation>
    </message>
    <message>
        <source>The account joined the group “{0}”.</source>
        <translation>アカウントがグループ「{0}」に参加しました。</translation>
    </message>
    <message>
        <source>Tapped “{0}” as {1}.</source>
        <translation>{1}さんとして「{0}」をタップしました。</translation>
    </message>
    <message>
        <source>{0}–{1}</source>
        <translation>{0}〜{1}</translation>
    </message>
    <message>
        <source>Chose {0} for “{1}” as {2}.</source>
        <translation>{2}さんとして「{1}」に{0}を選びました。</translation>
    </message>
    <message>
        <source>The simulator has no webhook address to send it to.</source>
        <translation>シミュレーターに送信先のWebhookアドレスが設定されていません。</translation>
    </message>
    <message>
        <source>Shiftcast did not take it: {0} {1}</source>
        <translation>Shiftcastが受け付けませんでした: {0} {1}</translation>
    </message>
    <message>
        <source>Loading the image…</source>
        <translation>画像を読み込み中…</translation>
    </message>
    <message>
        <source>Click to see it full size</source>
        <translation>クリックすると原寸で表示します</translation>
    </message>
    <message>
        <source>Reply “{0}” as the teacher</source>
        <translation>講師として「{0}」と返信</translation>
    </message>
    <message>
        <source>The simulator taps this message&apos;s button as {0} would on their phone.</source>
        <translation>シミュレーターが{0}さんの代わりに、スマートフォンで行うのと同じようにこのメッセージのボタンをタップします。</translation>
    </message>
    <message>
        <source>Time picker</source>
        <translation>時刻の選択</translation>
    </message>
    <message>
        <source>Choose “{0}” as the teacher</source>
        <translation>講師として「{0}」で時刻を選ぶ</translation>
    </message>
    <message>
        <source>The simulator chooses these times in LINE&apos;s time picker as {0} would on their phone.</source>
        <translation>シミュレーターが、{0}さんがスマートフォンで選ぶのと同じように、LINEの時刻選択でこの時刻を選びます。</translation>
    </message>
</context>
<context>
    <name>InlineError</name>
    <message>
        <source>Sorry, something went wrong. The details were written to the log file.</source>
        <translation>申し訳ありません。問題が発生しました。詳細はログファイルに記録されています。</translation>
    </message>
</context>
<context>
    <name>LanguageSection</name>
    <message>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <source>Automatic (follow the system)</source>
        <translation>自動（システムの設定に従う）</translation>
    </message>
    <message>
        <source>Shiftcast&apos;s language:</source>
        <translation>Shiftcastの表示言語:</translation>
    </message>
    <message>
        <source>The language of the messages teachers receive is set per classroom above.</source>
        <translation>講師が受け取るメッセージの言語は、上の教室ごとの設定で指定します。</translation>
    </message>
    <message>
        <source>Saved. The new language applies the next time Shiftcast starts.</source>
        <translation>保存しました。新しい言語は、Shiftcastの次回起動時から適用されます。</translation>
    </message>
</context>
<context>
    <name>LessonSlotsDialog</name>
    <message>
        <source>Lesson slots of {0}</source>
        <translation>{0}のコマ</translation>
    </message>
    <message>
        <source>e.g. 1限</source>
        <translation>例: 1限</translation>
    </message>
    <message>
        <source>Lesson slots</source>
        <translation>コマ</translation>
    </message>
    <message>
        <source>A shift can then be entered by its slot in the shift dialog; it keeps its own times, so changing a slot later moves no shift.</source>
        <translation>シフトの入力画面でコマを選んで時刻を入力できるようになります。シフトには時刻が保存されるため、後でコマを変更してもシフトは変わりません。</translation>
    </message>
</context>
<context>
    <name>LimitsEditor</name>
    <message>
        <source>No limit</source>
        <translation>上限なし</translation>
    </message>
    <message>
        <source> shifts</source>
        <translation> 回</translation>
    </message>
    <message>
        <source>None</source>
        <translation>なし</translation>
    </message>
    <message>
        <source> days</source>
        <translation> 日</translation>
    </message>
    <message>
        <source>Like everyone (1)</source>
        <translation>標準（1）</translation>
    </message>
    <message>
        <source>A relative weight: a teacher with 2 is given about twice the work of one with 1.</source>
        <translation>ほかの講師との比率です。2の講師には、1の講師の約2倍のシフトを割り当てます。</translation>
    </message>
    <message>
        <source>Most shifts a &amp;month:</source>
        <translation>月の最大シフト数(&amp;M):</translation>
    </message>
    <message>
        <source>Most &amp;hours a month:</source>
        <translation>月の最大時間(&amp;H):</translation>
    </message>
    <message>
        <source>&amp;Fewest hours a month:</source>
        <translation>月の最低時間(&amp;F):</translation>
    </message>
    <message>
        <source>hours (40, 40:30 or 40.5)</source>
        <translation>時間（40、40:30、40.5 のように入力）</translation>
    </message>
    <message>
        <source>Most &amp;days in a row:</source>
        <translation>最大連続勤務日数(&amp;D):</translation>
    </message>
    <message>
        <source>Most Saturdays and &amp;Sundays a month:</source>
        <translation>月の最大土日勤務日数(&amp;S):</translation>
    </message>
    <message>
        <source>Share of w&amp;ork:</source>
        <translation>配分(&amp;O):</translation>
    </message>
    <message>
        <source>Lesson slots they can teach. None ticked in a classroom: all of its slots.</source>
        <translation>担当できるコマ（教室ごとに、チェックがなければその教室のすべてのコマを担当できます）</translation>
    </message>
    <message>
        <source>No classroom has lesson slots yet (Classroom settings).</source>
        <translation>まだどの教室にもコマがありません（教室の設定で登録します）。</translation>
    </message>
</context>
<context>
    <name>LineSection</name>
    <message>
        <source>LINE</source>
        <translation>LINE</translation>
    </message>
    <message>
        <source>Shiftcast sends through the Messaging API channel of your LINE Official Account. It needs the channel&apos;s access token, a long password that lets it send in the account&apos;s name.</source>
        <translation>Shiftcastは、LINE公式アカウントのMessaging APIチャネルからメッセージを送ります。送るには「チャネルアクセストークン」が必要です。アカウントの名前で送信するための、長いパスワードのようなものです。</translation>
    </message>
    <message>
        <source>Connect LINE…</source>
        <translation>LINEに接続…</translation>
    </message>
    <message>
        <source>Connect:</source>
        <translation>かんたん設定:</translation>
    </message>
    <message>
        <source>A guided set-up with the channel ID and channel secret: Shiftcast makes its own access tokens and checks that LINE can reach it.</source>
        <translation>チャネルIDとチャネルシークレットを使って、順を追って設定します。Shiftcastがアクセストークンを自動で発行し、LINEからShiftcastに届くことを確認します。</translation>
    </message>
    <message>
        <source>Paste the channel access token</source>
        <translation>チャネルアクセストークンを貼り付け</translation>
    </message>
    <message>
        <source>Save token</source>
        <translation>トークンを保存</translation>
    </message>
    <message>
        <source>Channel access token:</source>
        <translation>チャネルアクセストークン:</translation>
    </message>
    <message>
        <source>Find it in the LINE Developers console: open your provider, then the Messaging API channel, the “Messaging API” tab, and issue a “Channel access token (long-lived)” at the bottom. Shiftcast keeps it in this computer&apos;s keyring, never in its database, and never shows it again.</source>
        <translation>LINE Developersコンソールで、プロバイダー、Messaging APIチャネルの順に開き、「Messaging API設定」タブの下部で「チャネルアクセストークン（長期）」を発行してください。Shiftcastはトークンをデータベースではなくこのコンピューターのキーリングに保存し、再び表示することはありません。</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>接続テスト</translation>
    </message>
    <message>
        <source>Connection:</source>
        <translation>接続の確認:</translation>
    </message>
    <message>
        <source>Asks LINE for the account&apos;s name and how many messages it sent this month. Your LINE plan allows a number of messages per month; a message to a group counts once per member.</source>
        <translation>アカウント名と今月の送信数をLINEに問い合わせます。LINEのプランでは月ごとに送信できるメッセージ数が決まっており、グループへのメッセージはメンバーの人数分として数えられます。</translation>
    </message>
    <message>
        <source>Add a “了解” button to reminders and corrections</source>
        <translation>リマインダーと変更のお知らせに「了解」ボタンを付ける</translation>
    </message>
    <message>
        <source>了解 button:</source>
        <translation>了解ボタン:</translation>
    </message>
    <message>
        <source>A teacher taps it to say they have seen the message; Deliveries and the roster then show when. Taps are seen only while Shiftcast is receiving LINE&apos;s events: this computer awake, with its public address up (Connect LINE… → keep receiving). Switch “Webhook redelivery” on in the LINE Developers console (Messaging API tab) so that LINE sends the taps made meanwhile again, as far as it keeps them.</source>
        <translation>講師がメッセージを確認したときにタップします。タップした日時は配信状況とシフト表に表示されます。タップが届くのは、ShiftcastがLINEのイベントを受信している間（このパソコンが起動していて、公開アドレスが有効な間。「LINEに接続…」で受信を続ける）だけです。LINE Developersコンソール（Messaging APIタブ）で「Webhookの再送」をオンにすると、その間のタップもLINEが保持している範囲で再送されます。</translation>
    </message>
    <message>
        <source>Add an “Ask for cover” button to reminders</source>
        <translation>リマインダーに「代講を頼む」ボタンを付ける</translation>
    </message>
    <message>
        <source>Cover requests:</source>
        <translation>代講の依頼:</translation>
    </message>
    <message>
        <source>A teacher who cannot take a shift taps it, or writes “12/5 代講お願いします”, and the request appears in Shifts → Cover requests… for you to decide. As with 了解, requests are seen only while Shiftcast is receiving LINE&apos;s events.</source>
        <translation>シフトに入れなくなった講師がこのボタンを押すか「12/5 代講お願いします」と送ると、シフト → 代講の依頼… に表示され、対応を決められます。了解ボタンと同じく、依頼が届くのはShiftcastがLINEのイベントを受信している間だけです。</translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation>詳細設定</translation>
    </message>
    <message>
        <source>Save address</source>
        <translation>アドレスを保存</translation>
    </message>
    <message>
        <source>The address Shiftcast sends LINE requests to. Leave it empty to use LINE itself; change it only to try Shiftcast against a LINE simulator.</source>
        <translation>ShiftcastがLINEへのリクエストを送るアドレスです。空欄にすると本物のLINEを使います。変更するのは、LINEシミュレーターでShiftcastを試す場合だけにしてください。</translation>
    </message>
    <message>
        <source>✓ Reminders sent from now on carry an “Ask for cover” button.</source>
        <translation>✓ これから送るリマインダーに「代講を頼む」ボタンが付きます。</translation>
    </message>
    <message>
        <source>Reminders sent from now on have no “Ask for cover” button.</source>
        <translation>これから送るリマインダーには「代講を頼む」ボタンが付きません。</translation>
    </message>
    <message>
        <source>Demo mode: messages go to the built-in LINE simulator, so no token is needed.</source>
        <translation>デモモード: メッセージは内蔵のLINEシミュレーターに送られるため、トークンは不要です。</translation>
    </message>
    <message>
        <source>The token comes from the SHIFTCAST_LINE_TOKEN environment variable, which takes the place of the keyring.</source>
        <translation>トークンは環境変数 SHIFTCAST_LINE_TOKEN から読み込まれ、キーリングの代わりに使われています。</translation>
    </message>
    <message>
        <source>✓ A token is saved in this computer&apos;s keyring.</source>
        <translation>✓ トークンはこのコンピューターのキーリングに保存されています。</translation>
    </message>
    <message>
        <source>No token is saved yet.</source>
        <translation>トークンはまだ保存されていません。</translation>
    </message>
    <message>
        <source>For now the SHIFTCAST_LINE_API_BASE environment variable decides the address: {0}</source>
        <translation>現在は環境変数 SHIFTCAST_LINE_API_BASE でアドレスが指定されています: {0}</translation>
    </message>
    <message>
        <source>Sending to LINE was held because LINE refused the previous token. A new token has been saved, so sending resumes with the next message.</source>
        <translation>以前のトークンがLINEに拒否されたため、LINEへの送信を保留していました。新しいトークンを保存したので、次のメッセージから送信を再開します。</translation>
    </message>
    <message>
        <source>Sending to LINE is held since {0}: LINE refused the channel access token ({1}). Messages wait in the outbox and none are lost. Save a corrected token above and sending resumes automatically.</source>
        <translation>{0}からLINEへの送信を保留しています: LINEがチャネルアクセストークンを拒否しました（{1}）。メッセージは送信待ちのまま保持され、失われることはありません。上で正しいトークンを保存すると、自動的に送信を再開します。</translation>
    </message>
    <message>
        <source>✓ Reminders and corrections sent from now on carry a “了解” button.</source>
        <translation>✓ これから送るリマインダーと変更のお知らせに「了解」ボタンが付きます。</translation>
    </message>
    <message>
        <source>Messages sent from now on have no “了解” button.</source>
        <translation>これから送るメッセージには「了解」ボタンが付きません。</translation>
    </message>
    <message>
        <source>Paste the channel access token first.</source>
        <translation>先にチャネルアクセストークンを貼り付けてください。</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>保存中…</translation>
    </message>
    <message>
        <source>Asking LINE…</source>
        <translation>LINEに問い合わせ中…</translation>
    </message>
    <message>
        <source>This month {0} of {1} messages are used ({2} left). A message to a group counts once per member.</source>
        <translation>今月は{1}通中{0}通を使用しました（残り{2}通）。グループへのメッセージはメンバーの人数分として数えられます。</translation>
    </message>
    <message>
        <source>This month {0} messages were sent; this plan has no monthly limit.</source>
        <translation>今月は{0}通送信しました。このプランには月間の上限がありません。</translation>
    </message>
    <message>
        <source>Connected to “{0}” ({1}).</source>
        <translation>「{0}」（{1}）に接続しました。</translation>
    </message>
    <message>
        <source>LINE refused this token. Copy the channel access token again from the LINE Developers console (it may have been reissued or revoked), paste it above and save it.</source>
        <translation>LINEがこのトークンを拒否しました。LINE Developersコンソールからチャネルアクセストークンをもう一度コピーし（再発行または失効している可能性があります）、上に貼り付けて保存してください。</translation>
    </message>
    <message>
        <source>Saved: Shiftcast talks to {0}.</source>
        <translation>保存しました: Shiftcastは{0}に接続します。</translation>
    </message>
</context>
<context>
    <name>LineWorksSection</name>
    <message>
        <source>LINE WORKS</source>
        <translation>LINE WORKS</translation>
    </message>
    <message>
        <source>For teachers whose organisation uses LINE WORKS: Shiftcast sends them their messages from a bot there. In the LINE WORKS Developer Console, make an app with a Service Account and issue its private key, and register a bot; copy their values here.</source>
        <translation>LINE WORKS を使っている組織の講師には、Shiftcast が LINE WORKS のボットからメッセージを送ります。LINE WORKS Developer Console でアプリを作成して Service Account と秘密鍵を発行し、ボットを登録してから、それぞれの値をここに入力してください。</translation>
    </message>
    <message>
        <source>Client ID:</source>
        <translation>Client ID：</translation>
    </message>
    <message>
        <source>Choose file…</source>
        <translation>ファイルを選択…</translation>
    </message>
    <message>
        <source>Private key:</source>
        <translation>秘密鍵：</translation>
    </message>
    <message>
        <source>The .key file the Developer Console saved when you issued the private key. Shiftcast keeps the key itself in this computer&apos;s keyring; the file is not needed afterwards.</source>
        <translation>秘密鍵を発行したときに Developer Console から保存した .key ファイルです。Shiftcast は鍵の内容をこのコンピューターのキーリングに保存するので、保存後はファイルは不要です。</translation>
    </message>
    <message>
        <source>Bot ID:</source>
        <translation>Bot ID：</translation>
    </message>
    <message>
        <source>Client Secret:</source>
        <translation>Client Secret：</translation>
    </message>
    <message>
        <source>Service Account:</source>
        <translation>Service Account：</translation>
    </message>
    <message>
        <source>Bot Secret:</source>
        <translation>Bot Secret：</translation>
    </message>
    <message>
        <source>The bot&apos;s callback checks the 了解 button&apos;s taps with it.</source>
        <translation>ボットのコールバックで、了解ボタンが押されたことを確認するのに使います。</translation>
    </message>
    <message>
        <source>Optional</source>
        <translation>任意</translation>
    </message>
    <message>
        <source>Domain ID:</source>
        <translation>Domain ID：</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <source>Callback URL:</source>
        <translation>Callback URL：</translation>
    </message>
    <message>
        <source>Enter it as the bot&apos;s Callback URL in the Developer Console: 了解 taps come back to Shiftcast there. It is the address Shiftcast receives at, followed by /line-works/callback.</source>
        <translation>Developer ConsoleのBotの「Callback URL」に入力してください。「了解」のタップはここからShiftcastに届きます。Shiftcastが受信するアドレスの後ろに /line-works/callback を付けたものです。</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>テスト</translation>
    </message>
    <message>
        <source>Test asks LINE WORKS for an access token with the saved values; it sends nothing. Changes not yet saved are saved first.</source>
        <translation>「テスト」は保存済みの値で LINE WORKS にアクセストークンを求めます。メッセージは送りません。未保存の変更は先に保存されます。</translation>
    </message>
    <message>
        <source>Receive here</source>
        <translation>ここで受け取る</translation>
    </message>
    <message>
        <source>Receive taps (了解):</source>
        <translation>「了解」の受け取り:</translation>
    </message>
    <message>
        <source>Shiftcast receives the bot&apos;s callbacks while its window or tray runs, at an internet address that reaches this computer.</source>
        <translation>Shiftcast は、ウィンドウまたはトレイで動いている間、このパソコンに届くインターネット上のアドレスで Bot のコールバックを受け取ります。</translation>
    </message>
    <message>
        <source>Shiftcast starts Cloudflare&apos;s cloudflared program. Its address is new each time Shiftcast starts: enter the callback URL below in the Developer Console again after every start.</source>
        <translation>Shiftcast が Cloudflare の cloudflared を起動します。このアドレスは Shiftcast を起動するたびに変わります。起動するたびに、下の Callback URL を Developer Console に入力し直してください。</translation>
    </message>
    <message>
        <source>Your address stays the same, so the callback URL is entered once.</source>
        <translation>自分のアドレスは変わらないため、Callback URL の入力は一度で済みます。</translation>
    </message>
    <message>
        <source>✓ Shiftcast receives the taps now. Enter the callback URL below as the bot&apos;s Callback URL in the Developer Console.</source>
        <translation>✓ 「了解」のタップを受け取れるようになりました。下の Callback URL を Developer Console で Bot の「Callback URL」に入力してください。</translation>
    </message>
    <message>
        <source>Not known yet: Shiftcast is not receiving. Choose where it receives above, or at the last step of Connect LINE; or it is your own HTTPS address when `shiftcast webhook` runs behind it.</source>
        <translation>まだわかりません。Shiftcast は受信していません。受け取る場所を上で選ぶか、「LINEに接続」の最後の手順で選んでください。`shiftcast webhook` を自分の HTTPS アドレスの後ろで動かす場合は、そのアドレスになります。</translation>
    </message>
    <message>
        <source>Saved. Shiftcast receives there from its next start.</source>
        <translation>保存しました。次に Shiftcast を起動したときから、そこで受け取ります。</translation>
    </message>
    <message>
        <source>Type to replace the saved secret</source>
        <translation>保存済みの値を置き換えるときだけ入力</translation>
    </message>
    <message>
        <source>{0} (saved with Save)</source>
        <translation>{0}（「保存」で保存されます）</translation>
    </message>
    <message>
        <source>✓ A private key is saved in this computer&apos;s keyring.</source>
        <translation>✓ 秘密鍵はこのコンピューターのキーリングに保存されています。</translation>
    </message>
    <message>
        <source>No private key is saved yet.</source>
        <translation>秘密鍵はまだ保存されていません。</translation>
    </message>
    <message>
        <source>LINE WORKS private key</source>
        <translation>LINE WORKS の秘密鍵</translation>
    </message>
    <message>
        <source>Private keys (*.key *.pem);;All files (*)</source>
        <translation>秘密鍵 (*.key *.pem);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>保存中…</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>保存しました。</translation>
    </message>
    <message>
        <source>Saving, then asking LINE WORKS for a token…</source>
        <translation>保存してから LINE WORKS にトークンを求めています…</translation>
    </message>
    <message>
        <source>Asking LINE WORKS for a token…</source>
        <translation>LINE WORKS にトークンを求めています…</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source> — DEMO</source>
        <translation> — デモ</translation>
    </message>
    <message>
        <source>Shifts</source>
        <translation>シフト</translation>
    </message>
    <message>
        <source>Publish</source>
        <translation>公開</translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation>配信状況</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Hours for payroll…</source>
        <translation>給与用の勤務時間(&amp;H)…</translation>
    </message>
    <message>
        <source>Each teacher&apos;s confirmed hours of a month, to save as CSV or print</source>
        <translation>講師ごとの1か月の確定した勤務時間（CSVで保存・印刷できます）</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <source>Open the data folder</source>
        <translation>データフォルダーを開く</translation>
    </message>
    <message>
        <source>Open the log file</source>
        <translation>ログファイルを開く</translation>
    </message>
    <message>
        <source>About Shiftcast</source>
        <translation>Shiftcastについて</translation>
    </message>
    <message>
        <source>Shiftcast {0}
Shift rosters published and reminded over LINE.

Data folder: {1}</source>
        <translation>Shiftcast {0}
シフト表をLINEで公開し、リマインダーを送ります。

データフォルダー: {1}</translation>
    </message>
    <message>
        <source>Starting to send…</source>
        <translation>送信を開始しています…</translation>
    </message>
    <message>
        <source>Another Shiftcast window or tray is sending</source>
        <translation>別のShiftcastのウィンドウまたはトレイが送信しています</translation>
    </message>
    <message>
        <source>Not sending from this window</source>
        <translation>このウィンドウからは送信していません</translation>
    </message>
    <message>
        <source>Sending held: LINE refused the channel access token (Settings)</source>
        <translation>送信保留中: LINEがチャネルアクセストークンを拒否しました（設定）</translation>
    </message>
    <message>
        <source>Sending paused</source>
        <translation>送信一時停止中</translation>
    </message>
    <message>
        <source>Sending</source>
        <translation>送信中</translation>
    </message>
    <message>
        <source>{0} · waiting {1} · failed {2}</source>
        <translation>{0} · 待機 {1}件 · 失敗 {2}件</translation>
    </message>
</context>
<context>
    <name>MonthPicker</name>
    <message>
        <source>MMMM yyyy</source>
        <comment>date pattern of the month picker</comment>
        <translation>yyyy年M月</translation>
    </message>
</context>
<context>
    <name>NeedsModel</name>
    <message>
        <source>Needed: {0} · Assigned: {1}</source>
        <translation>必要: {0}人 · 割り当て: {1}人</translation>
    </message>
    <message>
        <source>Short by {0}</source>
        <translation>{0}人不足</translation>
    </message>
    <message>
        <source>Over by {0}</source>
        <translation>{0}人超過</translation>
    </message>
    <message>
        <source>Closed: nobody is needed</source>
        <translation>休業日のため必要人数は0人です</translation>
    </message>
    <message>
        <source>A shift counts when it covers the whole slot.</source>
        <translation>コマの開始から終了までを含むシフトだけを数えます。</translation>
    </message>
    <message>
        <source>Teachers in {0}: assigned/needed</source>
        <translation>{0}の講師: 割り当て/必要人数</translation>
    </message>
</context>
<context>
    <name>NeedsStrip</name>
    <message>
        <source>Staffing needs</source>
        <translation>必要人数</translation>
    </message>
    <message>
        <source>Teachers per lesson slot, assigned/needed: red and bold is short, purple and italic is over (Classroom setup → Staffing needs… sets them)</source>
        <translation>コマごとの講師数（割り当て/必要人数）: 赤の太字は不足、紫の斜体は超過です（「教室の設定 → 必要人数…」で設定します）</translation>
    </message>
</context>
<context>
    <name>NextStepsPage</name>
    <message>
        <source>Keep receiving LINE&apos;s events whenever Shiftcast runs (in the window or the tray)</source>
        <translation>Shiftcastの実行中（ウィンドウでもトレイでも）は、LINEからのイベントを受信し続ける</translation>
    </message>
    <message>
        <source>Next steps</source>
        <translation>次に行うこと</translation>
    </message>
    <message>
        <source>LINE is connected</source>
        <translation>LINEとの接続が完了しました</translation>
    </message>
    <message>
        <source>✓ Shiftcast is connected to the LINE Official Account “{0}”.</source>
        <translation>✓ LINE公式アカウント「{0}」とShiftcastが接続されました。</translation>
    </message>
    <message>
        <source>✓ Shiftcast and your LINE channel are connected.</source>
        <translation>✓ ShiftcastとLINEチャネルが接続されました。</translation>
    </message>
    <message>
        <source>Invite the account into your teachers&apos; LINE group: in the group, tap the menu, then “Invite”, and choose the account. Shiftcast learns the group from LINE while it receives; open Connect LINE again to choose it for a classroom.</source>
        <translation>LINE公式アカウントを講師のLINEグループに招待してください。グループのメニューから「招待」をタップし、アカウントを選びます。受信している間にShiftcastがグループを知るので、もう一度「LINEに接続」を開いて教室のグループに選んでください。</translation>
    </message>
    <message>
        <source>Keep receiving (below), or none of this reaches Shiftcast.</source>
        <translation>下の「受信し続ける」をオンにしてください。オフのままでは、どれもShiftcastに届きません。</translation>
    </message>
    <message>
        <source>Teachers&apos; 了解 taps, pairing codes and answers then reach Shiftcast whenever it runs.</source>
        <translation>講師の「了解」や登録コード、回答が、Shiftcastの動いている間いつでも届きます。</translation>
    </message>
    <message>
        <source>Finish puts LINE&apos;s earlier webhook address back: later 了解 taps and codes do not arrive.</source>
        <translation>「完了」でLINEのWebhook URLが元に戻り、以後の「了解」や登録コードは届きません。</translation>
    </message>
    <message>
        <source>Finish</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>Putting LINE&apos;s earlier webhook address back…</source>
        <translation>LINEのWebhook URLを元に戻しています…</translation>
    </message>
    <message>
        <source>Finishing…</source>
        <translation>完了しています…</translation>
    </message>
    <message>
        <source>LINE could not be reached to put the earlier webhook address back. Shiftcast tries again the next time it starts.</source>
        <translation>LINEに接続できず、Webhook URLを元に戻せませんでした。次にShiftcastを起動したときにもう一度試します。</translation>
    </message>
</context>
<context>
    <name>PageFields</name>
    <message>
        <source>A page inside LINE where each paired teacher sees their month and the classroom&apos;s, answers availability on a calendar and offers to take cover calls. Your relay serves it; the buttons in Shiftcast&apos;s messages open it. In the LINE Developers Console:</source>
        <translation>LINEの中で開くページです。登録済みの講師は、自分と教室の今月のシフトを見たり、カレンダーで希望を答えたり、代講の募集に応じたりできます。ページは中継サーバーから配信され、Shiftcastのメッセージのボタンから開きます。LINE Developers コンソールで次のように設定してください。</translation>
    </message>
    <message>
        <source>1. Under the same provider as your Messaging API channel (so each teacher&apos;s LINE user ID is the same), create a LINE Login channel.
2. In its LIFF tab, add a LIFF app: Size “Full”, Scopes “openid” and “profile”, and this Endpoint URL:</source>
        <translation>1. Messaging APIチャネルと同じプロバイダーで、LINEログインチャネルを作成します（同じプロバイダーでないと、講師のLINEユーザーIDが一致しません）。
2. そのチャネルの「LIFF」タブでLIFFアプリを追加します。サイズは「Full」、スコープは「openid」と「profile」、エンドポイントURLは次のとおりです。</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <source>A relay is needed first: the page is served from it. Deploy one in Settings → Always on, then come back to this step.</source>
        <translation>先に中継サーバーが必要です。ページは中継サーバーから配信されます。「設定」→「常時稼働」で設置してから、この手順に戻ってください。</translation>
    </message>
    <message>
        <source>Open Settings → Always on</source>
        <translation>「設定」→「常時稼働」を開く</translation>
    </message>
    <message>
        <source>3. Paste the channel&apos;s ID and the LIFF app&apos;s ID here:</source>
        <translation>3. チャネルIDとLIFF IDをここに貼り付けます。</translation>
    </message>
    <message>
        <source>LINE Login channel ID:</source>
        <translation>LINEログインのチャネルID：</translation>
    </message>
    <message>
        <source>LIFF ID:</source>
        <translation>LIFF ID：</translation>
    </message>
    <message>
        <source>The channel ID is on the LINE Login channel&apos;s Basic settings tab (not the Messaging API channel&apos;s); the LIFF ID is in the list of its LIFF tab.</source>
        <translation>チャネルIDはLINEログインチャネルの「チャネル基本設定」タブにあります（Messaging APIチャネルのものではありません）。LIFF IDは「LIFF」タブの一覧にあります。</translation>
    </message>
    <message>
        <source>Turn the teachers&apos; page on</source>
        <translation>講師ページをオンにする</translation>
    </message>
</context>
<context>
    <name>PatternsEditor</name>
    <message>
        <source>Weekly patterns</source>
        <translation>毎週の予定</translation>
    </message>
    <message>
        <source>at</source>
        <translation>場所</translation>
    </message>
    <message>
        <source>From</source>
        <translation>開始日</translation>
    </message>
    <message>
        <source>until</source>
        <translation>終了日</translation>
    </message>
    <message>
        <source>{0} {1}–{2} at {3}</source>
        <translation>{0} {1}〜{2}（{3}）</translation>
    </message>
    <message>
        <source>from {0}</source>
        <translation>{0}から</translation>
    </message>
    <message>
        <source>until {0}</source>
        <translation>{0}まで</translation>
    </message>
</context>
<context>
    <name>PublishView</name>
    <message>
        <source>Previous month</source>
        <translation>前の月</translation>
    </message>
    <message>
        <source>Next month</source>
        <translation>次の月</translation>
    </message>
    <message>
        <source>Classroom:</source>
        <translation>教室:</translation>
    </message>
    <message>
        <source>Dry run</source>
        <translation>公開前の確認</translation>
    </message>
    <message>
        <source>Recipients</source>
        <translation>宛先</translation>
    </message>
    <message>
        <source>Group members</source>
        <translation>グループのメンバー数</translation>
    </message>
    <message>
        <source>Quota cost</source>
        <translation>消費する通数</translation>
    </message>
    <message>
        <source>Quota left this month</source>
        <translation>今月の残り通数</translation>
    </message>
    <message>
        <source>Drafts to confirm</source>
        <translation>確定する下書き</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>版</translation>
    </message>
    <message>
        <source>Also send each teacher their month</source>
        <translation>講師一人ひとりにもその人の月間シフトを送る</translation>
    </message>
    <message>
        <source>Each teacher&apos;s month</source>
        <translation>講師ごとの月間シフト</translation>
    </message>
    <message>
        <source>Changes since the last publication</source>
        <translation>前回の公開からの変更</translation>
    </message>
    <message>
        <source>Publish…</source>
        <translation>公開…</translation>
    </message>
    <message>
        <source>Published revisions</source>
        <translation>公開済みの版</translation>
    </message>
    <message>
        <source>Published</source>
        <translation>公開日時</translation>
    </message>
    <message>
        <source>Changed cells</source>
        <translation>変更セル数</translation>
    </message>
    <message>
        <source>Delivery</source>
        <translation>配信</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>PNGで書き出し…</translation>
    </message>
    <message>
        <source>Export PDF…</source>
        <translation>PDFで書き出し…</translation>
    </message>
    <message>
        <source>Print…</source>
        <translation>印刷…</translation>
    </message>
    <message>
        <source>Prints the chosen revision, or the roster as it would be published when none is chosen</source>
        <translation>選んだ版を印刷します。版を選んでいないときは、いま公開した場合のシフト表を印刷します</translation>
    </message>
    <message>
        <source>No classroom yet. Add one with “Add classroom…” in the Shifts area; its roster can then be published here.</source>
        <translation>教室がまだありません。「シフト」画面の「教室を追加…」で追加すると、ここでシフト表を公開できます。</translation>
    </message>
    <message>
        <source>The preview could not be drawn.</source>
        <translation>プレビューを表示できませんでした。</translation>
    </message>
    <message>
        <source>{0}&apos;s LINE group</source>
        <translation>{0}のLINEグループ</translation>
    </message>
    <message>
        <source>No LINE group yet: the month waits for it</source>
        <translation>LINEグループはまだ選ばれていません</translation>
    </message>
    <message>
        <source>Publish {0}&apos;s roster for {1} as revision {2}?</source>
        <translation>{0}の{1}のシフト表を、第{2}版として公開しますか？</translation>
    </message>
    <message>
        <source>LINE group ID: {0}</source>
        <translation>LINEグループID: {0}</translation>
    </message>
    <message>
        <source>unknown (LINE has not been asked yet)</source>
        <translation>不明（まだLINEに問い合わせていません）</translation>
    </message>
    <message>
        <source>{0} (from LINE just now)</source>
        <translation>{0}人（LINEから取得）</translation>
    </message>
    <message>
        <source>{0} (cached)</source>
        <translation>{0}人（前回の取得値）</translation>
    </message>
    <message numerus="yes">
        <source>%n messages</source>
        <translation>
            <numerusform>%n通</numerusform>
        </translation>
    </message>
    <message>
        <source>teachers: {0}; LINE messages: {1}, counted in the quota cost</source>
        <translation>講師 {0}人、LINEのメッセージ {1}通（送信数に含めています）</translation>
    </message>
    <message numerus="yes">
        <source>{0} — an update: %n changed cells are highlighted</source>
        <translation>
            <numerusform>第{0}版（更新・変わった%n箇所に色付け）</numerusform>
        </translation>
    </message>
    <message>
        <source>{0} — no change since the previous revision</source>
        <translation>第{0}版（前の版から変更なし）</translation>
    </message>
    <message numerus="yes">
        <source>LINE&apos;s monthly quota would not cover this: %n messages left, this publication needs {0}. LINE will refuse it until the quota resets or is raised.</source>
        <translation>
            <numerusform>LINEの今月の送信数が足りません。残り%n通に対して、この公開には{0}通必要です。上限がリセットされるか引き上げられるまで、LINEは送信を受け付けません。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n draft shifts will be confirmed first.</source>
        <translation>
            <numerusform>先に、下書きのシフト%n件を確定します。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n cells changed since revision {0}; they are highlighted in the image.</source>
        <translation>
            <numerusform>第{0}版から%n箇所が変わりました。画像では色を付けて示します。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>It costs %n messages of LINE&apos;s monthly quota{0}.</source>
        <translation>
            <numerusform>LINEの今月の送信数を%n通使います{0}。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Revision {0} is published and on its way to the LINE group and by e-mail (%n teachers).</source>
        <translation>
            <numerusform>第{0}版を公開しました。LINEグループとメール（講師%n人）に送信します。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Each teacher&apos;s own month: %n messages.</source>
        <translation>
            <numerusform>講師ごとの月間シフトを%n通送ります。</numerusform>
        </translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>不明</translation>
    </message>
    <message>
        <source>As one picture of the month&apos;s grid, to the classroom&apos;s {0} room</source>
        <translation>教室の{0}トークに、月のシフト表を1枚の画像で届けます。</translation>
    </message>
    <message>
        <source>{0}&apos;s {1} room</source>
        <translation>{0}の{1}トーク</translation>
    </message>
    <message>
        <source>none: no LINE group; the month goes to the room above</source>
        <translation>なし（LINEグループがありません。月のシフトは上のトークに届きます）</translation>
    </message>
    <message>
        <source>none: no LINE message is sent</source>
        <translation>なし（LINEのメッセージは送られません）</translation>
    </message>
    <message>
        <source>{0} of {1}</source>
        <translation>{0}通（上限{1}通）</translation>
    </message>
    <message>
        <source>no monthly limit known</source>
        <translation>月間の上限は不明</translation>
    </message>
    <message>
        <source>not sent</source>
        <translation>送りません</translation>
    </message>
    <message>
        <source>{0} — the first publication of this month</source>
        <translation>第{0}版 — この月の初回の公開</translation>
    </message>
    <message>
        <source>Changes since revision {0}</source>
        <translation>第{0}版からの変更</translation>
    </message>
    <message>
        <source>Nothing published yet for this month: everything is new.</source>
        <translation>この月はまだ公開されていません。すべてが新規です。</translation>
    </message>
    <message>
        <source>No changes.</source>
        <translation>変更はありません。</translation>
    </message>
    <message>
        <source>Nothing changed since revision {0}: there is nothing new to publish.</source>
        <translation>第{0}版から変更がないため、新たに公開する内容はありません。</translation>
    </message>
    <message>
        <source>no shift</source>
        <translation>シフトなし</translation>
    </message>
    <message>
        <source>{0} — {1}: {2} → {3}</source>
        <translation>{0} — {1}: {2} → {3}</translation>
    </message>
    <message>
        <source>Sent {0}</source>
        <translation>送信済み（{0}）</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>送信待ち</translation>
    </message>
    <message>
        <source>Failed: {0}</source>
        <translation>失敗: {0}</translation>
    </message>
    <message>
        <source>Canceled — superseded by a later revision</source>
        <translation>取消 — 新しい版に置き換え</translation>
    </message>
    <message>
        <source>Canceled</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Waiting for the LINE group</source>
        <translation>LINEグループを待っています</translation>
    </message>
    <message>
        <source>Unknown (delivery history purged)</source>
        <translation>不明（配信履歴は削除済み）</translation>
    </message>
    <message>
        <source> ({0} left this month)</source>
        <translation>（今月の残り{0}通）</translation>
    </message>
    <message>
        <source>Publish</source>
        <translation>公開</translation>
    </message>
    <message>
        <source>Publishing…</source>
        <translation>公開中…</translation>
    </message>
    <message>
        <source>Revision {0} is published and on its way to the LINE group.</source>
        <translation>第{0}版を公開しました。LINEグループへ送信しています。</translation>
    </message>
    <message>
        <source>The earlier revision that had not gone out yet will not be sent.</source>
        <translation>まだ送信されていなかった前の版は送信されません。</translation>
    </message>
    <message>
        <source>preview</source>
        <translation>プレビュー</translation>
    </message>
    <message>
        <source>Sent {0} to the printer.</source>
        <translation>{0}をプリンターに送りました。</translation>
    </message>
    <message>
        <source>Export PDF</source>
        <translation>PDFで書き出し</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Export PNG</source>
        <translation>PNGで書き出し</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG画像 (*.png)</translation>
    </message>
    <message>
        <source>Saved {0}</source>
        <translation>{0}を保存しました</translation>
    </message>
    <message>
        <source>Print</source>
        <translation>印刷</translation>
    </message>
</context>
<context>
    <name>QAbstractFileIconProvider</name>
    <message>
        <source>Folder</source>
        <translation>フォルダ</translation>
    </message>
    <message>
        <source>File</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <source>Drive</source>
        <translation>ドライブ</translation>
    </message>
    <message>
        <source>%1 File</source>
        <translation>%1 ファイル</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>場所(&amp;L):</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>ファイルの種類(&amp;T):</translation>
    </message>
    <message>
        <source>Show hidden files</source>
        <translation>隠しファイルを表示</translation>
    </message>
</context>
<context>
    <name>QFileSystemModel</name>
    <message>
        <source>&lt;b&gt;The name &quot;%1&quot; cannot be used.&lt;/b&gt;&lt;p&gt;Try using another name, with fewer characters or no punctuation marks.</source>
        <translation>&lt;b&gt;「%1」という名前は使えません。&lt;/b&gt;&lt;p&gt;文字を減らすか、記号を使わない名前にしてください。</translation>
    </message>
</context>
<context>
    <name>QWidget</name>
    <message>
        <source>Sorry, something went wrong. The details were written to the log file.</source>
        <translation>申し訳ありません。問題が発生しました。詳細はログファイルに記録されています。</translation>
    </message>
</context>
<context>
    <name>ReadinessPanel</name>
    <message>
        <source>Connect LINE…</source>
        <translation>LINEに接続…</translation>
    </message>
    <message>
        <source>LINE settings</source>
        <translation>LINEの設定</translation>
    </message>
    <message>
        <source>Add a classroom…</source>
        <translation>教室を追加…</translation>
    </message>
    <message>
        <source>Teachers…</source>
        <translation>講師管理…</translation>
    </message>
    <message>
        <source>E-mail settings</source>
        <translation>メールの設定</translation>
    </message>
    <message>
        <source>Image hosting settings</source>
        <translation>画像ホスティングの設定</translation>
    </message>
    <message>
        <source>Receive again</source>
        <translation>受信し直す</translation>
    </message>
    <message>
        <source>Start at login</source>
        <translation>ログイン時に起動</translation>
    </message>
    <message>
        <source>Choose the LINE group…</source>
        <translation>LINEグループを選ぶ…</translation>
    </message>
    <message>
        <source>Show the shift</source>
        <translation>シフトを表示</translation>
    </message>
    <message>
        <source>Always on settings</source>
        <translation>常時稼働の設定</translation>
    </message>
    <message>
        <source>LINE WORKS settings</source>
        <translation>LINE WORKS の設定</translation>
    </message>
    <message>
        <source>Classroom settings</source>
        <translation>教室の設定</translation>
    </message>
    <message>
        <source>Teachers&apos; page…</source>
        <translation>講師ページ…</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>詳しく</translation>
    </message>
    <message>
        <source>Could not check whether messages can be sent: {0}</source>
        <translation>メッセージを送信できるかどうか確認できませんでした: {0}</translation>
    </message>
</context>
<context>
    <name>RelaySection</name>
    <message>
        <source>Always on</source>
        <translation>常時稼働</translation>
    </message>
    <message>
        <source>While every computer with Shiftcast sleeps, nobody answers LINE and no reminder goes out. A small relay on your own free Cloudflare account fixes this: it keeps LINE&apos;s events (such as teachers&apos; replies and pairing codes) until Shiftcast fetches them, sends the reminders Shiftcast handed it when no computer has been awake for 5 minutes, and holds the month&apos;s image for LINE. It keeps nothing for longer than 7 days: events and results until Shiftcast fetches them, sent reminders and images 7 days. Only Shiftcast holds the key to it.</source>
        <translation>Shiftcastを入れたコンピューターがすべてスリープしている間は、LINEに応答する人がいないため、リマインダーも送信されません。ご自分の無料のCloudflareアカウントに小さな中継サーバーを置くと解決します。中継サーバーは、LINEのイベント（講師の返信やペアリングコードなど）をShiftcastが取得するまで保管し、5分以上どのコンピューターも起動していないときに、Shiftcastから預かったリマインダーを送信し、月のシフト表の画像をLINE向けに保管します。7日を超えて保管するものはありません（イベントと結果はShiftcastが取得するまで、送信済みのリマインダーと画像は7日間）。中継サーバーの鍵はShiftcastだけが持っています。</translation>
    </message>
    <message>
        <source>Create a token on Cloudflare…</source>
        <translation>Cloudflareでトークンを作成…</translation>
    </message>
    <message>
        <source>The page opens with the permissions filled in (Workers scripts and D1: edit, account settings: read). Create the token there, copy it and paste it below.</source>
        <translation>必要な権限（Workers スクリプトとD1: 編集、アカウント設定: 読み取り）が入力された状態でページが開きます。そこでトークンを作成し、コピーして下に貼り付けてください。</translation>
    </message>
    <message>
        <source>Paste the Cloudflare API token</source>
        <translation>CloudflareのAPIトークンを貼り付け</translation>
    </message>
    <message>
        <source>Save token</source>
        <translation>トークンを保存</translation>
    </message>
    <message>
        <source>API token:</source>
        <translation>APIトークン:</translation>
    </message>
    <message>
        <source>Deploy</source>
        <translation>設置</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>削除…</translation>
    </message>
    <message>
        <source>No relay is deployed.</source>
        <translation>中継サーバーは設置されていません。</translation>
    </message>
    <message>
        <source>The relay at {0} does not answer right now.</source>
        <translation>{0} の中継サーバーが現在応答しません。</translation>
    </message>
    <message>
        <source>✓ The relay {0} runs at:</source>
        <translation>✓ 中継サーバー {0} が動いています:</translation>
    </message>
    <message>
        <source>Paste the token first.</source>
        <translation>先にトークンを貼り付けてください。</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>保存中…</translation>
    </message>
    <message>
        <source>✓ The token is saved in this computer&apos;s keyring.</source>
        <translation>✓ トークンをこのコンピューターのキーリングに保存しました。</translation>
    </message>
    <message>
        <source>Deploying the relay…</source>
        <translation>中継サーバーを設置しています…</translation>
    </message>
    <message>
        <source>Remove the relay</source>
        <translation>中継サーバーの削除</translation>
    </message>
    <message>
        <source>Delete the relay and its database from your Cloudflare account and point LINE back to the address it had before? Events the relay holds that Shiftcast has not fetched yet are lost.</source>
        <translation>中継サーバーとそのデータベースをCloudflareアカウントから削除し、LINEのWebhookを元のアドレスに戻しますか？ Shiftcastがまだ取得していない、中継サーバー上のイベントは失われます。</translation>
    </message>
    <message>
        <source>Removing the relay…</source>
        <translation>中継サーバーを削除しています…</translation>
    </message>
</context>
<context>
    <name>RichMenuRow</name>
    <message>
        <source>Menu under the chat</source>
        <translation>トーク画面下のメニュー</translation>
    </message>
    <message>
        <source>Four buttons under your LINE chat open the teachers&apos; page: my shifts, availability, cover calls, my calendar.</source>
        <translation>LINEのトーク画面の下に4つのボタンが表示され、講師ページ（自分のシフト・シフト希望・代講・カレンダー）を開けます。</translation>
    </message>
    <message>
        <source>Set the menu</source>
        <translation>メニューを設定</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Setting the menu at LINE…</source>
        <translation>LINEにメニューを設定しています…</translation>
    </message>
    <message>
        <source>The teachers&apos; page is on: setting the menu under the chat…</source>
        <translation>講師ページがオンになりました。トーク画面下のメニューを設定しています…</translation>
    </message>
    <message>
        <source>The LIFF ID changed: setting the menu under the chat again…</source>
        <translation>LIFF IDが変わりました。トーク画面下のメニューを設定し直しています…</translation>
    </message>
    <message>
        <source>The menu under the chat is set again: its buttons open the page at the new LIFF ID.</source>
        <translation>トーク画面下のメニューを設定し直しました。ボタンは新しいLIFF IDのページを開きます。</translation>
    </message>
    <message>
        <source>Removing the menu at LINE…</source>
        <translation>LINEからメニューを削除しています…</translation>
    </message>
    <message>
        <source>The menu is set: everyone who has added the LINE account sees it under the chat.</source>
        <translation>メニューを設定しました。LINE公式アカウントを友だち追加した全員のトーク画面下に表示されます。</translation>
    </message>
    <message>
        <source>The menu set before is deleted.</source>
        <translation>以前のメニューは削除しました。</translation>
    </message>
    <message>
        <source>The teachers&apos; page is on, so the menu under the chat is set: everyone who has added the LINE account sees it. Remove takes it away.</source>
        <translation>講師ページがオンになったため、トーク画面下のメニューを設定しました。LINE公式アカウントを友だち追加した全員に表示されます。「削除」で取り消せます。</translation>
    </message>
    <message>
        <source>The menu is removed: LINE shows no menu under the chat now.</source>
        <translation>メニューを削除しました。トーク画面下にメニューは表示されなくなりました。</translation>
    </message>
    <message>
        <source>No menu was set: nothing to remove.</source>
        <translation>メニューは設定されていないため、削除するものはありません。</translation>
    </message>
    <message>
        <source>Set: everyone who has added the LINE account sees it.</source>
        <translation>設定済み：LINE公式アカウントを友だち追加した全員に表示されています。</translation>
    </message>
    <message>
        <source>Not set.</source>
        <translation>未設定です。</translation>
    </message>
    <message>
        <source>Set again</source>
        <translation>もう一度設定</translation>
    </message>
    <message>
        <source>To set it, enter the LINE Login channel ID and the LIFF ID above and save.</source>
        <translation>設定するには、上でLINEログインのチャネルIDとLIFF IDを入力して保存してください。</translation>
    </message>
    <message>
        <source>To set it, turn the teachers&apos; page on above and save.</source>
        <translation>設定するには、上で講師ページをオンにして保存してください。</translation>
    </message>
    <message>
        <source>To set it, attach a relay first (Settings → Always on): it serves the page.</source>
        <translation>設定するには、先に中継サーバーを設置してください（「設定」→「常時稼働」）。ページは中継サーバーから配信されます。</translation>
    </message>
    <message>
        <source>To set it, connect LINE first.</source>
        <translation>設定するには、先にLINEを接続してください。</translation>
    </message>
</context>
<context>
    <name>RosterCommands</name>
    <message>
        <source>Add shift {0}</source>
        <translation>シフト追加 {0}</translation>
    </message>
    <message>
        <source>Edit shift {0}</source>
        <translation>シフト編集 {0}</translation>
    </message>
    <message>
        <source>Delete shift {0}</source>
        <translation>シフト削除 {0}</translation>
    </message>
    <message>
        <source>Cancel shift {0}</source>
        <translation>シフト取消 {0}</translation>
    </message>
    <message>
        <source>Copy shift {0} to other days ({1})</source>
        <translation>シフト {0} をほかの日にコピー（{1}日）</translation>
    </message>
    <message>
        <source>Copy last month into {0}</source>
        <translation>{0}に先月をコピー</translation>
    </message>
    <message>
        <source>Fill {0} from patterns</source>
        <translation>{0}を毎週の予定から作成</translation>
    </message>
    <message>
        <source>Confirm {0}</source>
        <translation>{0} の確定</translation>
    </message>
    <message>
        <source>Draft {0}</source>
        <translation>{0}の下書き</translation>
    </message>
</context>
<context>
    <name>RosterEditor</name>
    <message>
        <source>Add a teacher first (Teachers…).</source>
        <translation>先に講師を追加してください（講師管理…）。</translation>
    </message>
    <message>
        <source>There is no shift to delete here.</source>
        <translation>ここには削除するシフトがありません。</translation>
    </message>
    <message>
        <source>Deleted {0}.</source>
        <translation>削除しました: {0}</translation>
    </message>
    <message>
        <source>Cancel shift</source>
        <translation>シフトの取消</translation>
    </message>
    <message>
        <source>{0} is confirmed, so the teacher may already know about it.

Cancel it and tell the teacher?</source>
        <translation>{0} は確定済みのため、講師はすでに知っている可能性があります。

このシフトを取り消して、講師に通知しますか？</translation>
    </message>
    <message>
        <source>Canceled {0}.</source>
        <translation>取り消しました: {0}</translation>
    </message>
    <message>
        <source>&amp;Add shift…</source>
        <translation>シフトを追加(&amp;A)…</translation>
    </message>
    <message>
        <source>Added {0}.</source>
        <translation>追加しました: {0}</translation>
    </message>
    <message>
        <source>Saved {0}.</source>
        <translation>保存しました: {0}</translation>
    </message>
    <message numerus="yes">
        <source>Copied to %n days as drafts.</source>
        <translation>
            <numerusform>%n日に下書きとしてコピーしました。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Confirmed %n shifts.</source>
        <translation>
            <numerusform>シフト%n件を確定しました。</numerusform>
        </translation>
    </message>
    <message>
        <source>{0} has no drafts to confirm.</source>
        <translation>{0}には確定する下書きがありません。</translation>
    </message>
    <message>
        <source>Confirm month</source>
        <translation>月の確定</translation>
    </message>
    <message>
        <source>&amp;Edit shift…</source>
        <translation>シフトを編集(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Delete shift</source>
        <translation>シフトを削除(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Cancel shift…</source>
        <translation>シフトを取消(&amp;C)…</translation>
    </message>
    <message>
        <source>Copy to other &amp;days…</source>
        <translation>他の日にコピー(&amp;D)…</translation>
    </message>
</context>
<context>
    <name>RosterGrid</name>
    <message>
        <source>draft</source>
        <translation>下書き</translation>
    </message>
    <message>
        <source>confirmed</source>
        <translation>確定</translation>
    </message>
    <message>
        <source>canceled</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>RosterGridModel</name>
    <message>
        <source>Said they can work</source>
        <translation>出勤できると回答</translation>
    </message>
    <message>
        <source>Said they cannot work</source>
        <translation>出勤できないと回答</translation>
    </message>
    <message>
        <source>Said they can work {0}–{1}</source>
        <translation>{0}〜{1} なら出勤できると回答</translation>
    </message>
    <message>
        <source>✓ {0} tapped 了解 on {1}</source>
        <translation>✓ {0}さんが{1}に了解しました</translation>
    </message>
    <message>
        <source>No shift. Press Enter or N to add one.</source>
        <translation>シフトなし。Enter キーまたは N キーで追加できます。</translation>
    </message>
    <message>
        <source>closed</source>
        <comment>a closed day&apos;s column heading</comment>
        <translation>休</translation>
    </message>
    <message>
        <source>Closed: {0}</source>
        <translation>休業日: {0}</translation>
    </message>
    <message>
        <source>Closed</source>
        <translation>休業日</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>今日</translation>
    </message>
    <message>
        <source>{0} is not active; shifts shown are kept for the record.</source>
        <translation>{0}は現在在籍していません。表示中のシフトは記録として残しています。</translation>
    </message>
    <message>
        <source>{0}&apos;s month goes over their limits:</source>
        <translation>{0}さんの今月のシフトが上限を超えています。</translation>
    </message>
</context>
<context>
    <name>RosterLegend</name>
    <message>
        <source>Draft (teachers not told yet)</source>
        <translation>下書き（講師には未通知）</translation>
    </message>
    <message>
        <source>Confirmed</source>
        <translation>確定</translation>
    </message>
    <message>
        <source>Canceled</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Saturday</source>
        <translation>土曜日</translation>
    </message>
    <message>
        <source>Sunday / holiday</source>
        <translation>日曜・祝日</translation>
    </message>
    <message>
        <source>Closed day</source>
        <translation>休業日</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>今日</translation>
    </message>
    <message>
        <source>Can work (availability)</source>
        <translation>出勤可（シフト希望）</translation>
    </message>
    <message>
        <source>Cannot work</source>
        <translation>出勤不可</translation>
    </message>
</context>
<context>
    <name>RowList</name>
    <message>
        <source>Add</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>変更</translation>
    </message>
</context>
<context>
    <name>ShiftDialog</name>
    <message>
        <source>Edit shift</source>
        <translation>シフトを編集</translation>
    </message>
    <message>
        <source>Add shift</source>
        <translation>シフトを追加</translation>
    </message>
    <message>
        <source>(teacher #{0})</source>
        <translation>（講師 #{0}）</translation>
    </message>
    <message>
        <source>HH:MM</source>
        <translation>HH:MM</translation>
    </message>
    <message>
        <source>Start time in the classroom&apos;s time zone, e.g. 16:00, 1600 or 16時</source>
        <translation>教室のタイムゾーンでの開始時刻（例: 16:00、1600、16時）</translation>
    </message>
    <message>
        <source>End time. After midnight: tick &quot;ends the next day&quot;, or type 26:00 for 2:00.</source>
        <translation>終了時刻。0時を過ぎる場合は「翌日に終了」にチェックを入れるか、2:00なら26:00と入力します。</translation>
    </message>
    <message>
        <source>ends the next day</source>
        <translation>翌日に終了</translation>
    </message>
    <message>
        <source>(times as typed)</source>
        <translation>（入力した時刻）</translation>
    </message>
    <message>
        <source>Shown to the teacher, e.g. what to bring</source>
        <translation>講師に表示されます（持ち物など）</translation>
    </message>
    <message>
        <source>teachers are told when you confirm the month</source>
        <translation>月を確定すると講師に通知されます</translation>
    </message>
    <message>
        <source>a change is sent to the teacher as a correction</source>
        <translation>変更は訂正として講師に送られます</translation>
    </message>
    <message>
        <source>this shift stays canceled</source>
        <translation>このシフトは取消のままです</translation>
    </message>
    <message>
        <source>&amp;Teacher:</source>
        <translation>講師(&amp;T):</translation>
    </message>
    <message>
        <source>&amp;Date:</source>
        <translation>日付(&amp;D):</translation>
    </message>
    <message>
        <source>&amp;Lesson:</source>
        <translation>コマ(&amp;L):</translation>
    </message>
    <message>
        <source>&amp;Time:</source>
        <translation>時刻(&amp;I):</translation>
    </message>
    <message>
        <source>&amp;Note:</source>
        <translation>メモ(&amp;N):</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>状態:</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>⚠ The classroom is closed this day ({0}). The shift can be saved all the same.</source>
        <translation>⚠ この日は休業日（{0}）です。このままシフトを登録することもできます。</translation>
    </message>
    <message>
        <source>⚠ The classroom is closed this day. The shift can be saved all the same.</source>
        <translation>⚠ この日は休業日です。このままシフトを登録することもできます。</translation>
    </message>
    <message>
        <source>⚠ {0} said they cannot work on this day.</source>
        <translation>⚠ {0}さんはこの日は出勤できないと回答しています。</translation>
    </message>
    <message>
        <source>Add a teacher first (Teachers…).</source>
        <translation>先に講師を追加してください（講師管理…）。</translation>
    </message>
</context>
<context>
    <name>ShiftsToolbar</name>
    <message>
        <source>Previous month</source>
        <translation>前の月</translation>
    </message>
    <message>
        <source>Next month</source>
        <translation>次の月</translation>
    </message>
    <message>
        <source>Classroom:</source>
        <translation>教室:</translation>
    </message>
    <message>
        <source>The classroom whose roster is shown</source>
        <translation>シフト表を表示する教室</translation>
    </message>
    <message>
        <source>Add classroom…</source>
        <translation>教室を追加…</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>元に戻す</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>やり直す</translation>
    </message>
    <message>
        <source>Teachers…</source>
        <translation>講師管理…</translation>
    </message>
    <message>
        <source>Lesson slots…</source>
        <translation>コマ…</translation>
    </message>
    <message>
        <source>The classroom&apos;s lesson slots (コマ), to enter a shift by</source>
        <translation>教室のコマ（シフトをコマで入力するため）</translation>
    </message>
    <message>
        <source>Staffing needs…</source>
        <translation>必要人数…</translation>
    </message>
    <message>
        <source>How many teachers each lesson slot needs (必要人数), by weekday and for single dates</source>
        <translation>各コマに必要な講師の人数（必要人数）を曜日ごと・日付ごとに設定します</translation>
    </message>
    <message>
        <source>Availability…</source>
        <translation>シフト希望…</translation>
    </message>
    <message>
        <source>Ask the teachers on LINE which days they can work this month, and see their answers</source>
        <translation>LINEで講師にこの月の出勤できる日を聞き、回答を確認します</translation>
    </message>
    <message>
        <source>Fill from patterns</source>
        <translation>毎週の予定から作成</translation>
    </message>
    <message>
        <source>Make drafts for every day of this month the teachers&apos; weekly patterns fall on, except closed days and days a teacher already works</source>
        <translation>講師の毎週の予定から、この月の下書きのシフトを作成します（休業日と、講師にすでにシフトがある日は除きます）</translation>
    </message>
    <message>
        <source>Copy last month</source>
        <translation>先月をコピー</translation>
    </message>
    <message>
        <source>Make drafts from last month&apos;s confirmed shifts, the 1st Tuesday to the 1st Tuesday and so on, except closed days</source>
        <translation>先月の確定したシフトから下書きを作成します（第1火曜日は第1火曜日に、のように週と曜日を合わせます。休業日は除きます）</translation>
    </message>
    <message>
        <source>Draft the month…</source>
        <translation>月の下書きを自動作成…</translation>
    </message>
    <message>
        <source>Make a draft of this month from the availability answers, staffing needs and teachers&apos; limits, to review before it is written</source>
        <translation>シフト希望の回答・必要人数・講師の上限から今月の下書きを作ります。書き込む前に確認できます</translation>
    </message>
    <message>
        <source>Cover requests…</source>
        <translation>代講の依頼…</translation>
    </message>
    <message>
        <source>Confirm month…</source>
        <translation>月を確定…</translation>
    </message>
    <message>
        <source>Confirm every draft of this month; teachers are then told and reminded</source>
        <translation>この月の下書きをすべて確定します。確定後、講師に通知とリマインダーが送られます</translation>
    </message>
    <message>
        <source>Classroom setup</source>
        <translation>教室の設定</translation>
    </message>
    <message>
        <source>Add a classroom, or set the classroom&apos;s lesson slots (コマ) and how many teachers each needs</source>
        <translation>教室を追加するか、この教室のコマとコマごとに必要な講師の人数を設定します</translation>
    </message>
    <message>
        <source>Make drafts</source>
        <translation>下書きを作成</translation>
    </message>
    <message>
        <source>Draft the month from the availability answers, or fill it from the weekly patterns or last month</source>
        <translation>シフト希望の回答から月の下書きを自動作成するか、毎週の予定や先月から作成します</translation>
    </message>
    <message>
        <source>CSV</source>
        <translation>CSV</translation>
    </message>
    <message>
        <source>Import or export teachers and shifts as CSV (Excel)</source>
        <translation>講師とシフトをCSV（Excel）でインポート・エクスポート</translation>
    </message>
    <message>
        <source>Import teachers…</source>
        <translation>講師をインポート…</translation>
    </message>
    <message>
        <source>Import shifts…</source>
        <translation>シフトをインポート…</translation>
    </message>
    <message>
        <source>Export teachers…</source>
        <translation>講師をエクスポート…</translation>
    </message>
    <message>
        <source>Export this month&apos;s shifts…</source>
        <translation>この月のシフトをエクスポート…</translation>
    </message>
</context>
<context>
    <name>ShiftsView</name>
    <message>
        <source>No classroom yet</source>
        <translation>教室がまだありません</translation>
    </message>
    <message>
        <source>A roster belongs to a classroom. Add your classroom (you can add more branches later), then add your teachers and their shifts.</source>
        <translation>シフト表は教室ごとに作成します。まず教室を追加し（ほかの校舎は後から追加できます）、次に講師とそのシフトを追加してください。</translation>
    </message>
    <message>
        <source>Add classroom…</source>
        <translation>教室を追加…</translation>
    </message>
    <message>
        <source>No teachers yet</source>
        <translation>講師がまだいません</translation>
    </message>
    <message>
        <source>Add the teachers who work at this classroom, or import them from a CSV file.</source>
        <translation>この教室で勤務する講師を追加するか、CSVファイルからインポートしてください。</translation>
    </message>
    <message>
        <source>Teachers…</source>
        <translation>講師管理…</translation>
    </message>
    <message>
        <source>No teachers of this classroom yet</source>
        <translation>この教室の講師がまだいません</translation>
    </message>
    <message>
        <source>In Teachers…, edit each teacher who works here and tick this classroom under Classrooms.</source>
        <translation>「講師管理…」で、この教室で働く講師を編集し、「所属教室」でこの教室にチェックを入れてください。</translation>
    </message>
    <message>
        <source>shifts: {0}, drafts not confirmed yet: {1}</source>
        <translation>シフト{0}件（未確定の下書き{1}件）</translation>
    </message>
    <message>
        <source>Undo {0}</source>
        <translation>元に戻す: {0}</translation>
    </message>
    <message>
        <source>Nothing to undo</source>
        <translation>元に戻す操作はありません</translation>
    </message>
    <message>
        <source>Redo {0}</source>
        <translation>やり直す: {0}</translation>
    </message>
    <message>
        <source>Nothing to redo</source>
        <translation>やり直す操作はありません</translation>
    </message>
</context>
<context>
    <name>StaffingNeedsDialog</name>
    <message>
        <source>{0}  {1}: {2}</source>
        <comment>a date&apos;s staffing need: the day, the lesson slot, how many teachers</comment>
        <translation>{0}  {1}: {2}人</translation>
    </message>
    <message>
        <source>Staffing needs of {0}</source>
        <translation>{0}の必要人数</translation>
    </message>
    <message>
        <source>How many teachers each lesson slot needs on each weekday. The Shifts grid shows the month&apos;s days against them; closed days need nobody.</source>
        <translation>各コマに曜日ごとに必要な講師の人数です。シフト表に月の各日の割り当てと並べて表示します。休業日の必要人数は0人です。</translation>
    </message>
    <message>
        <source>This classroom has no lesson slots yet: add them in Lesson slots… first.</source>
        <translation>この教室にはまだコマがありません。先に「コマ…」で追加してください。</translation>
    </message>
    <message>
        <source>Dates that need another number (they win over their weekday):</source>
        <translation>人数の異なる日付（曜日の設定より優先されます）:</translation>
    </message>
    <message>
        <source>Dates that need another number</source>
        <translation>人数の異なる日付</translation>
    </message>
</context>
<context>
    <name>TeacherChannel</name>
    <message>
        <source>LINE</source>
        <translation>LINE</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>メール</translation>
    </message>
    <message>
        <source>LINE and e-mail</source>
        <translation>LINEとメール</translation>
    </message>
    <message>
        <source>LINE, e-mail if LINE cannot reach them</source>
        <translation>LINE（届かない場合はメール）</translation>
    </message>
    <message>
        <source>LINE cannot reach this teacher (not a friend of the account, or blocked).</source>
        <translation>LINEではこの講師にメッセージが届きません（アカウントの友だちでないか、ブロックされています）。</translation>
    </message>
</context>
<context>
    <name>TeacherEditDialog</name>
    <message>
        <source>Edit teacher</source>
        <translation>講師を編集</translation>
    </message>
    <message>
        <source>Add teacher</source>
        <translation>講師を追加</translation>
    </message>
    <message>
        <source>e.g. さとう はなこ (optional; teachers are listed by it)</source>
        <translation>例: さとう はなこ（任意。講師はこの読みの順に並びます）</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>任意</translation>
    </message>
    <message>
        <source>U followed by 32 hex digits (optional)</source>
        <translation>U に続く16進数32桁（任意）</translation>
    </message>
    <message>
        <source>Not the LINE ID people search for: the user ID LINE gives this account. Teachers cannot see it themselves; use Pick or Check.</source>
        <translation>友だち検索に使うLINE IDではなく、LINEがこのアカウント向けに割り当てるユーザーIDです。講師本人は確認できないため、「友だちから選ぶ」または「確認」を使ってください。</translation>
    </message>
    <message>
        <source>&amp;Check</source>
        <translation>確認(&amp;C)</translation>
    </message>
    <message>
        <source>Ask LINE whose ID this is</source>
        <translation>このIDが誰のものかLINEに問い合わせます</translation>
    </message>
    <message>
        <source>&amp;Pick from the account&apos;s friends…</source>
        <translation>アカウントの友だちから選ぶ(&amp;P)…</translation>
    </message>
    <message>
        <source>Send LINE messages (the teacher agreed)</source>
        <translation>LINEメッセージを送る（講師の同意あり）</translation>
    </message>
    <message>
        <source>Send e-mails (the teacher agreed)</source>
        <translation>メールを送る（講師の同意あり）</translation>
    </message>
    <message>
        <source>Active: can be given shifts</source>
        <translation>在籍中（シフトを割り当て可能）</translation>
    </message>
    <message>
        <source>Send by {0} (the teacher agreed)</source>
        <translation>{0}で送る（講師の同意あり）</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>氏名(&amp;N):</translation>
    </message>
    <message>
        <source>&amp;Reading:</source>
        <translation>ふりがな(&amp;R):</translation>
    </message>
    <message>
        <source>&amp;E-mail:</source>
        <translation>メールアドレス(&amp;E):</translation>
    </message>
    <message>
        <source>&amp;LINE user ID:</source>
        <translation>LINEユーザーID(&amp;L):</translation>
    </message>
    <message>
        <source>Notifications:</source>
        <translation>通知:</translation>
    </message>
    <message>
        <source>Send &amp;to:</source>
        <translation>通知方法(&amp;T):</translation>
    </message>
    <message>
        <source>Calendar address:</source>
        <translation>カレンダーのアドレス:</translation>
    </message>
    <message>
        <source>Classrooms:</source>
        <translation>所属教室:</translation>
    </message>
    <message>
        <source>&amp;Weekly:</source>
        <translation>毎週の予定(&amp;W):</translation>
    </message>
    <message>
        <source>Teacher</source>
        <translation>基本情報</translation>
    </message>
    <message>
        <source>Limits and wishes</source>
        <translation>上限と希望</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>Messages go only by the ways the teacher agreed to above.</source>
        <translation>メッセージは、上で講師が同意した方法でのみ送られます。</translation>
    </message>
    <message>
        <source>With these choices this teacher gets no messages: LINE needs a user ID and the teacher&apos;s agreement, e-mail an address and the teacher&apos;s agreement.</source>
        <translation>この設定では、この講師にはメッセージが届きません。LINEにはユーザーIDと講師の同意が、メールにはアドレスと講師の同意が必要です。</translation>
    </message>
    <message>
        <source>Type a LINE user ID first, or pick one from the account&apos;s friends.</source>
        <translation>先にLINEユーザーIDを入力するか、アカウントの友だちから選んでください。</translation>
    </message>
    <message>
        <source>Asking LINE…</source>
        <translation>LINEに問い合わせ中…</translation>
    </message>
    <message>
        <source>LINE name: {0}</source>
        <translation>LINEの表示名: {0}</translation>
    </message>
    <message>
        <source>LINE could not be asked.</source>
        <translation>LINEに問い合わせできませんでした。</translation>
    </message>
    <message>
        <source>The teacher needs a name.</source>
        <translation>講師の氏名を入力してください。</translation>
    </message>
</context>
<context>
    <name>TeacherLine</name>
    <message>
        <source>Shiftcast is not connected to LINE yet: add the channel access token in Settings.</source>
        <translation>ShiftcastはまだLINEに接続されていません。「設定」でチャネルアクセストークンを追加してください。</translation>
    </message>
    <message>
        <source>LINE does not know this user as a friend of the account. The ID may be mistyped, or the teacher has not added the account as a friend (or has blocked it).</source>
        <translation>LINEは、このユーザーをアカウントの友だちとして認識していません。IDの入力ミスか、講師がアカウントを友だち追加していない（またはブロックしている）可能性があります。</translation>
    </message>
    <message>
        <source>LINE says this is not a valid user ID. A LINE user ID is U followed by 32 hex digits; it is not the LINE ID people search for.</source>
        <translation>LINEによると、これは有効なユーザーIDではありません。LINEユーザーIDは U に続く16進数32桁で、友だち検索に使うLINE IDとは異なります。</translation>
    </message>
    <message>
        <source>LINE refused the channel access token. Check it in Settings.</source>
        <translation>LINEがチャネルアクセストークンを拒否しました。「設定」で確認してください。</translation>
    </message>
    <message>
        <source>Could not reach LINE. Check the connection and try again.</source>
        <translation>LINEに接続できませんでした。ネットワーク接続を確認して、もう一度お試しください。</translation>
    </message>
    <message>
        <source>LINE lets only verified and premium accounts list their friends, so Shiftcast cannot show them for this account.

Other ways to get a teacher&apos;s LINE user ID:
• Ask the teacher to send any message to the account, then read their user ID from the webhook log of the account&apos;s Messaging API channel.
• Use LINE Login: when the teacher logs in through a LINE Login channel linked to the account, their user ID is shown.
• Add the teacher to the classroom&apos;s LINE group together with the account; their user ID then appears in the group&apos;s member events.

Teachers without a LINE user ID can still be reached by e-mail: enter their address and tick e-mail notifications.</source>
        <translation>LINEで友だちの一覧を取得できるのは認証済アカウントとプレミアムアカウントだけのため、このアカウントでは友だちを表示できません。

講師のLINEユーザーIDを調べるほかの方法:
• 講師にアカウントへ何かメッセージを送ってもらい、アカウントのMessaging APIチャネルのWebhookログからユーザーIDを確認する。
• LINEログインを使う: アカウントに連携したLINEログインチャネルで講師がログインすると、ユーザーIDが表示されます。
• 講師をアカウントと一緒に教室のLINEグループに追加する: グループのメンバーのイベントに講師のユーザーIDが表示されます。

LINEユーザーIDがない講師にもメールで連絡できます。メールアドレスを入力し、メールの通知にチェックを入れてください。</translation>
    </message>
</context>
<context>
    <name>TeachersDialog</name>
    <message>
        <source>Teachers</source>
        <translation>講師</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>氏名</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>メール</translation>
    </message>
    <message>
        <source>LINE user ID</source>
        <translation>LINEユーザーID</translation>
    </message>
    <message>
        <source>LINE messages</source>
        <translation>LINE通知</translation>
    </message>
    <message>
        <source>E-mails</source>
        <translation>メール通知</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>在籍</translation>
    </message>
    <message>
        <source>Send to</source>
        <translation>通知方法</translation>
    </message>
    <message>
        <source>Classrooms</source>
        <translation>所属教室</translation>
    </message>
    <message>
        <source>&amp;Add…</source>
        <translation>追加(&amp;A)…</translation>
    </message>
    <message>
        <source>Add a teacher (Insert)</source>
        <translation>講師を追加（Insert）</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>編集(&amp;E)…</translation>
    </message>
    <message>
        <source>Edit the selected teacher (Enter)</source>
        <translation>選択した講師を編集（Enter）</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>削除(&amp;D)…</translation>
    </message>
    <message>
        <source>Erase the selected teacher&apos;s personal data (Delete)</source>
        <translation>選択した講師の個人情報を消去（Delete）</translation>
    </message>
    <message>
        <source>Move &amp;up</source>
        <translation>上へ(&amp;U)</translation>
    </message>
    <message>
        <source>Move the selected teacher up the list, in your own order (Alt+Up)</source>
        <translation>選択した講師を一覧の1つ上へ移動（Alt+↑）</translation>
    </message>
    <message>
        <source>Move do&amp;wn</source>
        <translation>下へ(&amp;W)</translation>
    </message>
    <message>
        <source>Move the selected teacher down the list, in your own order (Alt+Down)</source>
        <translation>選択した講師を一覧の1つ下へ移動（Alt+↓）</translation>
    </message>
    <message>
        <source>Sort by &amp;reading</source>
        <translation>ふりがな順(&amp;R)</translation>
    </message>
    <message>
        <source>List every teacher by reading (ふりがな) again, forgetting your own order</source>
        <translation>指定した並び順をやめ、すべての講師をふりがな順に戻します</translation>
    </message>
    <message>
        <source>No teachers yet. Add them here, or import a CSV file from the Shifts area.</source>
        <translation>講師がまだいません。ここで追加するか、「シフト」画面からCSVファイルをインポートしてください。</translation>
    </message>
    <message>
        <source>Saved {0}.</source>
        <translation>{0}を保存しました。</translation>
    </message>
    <message>
        <source>{0} is now number {1} in the list.</source>
        <translation>{0}さんを{1}番目に移動しました。</translation>
    </message>
    <message>
        <source>Sort by reading</source>
        <translation>ふりがな順に戻す</translation>
    </message>
    <message>
        <source>List every teacher by reading (ふりがな), then by name, again?

The order you set with Move up and Move down is forgotten.</source>
        <translation>すべての講師をふりがな順（同じふりがなは名前順）に戻しますか？

「上へ」「下へ」で指定した並び順は消去されます。</translation>
    </message>
    <message>
        <source>The teachers are listed by reading again.</source>
        <translation>講師をふりがな順に戻しました。</translation>
    </message>
    <message>
        <source>Delete teacher</source>
        <translation>講師の削除</translation>
    </message>
    <message>
        <source>Delete {0}?

Erased now: the name, LINE user ID, e-mail address and notification consents. Their future shifts are canceled.

Kept: past shifts and the record of messages sent, under an anonymous label such as &quot;(deleted #{1})&quot;, so earlier months still add up.

This cannot be undone.</source>
        <translation>{0}を削除しますか？

すぐに消去されるもの: 氏名、LINEユーザーID、メールアドレス、通知の同意。今後のシフトは取り消されます。

残るもの: 過去のシフトと送信したメッセージの記録。「(deleted #{1})」のような匿名の名前で残るため、過去の月の集計は変わりません。

この操作は元に戻せません。</translation>
    </message>
    <message>
        <source>{0} was deleted.</source>
        <translation>{0}を削除しました。</translation>
    </message>
</context>
<context>
    <name>TeachersPage</name>
    <message>
        <source>Each teacher adds the account as a friend (with the link or the QR code) and sends it their code. Shiftcast then stores their LINE ID with their consent. A code works once and for 7 days.</source>
        <translation>各講師がリンクまたはQRコードからアカウントを友だち追加し、自分のコードを送ります。Shiftcastは本人の同意とともにLINEのIDを登録します。コードは1回だけ、7日間有効です。</translation>
    </message>
    <message>
        <source>Teacher</source>
        <translation>講師</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>コード</translation>
    </message>
    <message>
        <source>LINE</source>
        <translation>LINE</translation>
    </message>
    <message>
        <source>Your teachers on LINE</source>
        <translation>講師のLINE登録</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>次へ</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>省略</translation>
    </message>
    <message>
        <source>Making the teachers&apos; codes…</source>
        <translation>講師のコードを作成中…</translation>
    </message>
    <message>
        <source>Add-friend link: &lt;a href=&quot;{0}&quot;&gt;{0}&lt;/a&gt;</source>
        <translation>友だち追加リンク: &lt;a href=&quot;{0}&quot;&gt;{0}&lt;/a&gt;</translation>
    </message>
    <message>
        <source>LINE did not give the account&apos;s ID, so there is no add-friend link: teachers can search for the account by name in LINE.</source>
        <translation>LINEからアカウントのIDを取得できなかったため、友だち追加リンクはありません。講師はLINEでアカウント名を検索して追加できます。</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <source>Copy a message with the code and the link, to paste to {0}</source>
        <translation>{0}さんに送る、コードとリンク入りのメッセージをコピーします</translation>
    </message>
    <message>
        <source>{0} of {1} teachers are connected on LINE.</source>
        <translation>講師{1}人のうち{0}人がLINEで登録済みです。</translation>
    </message>
    <message>
        <source>There are no teachers yet. Add them under Teachers; their codes are made when you come back here.</source>
        <translation>講師がまだいません。「講師」で追加してからここに戻ると、コードが作成されます。</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the names of a list</comment>
        <translation>、</translation>
    </message>
    <message>
        <source>Still to send their code: {0}.</source>
        <translation>まだコードを送っていない講師: {0}</translation>
    </message>
    <message>
        <source>A code works for 7 days; open Connect LINE again to copy their messages.</source>
        <translation>コードは7日間有効です。案内文は「LINEに接続」をもう一度開くとコピーできます。</translation>
    </message>
    <message>
        <source>Waiting for the code</source>
        <translation>コード待ち</translation>
    </message>
    <message>
        <source>✓ Connected {0}</source>
        <translation>✓ 登録済み {0}</translation>
    </message>
    <message>
        <source>✓ Connected</source>
        <translation>✓ 登録済み</translation>
    </message>
    <message>
        <source>The message for {0} is copied: paste it into an e-mail or a chat.</source>
        <translation>{0}さん宛てのメッセージをコピーしました。メールやチャットに貼り付けてください。</translation>
    </message>
</context>
<context>
    <name>TeachersPageDialog</name>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
</context>
<context>
    <name>TeachersPageSection</name>
    <message>
        <source>Teachers&apos; page</source>
        <translation>講師ページ</translation>
    </message>
    <message>
        <source>Send the month to the group as a button to the teachers&apos; page instead of pictures (the month&apos;s pictures are not put online)</source>
        <translation>月のシフト表を画像ではなく講師ページへのボタンでグループに送る（月の画像はインターネット上に置きません）</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>保存中…</translation>
    </message>
    <message>
        <source>Saved. The teachers&apos; page is on.</source>
        <translation>保存しました。講師ページはオンです。</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>保存しました。</translation>
    </message>
</context>
<context>
    <name>TeachersPageStep</name>
    <message>
        <source>Teachers&apos; page (optional)</source>
        <translation>講師ページ（任意）</translation>
    </message>
    <message>
        <source>Reading the teachers&apos; page&apos;s settings…</source>
        <translation>講師ページの設定を読み込んでいます…</translation>
    </message>
    <message>
        <source>Save and continue</source>
        <translation>保存して次へ</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>省略</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>保存中…</translation>
    </message>
    <message>
        <source>The teachers&apos; page is on.</source>
        <translation>講師ページはオンです。</translation>
    </message>
    <message>
        <source>Deploy the relay in Settings → Always on: the teachers&apos; page is served from it.</source>
        <translation>「設定」→「常時稼働」で中継サーバーを設置してください。講師ページは中継サーバーから配信されます。</translation>
    </message>
</context>
<context>
    <name>TimeField</name>
    <message>
        <source>HH:MM</source>
        <translation>HH:MM</translation>
    </message>
    <message>
        <source>A time such as 22:00, 2200 or 22時</source>
        <translation>時刻（例: 22:00、2200、22時）</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>Shiftcast DEMO</source>
        <translation>Shiftcast デモ</translation>
    </message>
    <message>
        <source>Open Shiftcast</source>
        <translation>Shiftcastを開く</translation>
    </message>
    <message>
        <source>Send now</source>
        <translation>今すぐ送信</translation>
    </message>
    <message>
        <source>Pause sending</source>
        <translation>送信を一時停止</translation>
    </message>
    <message>
        <source>Quit (stop sending)</source>
        <translation>終了（送信を停止）</translation>
    </message>
    <message>
        <source>Waiting {0} · Sent {1} · Failed {2}</source>
        <translation>待機 {0}件 · 送信済み {1}件 · 失敗 {2}件</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>一時停止中</translation>
    </message>
    <message>
        <source>Shiftcast keeps sending reminders from here. Use Quit in this menu to stop it.</source>
        <translation>Shiftcastはここからリマインダーの送信を続けます。停止するには、このメニューの「終了」を選んでください。</translation>
    </message>
</context>
<context>
    <name>WebhookPage</name>
    <message>
        <source>Shiftcast now points the channel&apos;s webhook at itself and asks LINE to test it. The address LINE used before is kept and put back when you finish.</source>
        <translation>ShiftcastはチャネルのWebhook URLを自分のアドレスに設定し、LINEに疎通確認を依頼します。それまでのWebhook URLは保存され、完了時に元に戻されます。</translation>
    </message>
    <message>
        <source>Test again</source>
        <translation>もう一度確認</translation>
    </message>
    <message>
        <source>LINE&apos;s webhook</source>
        <translation>LINEのWebhook</translation>
    </message>
    <message>
        <source>Setting Shiftcast&apos;s address at LINE…</source>
        <translation>LINEにShiftcastのアドレスを設定しています…</translation>
    </message>
    <message>
        <source>LINE now calls {0}
Before, it called {1}; that address is put back when you finish.</source>
        <translation>LINEの呼び出し先: {0}
以前の呼び出し先は {1} です。このアドレスは完了時に元に戻されます。</translation>
    </message>
    <message>
        <source>LINE now calls {0}
No other address was set before. LINE cannot remove an address, so this one stays after you finish; once the tunnel stops, nothing answers there. You may switch “Use webhook” off in the LINE Developers console then.</source>
        <translation>LINEの呼び出し先: {0}
以前は何も設定されていませんでした。LINEではアドレスを削除できないため、完了後もこのアドレスが残りますが、トンネルを停止すると応答しなくなります。必要に応じて、LINE Developersコンソールで「Webhookの利用」をオフにしてください。</translation>
    </message>
    <message>
        <source>Asking LINE to test the address…</source>
        <translation>LINEにアドレスの確認を依頼しています…</translation>
    </message>
    <message>
        <source>LINE&apos;s test reached Shiftcast, but webhooks are switched off for this channel: switch “Use webhook” on in the LINE Developers console (Messaging API tab), then press “Test again”.</source>
        <translation>LINEの確認はShiftcastに届きましたが、このチャネルではWebhookがオフになっています。LINE Developersコンソールの「Messaging API設定」タブで「Webhookの利用」をオンにしてから、「もう一度確認」を押してください。</translation>
    </message>
    <message>
        <source>LINE reached Shiftcast: webhooks work.</source>
        <translation>LINEからShiftcastに届きました。Webhookは正常に動作しています。</translation>
    </message>
    <message>
        <source>LINE reached Shiftcast, but its signature did not match the channel secret. Check that the secret is this channel&apos;s (Basic settings → Channel secret).</source>
        <translation>LINEからShiftcastに届きましたが、署名がチャネルシークレットと一致しませんでした。このチャネルのチャネルシークレットかどうかを確認してください（「チャネル基本設定」→「チャネルシークレット」）。</translation>
    </message>
    <message>
        <source>LINE reached a server at that address, but not Shiftcast&apos;s receiver (HTTP 404).</source>
        <translation>LINEはそのアドレスのサーバーに接続しましたが、Shiftcastの受信先ではありませんでした（HTTP 404）。</translation>
    </message>
    <message>
        <source>LINE reached the address, but it answered with an error (HTTP {0}).</source>
        <translation>LINEはそのアドレスに接続しましたが、エラーが返されました（HTTP {0}）。</translation>
    </message>
    <message>
        <source>LINE reached the address, but no answer came within 2 seconds.</source>
        <translation>LINEはそのアドレスに接続しましたが、2秒以内に応答がありませんでした。</translation>
    </message>
    <message>
        <source>LINE could not connect to the address: the tunnel may still be starting, or something blocks it. Try the test again in a moment.</source>
        <translation>LINEがそのアドレスに接続できませんでした。トンネルがまだ起動中か、通信が妨げられている可能性があります。しばらくしてからもう一度確認してください。</translation>
    </message>
    <message>
        <source>LINE could not deliver to the address for a reason it did not classify ({0}).</source>
        <translation>LINEは分類されていない理由でそのアドレスに送信できませんでした（{0}）。</translation>
    </message>
    <message>
        <source>Webhooks are switched off for this channel: switch “Use webhook” on in the LINE Developers console (Messaging API tab), then press “Test again”.</source>
        <translation>このチャネルではWebhookがオフになっています。LINE Developersコンソールの「Messaging API設定」タブで「Webhookの利用」をオンにしてから、「もう一度確認」を押してください。</translation>
    </message>
</context>
<context>
    <name>WizardPage</name>
    <message>
        <source>Next</source>
        <translation>次へ</translation>
    </message>
</context>
<context>
    <name>app</name>
    <message>
        <source>DEMO</source>
        <translation>デモ</translation>
    </message>
    <message>
        <source>Messages waiting to be sent within the next 24 hours: {0}.</source>
        <translation>24時間以内に送信する予定のメッセージが{0}通あります。</translation>
    </message>
    <message>
        <source>Shiftcast sends them only while it runs. If you quit now, they go out when you start Shiftcast again, late or not at all.</source>
        <translation>これらのメッセージは、Shiftcastが起動している間だけ送信されます。いま終了すると、次にShiftcastを起動したときに遅れて送信されるか、送信されません。</translation>
    </message>
    <message>
        <source>Quit anyway</source>
        <translation>終了する</translation>
    </message>
    <message>
        <source>Keep open</source>
        <translation>このまま開いておく</translation>
    </message>
    <message>
        <source>This desktop has no system tray, so Shiftcast stays open as a window to keep sending. Closing the window stops sending.</source>
        <translation>このデスクトップにはシステムトレイがないため、送信を続けられるよう、Shiftcastはウィンドウで開いたままにします。ウィンドウを閉じると送信も止まります。</translation>
    </message>
</context>
<context>
    <name>window</name>
    <message>
        <source>&amp;Demo</source>
        <translation>デモ(&amp;D)</translation>
    </message>
    <message>
        <source>Teachers&apos; LINE inbox…</source>
        <translation>講師のLINE受信箱…</translation>
    </message>
    <message>
        <source>Welcome to Shiftcast</source>
        <translation>Shiftcastへようこそ</translation>
    </message>
    <message>
        <source>Shiftcast is not connected to LINE yet.

Try it first with sample data that is sent to a built-in LINE simulator (nothing leaves this computer), or connect your LINE Official Account now.</source>
        <translation>ShiftcastはまだLINEに接続されていません。

まずはサンプルデータで試せます。送信先は内蔵のLINEシミュレーターです（このコンピューターの外には何も送られません）。今すぐLINE公式アカウントに接続することもできます。</translation>
    </message>
    <message>
        <source>Try the demo</source>
        <translation>デモを試す</translation>
    </message>
    <message>
        <source>Connect LINE</source>
        <translation>LINEに接続</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>後で</translation>
    </message>
    <message>
        <source>The demo could not be started.</source>
        <translation>デモを開始できませんでした。</translation>
    </message>
</context>
</TS>
