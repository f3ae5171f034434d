"""Every setting Shiftcast keeps, declared once: key, type, default and rule (core/store/settings.py).

The only place a setting's key is written out. Code reads and writes a setting through its
declaration here, e.g. `SMTP_PORT.read(session)`; tests/test_settings.py fails on a key written
anywhere else. A new setting is one line here.
"""

from __future__ import annotations

import re
from typing import Any

from core.store.settings import (
    ChoiceSetting,
    Declared,
    FlagSetting,
    FloatSetting,
    HoldSetting,
    IntSetting,
    QuotaSetting,
    ReceivingSetting,
    SettingFamily,
    TextSetting,
    email_address,
    line_user_id,
    web_address,
)
from core.texts import t

_WEB = t("setting.rule.web_address")
_DIGITS = re.compile(r"\d+")
# As the relay takes it (relay/src/pages.ts): a LIFF ID the relay would refuse is refused here, when typed.
_LIFF_ID = re.compile(r"\d{1,20}-[A-Za-z0-9]{8,40}")


def _matching(pattern: re.Pattern[str], text: str) -> str:
    if not pattern.fullmatch(text):
        raise ValueError(text)
    return text


# ----- LINE -----
LINE_API_BASE = TextSetting("line.api_base", t("setting.label.line.api_base"), rule=web_address, rule_says=_WEB)
# The channel ID: with the channel secret (keyring) it issues stateless tokens when no long-lived one is set.
LINE_CHANNEL_ID = TextSetting("line.channel_id", t("setting.label.line.channel_id"), max_length=32)
# The account's name and basic ID as LINE last told them ("Shiftcast 本校 (@123abcde)"), so a check that
# stays offline can still say which account is connected.
LINE_ACCOUNT = TextSetting("line.account", t("setting.label.line.account"), max_length=200)
# While LINE refuses our token (401): held for that token's fingerprint, lifted when the token changes.
LINE_HOLD = HoldSetting("line.hold", t("setting.label.line.hold"))
LINE_QUOTA = QuotaSetting("line.quota", t("setting.label.line.quota"))  # refreshed hourly by the scheduler
# Connecting LINE points the channel's webhook at Shiftcast for a while: the address LINE had before
# (unset: none) is kept here with a "restore pending" flag until it is put back, so a crash in between
# is repaired at the next start; ours is what Shiftcast set, so a restore never undoes someone else's change.
LINE_WEBHOOK_SAVED = TextSetting("line.webhook.saved_endpoint", t("setting.label.line.webhook.saved_endpoint"), max_length=500,
                                 rule=web_address, rule_says=_WEB)
LINE_WEBHOOK_OURS = TextSetting("line.webhook.our_endpoint", t("setting.label.line.webhook.our_endpoint"), max_length=500,
                                rule=web_address, rule_says=_WEB)
LINE_WEBHOOK_RESTORE_PENDING = FlagSetting("line.webhook.restore_pending",
                                           t("setting.label.line.webhook.restore_pending"))
# Where LINE reaches the receiver that runs with the app, as chosen when Connect LINE finished receiving
# (unset: the app does not receive); for "own", the owner's address and the port its proxy forwards to;
# the endpoint last set at LINE, so a new quick-tunnel address is set again and an unchanged one is not.
LINE_RECEIVE_ADDRESS = TextSetting("line.receive.address", t("setting.label.line.receive.address"), max_length=20)
LINE_RECEIVE_OWN_URL = TextSetting("line.receive.own_url", t("setting.label.line.receive.own_url"), max_length=500,
                                   rule=web_address, rule_says=_WEB)
LINE_RECEIVE_PORT = IntSetting("line.receive.port", t("setting.label.line.receive.port"), minimum=0, maximum=65535)
LINE_RECEIVE_ENDPOINT = TextSetting("line.receive.endpoint", t("setting.label.line.receive.endpoint"), max_length=500,
                                    rule=web_address, rule_says=_WEB)
# What the window's or the tray's receiving last said (receiving at an address, or why not, and
# since when), so `shiftcast doctor`, which does not receive, can say whether LINE reaches the app.
LINE_RECEIVE_STATUS = ReceivingSetting("line.receive.status", t("setting.label.line.receive.status"))
# Each classroom group's member count, as LINE last said: a group push costs one message per member.
LINE_GROUP_MEMBERS = SettingFamily(
    "line.group_members.", lambda name: IntSetting(name, t("setting.label.line.group_members"), minimum=0))
# A month published while its classroom had no LINE group: its group message is owed, and goes out as
# soon as the group is chosen (core/publication/group_waiting.py). One per publication, cleared once queued.
GROUP_MESSAGE_OWED = SettingFamily(
    "publication.group_owed.", lambda name: FlagSetting(name, t("setting.label.publication.group_owed")))
# Reminders and corrections carry a 了解 button (core/receiving/acknowledge.py); off unless the manager turns it on.
LINE_ACK_BUTTON = FlagSetting("line.ack_button", t("setting.label.line.ack_button"))
# Reminders carry an "Ask for cover" (代講を頼む) button (core/receiving/cover.py); off unless turned on.
LINE_COVER_BUTTON = FlagSetting("line.cover_button", t("setting.label.line.cover_button"))
# Where versions before kept the key the buttons' postback data is signed with. The key now lives in the
# keyring (core/store/ack_key.py), which moves it from here at start-up and removes this row.
LINE_ACK_SECRET = TextSetting("line.ack_secret", t("setting.label.line.ack_secret"), max_length=100)
# The teachers' page (docs/teachers_page.md): the LINE Login channel whose ID tokens the relay checks (the
# tokens' audience), and the LIFF app LINE opens; both handed to the relay with the page's documents.
LINE_LOGIN_CHANNEL_ID = TextSetting("line.login_channel_id", t("setting.label.line.login_channel_id"), max_length=20,
                                    rule=lambda text: _matching(_DIGITS, text), rule_says=t("setting.rule.digits"))
LIFF_ID = TextSetting("line.liff_id", t("setting.label.line.liff_id"), max_length=61,
                      rule=lambda text: _matching(_LIFF_ID, text), rule_says=t("setting.rule.liff_id"))
# The rich menu Shiftcast made the account's default (core/setup/rich_menu.py), deleted when it is replaced.
LINE_RICH_MENU_ID = TextSetting("line.rich_menu_id", t("setting.label.line.rich_menu_id"), max_length=100)
# The last LINE WORKS test (JSON: when, and why it failed or null), so an offline check can say it
# (core/setup/line_works.py); forgotten when the LINE WORKS values are saved again.
LINE_WORKS_LAST_TEST = TextSetting("line_works.last_test", t("setting.label.line_works.last_test"), max_length=4000)

# ----- LINE WORKS (core/channels/line_works*.py); its client secret, bot secret and private key are in the keyring -----
# The app's client ID and service account, and the bot that sends: the ids LINE WORKS' Developer Console shows.
LINE_WORKS_CLIENT_ID = TextSetting("line_works.client_id", t("setting.label.line_works.client_id"), max_length=100)
LINE_WORKS_SERVICE_ACCOUNT = TextSetting("line_works.service_account", t("setting.label.line_works.service_account"),
                                         max_length=200)
LINE_WORKS_BOT_ID = TextSetting("line_works.bot_id", t("setting.label.line_works.bot_id"), max_length=64)
LINE_WORKS_DOMAIN_ID = TextSetting("line_works.domain_id", t("setting.label.line_works.domain_id"), max_length=64)
# Where the token is asked for and the bot's messages go (unset: LINE WORKS itself); the stand-in's address in tests.
LINE_WORKS_AUTH_BASE = TextSetting("line_works.auth_base", t("setting.label.line_works.auth_base"), rule=web_address,
                                   rule_says=_WEB)
LINE_WORKS_API_BASE = TextSetting("line_works.api_base", t("setting.label.line_works.api_base"), rule=web_address,
                                  rule_says=_WEB)
# While LINE WORKS refuses the app's credentials: held for their fingerprint, lifted when they change.
LINE_WORKS_HOLD = HoldSetting("line_works.hold", t("setting.label.line_works.hold"))

# ----- the sender (support and tests tune these; unset, the sender's own defaults apply) -----
SENDER_CONCURRENCY = IntSetting("sender.concurrency", t("setting.label.sender.concurrency"), minimum=1, maximum=256)
SENDER_LEASE_SECONDS = FloatSetting("sender.lease_seconds", t("setting.label.sender.lease_seconds"), above=0)
SENDER_POLL_SECONDS = FloatSetting("sender.poll_seconds", t("setting.label.sender.poll_seconds"), above=0)
SENDER_BACKOFF_BASE_SECONDS = FloatSetting("sender.backoff_base_seconds", t("setting.label.sender.backoff_base_seconds"),
                                           above=0)
SENDER_MAX_RETRIES = IntSetting("sender.max_retries", t("setting.label.sender.max_retries"), minimum=0, maximum=1000)
SENDER_HTTP_TIMEOUT_SECONDS = FloatSetting("sender.http_timeout_seconds", t("setting.label.sender.http_timeout_seconds"),
                                           above=0, maximum=600)

# ----- e-mail (SMTP); the password is in the keyring -----
SMTP_HOST = TextSetting("smtp.host", t("setting.label.smtp.host"), max_length=253)
SMTP_PORT = IntSetting("smtp.port", t("setting.label.smtp.port"), minimum=1, maximum=65535)
# "starttls", "tls" (implicit, usually port 465) or "none" (to this computer only)
SMTP_SECURITY = ChoiceSetting("smtp.security", t("setting.label.smtp.security"), ("starttls", "tls", "none"),
                              default="starttls")
SMTP_USER = TextSetting("smtp.user", t("setting.label.smtp.user"), max_length=320)
SMTP_FROM = TextSetting("smtp.from", t("setting.label.smtp.from"), max_length=320, rule=email_address,
                        rule_says=t("setting.rule.email"))
SMTP_FROM_NAME = TextSetting("smtp.from_name", t("setting.label.smtp.from_name"), max_length=200)
# A CA bundle to trust instead of the system's (a private mail server); unset: the system's.
SMTP_CA_FILE = TextSetting("smtp.ca_file", t("setting.label.smtp.ca_file"))
SMTP_TIMEOUT_SECONDS = FloatSetting("smtp.timeout_seconds", t("setting.label.smtp.timeout_seconds"), above=0,
                                    maximum=600)
# While the server refuses our login: held for a fingerprint of the settings and password.
SMTP_HOLD = HoldSetting("smtp.hold", t("setting.label.smtp.hold"))

# ----- alerts for the manager -----
ALERTS_WEBHOOK_URL = TextSetting("alerts.webhook_url", t("setting.label.alerts.webhook_url"), rule=web_address, rule_says=_WEB)
ALERTS_EMAIL = TextSetting("alerts.email", t("setting.label.alerts.email"), max_length=320, rule=email_address,
                           rule_says=t("setting.rule.email"))
# The manager's own LINE user ID: where a nudge about a reminder not acknowledged goes on LINE (the
# alerts' e-mail address gets it too); unset, nudges go by e-mail only.
ALERTS_LINE_USER_ID = TextSetting("alerts.line_user_id", t("setting.label.alerts.line_user_id"), max_length=33,
                                  rule=line_user_id, rule_says=t("setting.rule.line_user_id"))
# The code the manager sends the official account to pair their own LINE (core/receiving/pairing.py):
# JSON of the code and until when it works; unset once spent.
ALERTS_MANAGER_CODE = TextSetting("alerts.manager_code", t("setting.label.alerts.manager_code"), max_length=200)
# Per classroom: tell the manager when a reminder is not acknowledged, and how many hours before a shift
# starts its reminder counts as not acknowledged (core/planning/unacknowledged.py).
NUDGE_UNACKNOWLEDGED = SettingFamily(
    "nudge.unacknowledged.", lambda name: FlagSetting(name, t("setting.label.nudge.unacknowledged")))
NUDGE_HOURS = SettingFamily(
    "nudge.hours.", lambda name: IntSetting(name, t("setting.label.nudge.hours"), default=3, minimum=1, maximum=24))

# ----- image hosting (S3-compatible); the secret key is in the keyring -----
HOSTING_ENDPOINT = TextSetting("hosting.endpoint", t("setting.label.hosting.endpoint"), rule=web_address, rule_says=_WEB)
HOSTING_BUCKET = TextSetting("hosting.bucket", t("setting.label.hosting.bucket"), max_length=255)
HOSTING_REGION = TextSetting("hosting.region", t("setting.label.hosting.region"), max_length=64)
HOSTING_ACCESS_KEY_ID = TextSetting("hosting.access_key_id", t("setting.label.hosting.access_key_id"), max_length=255)
HOSTING_PUBLIC_BASE_URL = TextSetting("hosting.public_base_url", t("setting.label.hosting.public_base_url"), rule=web_address,
                                      rule_says=_WEB)
# A SigV4 presigned link lives at most 7 days.
HOSTING_PRESIGN_DAYS = IntSetting("hosting.presign_days", t("setting.label.hosting.presign_days"), default=7,
                                  minimum=1, maximum=7)
# Demo mode only: images copied into a folder that a loopback web server publishes.
HOSTING_LOCAL_ROOT = TextSetting("hosting.local_root", t("setting.label.hosting.local_root"))
HOSTING_LOCAL_BASE_URL = TextSetting("hosting.local_base_url", t("setting.label.hosting.local_base_url"), rule=web_address,
                                     rule_says=_WEB)

# ----- the relay (docs/relay.md); its key is in the keyring -----
RELAY_URL = TextSetting("relay.url", t("setting.label.relay.url"), max_length=500, rule=web_address, rule_says=_WEB)
# The last sync's time and counts (JSON), for `relay status` and the Settings screen.
RELAY_LAST_SYNC = TextSetting("relay.last_sync", t("setting.label.relay.last_sync"), max_length=2000)
# Since when the running sender's syncs fail (ISO 8601, UTC); unset while they succeed. Its alert waits a while.
RELAY_UNREACHABLE_SINCE = TextSetting("relay.unreachable_since", t("setting.label.relay.unreachable_since"),
                                      max_length=40)
# What deploying the relay from the app made at Cloudflare (JSON, core/setup/relay_state.py): the account,
# the Worker and its database, and LINE's earlier webhook address, so a deploy resumes where it stopped and
# Remove deletes exactly what was made and puts the address back.
RELAY_DEPLOYMENT = TextSetting("relay.deployment", t("setting.label.relay.deployment"), max_length=2000)
# The fingerprint of the pairing codes last uploaded to the relay (core/relay/codes.py): unchanged, no upload.
RELAY_CODES = TextSetting("relay.codes", t("setting.label.relay.codes"), max_length=64)
# The month's pictures put on the relay (JSON, core/relay/images.py): its address, and per image its path
# and when it was put, so a retry names the same addresses without a call.
RELAY_IMAGES = TextSetting("relay.images", t("setting.label.relay.images"), max_length=100_000)
# The manager's opt-in to hand the relay the teachers' page's data (their names and shifts, kept there until
# 7 days after each month ends): off, nothing is handed over, and what was is deleted at the next sync.
PAGES_ENABLED = FlagSetting("pages.enabled", t("setting.label.pages.enabled"))
# While the page is ready, the month goes to a LINE group as its announcement with a button to the page's
# classroom view instead of pictures at public addresses (core/pages/month_message.py): off, as pictures.
PAGES_MONTH_AS_BUTTON = FlagSetting("pages.month_as_button", t("setting.label.pages.month_as_button"))
# What the sync last put for the page (JSON, core/relay/pages.py): the relay's address and each document's
# fingerprint, so an unchanged document is not put again and a gone one is deleted.
RELAY_PAGES = TextSetting("relay.pages", t("setting.label.relay.pages"), max_length=2_000_000)

# ----- the desktop app -----
UI_LANGUAGE = ChoiceSetting("ui.language", t("setting.label.ui.language"), ("auto", "ja", "en"), default="auto")
UI_TRAY_HINT_SHOWN = FlagSetting("ui.tray_hint_shown", t("setting.label.ui.tray_hint_shown"))
UI_FIRST_RUN_DONE = FlagSetting("ui.first_run_done", t("setting.label.ui.first_run_done"))
# The folder of the file last chosen in a file dialog (a CSV, an exported image): the next one opens there.
UI_LAST_FOLDER = TextSetting("ui.last_folder", t("setting.label.ui.last_folder"), max_length=1000)


# Every declaration above, for the tests that hold them to their rules.
DECLARED: tuple[Declared[Any], ...] = tuple(v for v in list(globals().values()) if isinstance(v, Declared))
FAMILIES: tuple[SettingFamily[Any], ...] = tuple(v for v in list(globals().values()) if isinstance(v, SettingFamily))
