// The teachers' page: a LIFF app that shows what the desktop app handed the relay (one JSON document per
// person) and posts the teacher's answers back. No framework, no build step: the relay serves this file.
"use strict";

// Every word in both languages, side by side: [English, Japanese]. (Soft hyphens let long English tab
// names break on a 360-px phone with six tabs.)
const WORDS = {
  loading: ["Loading…", "読み込み中…"],
  signingIn: ["Signing in…", "ログインしています…"],
  retry: ["Try again", "再試行"],
  notSetUp: ["The teachers' page is not set up yet", "講師用ページはまだ準備中です"],
  askManager: ["Ask your manager.", "担当者にお問い合わせください。"],
  fromLine: ["Open this page from LINE", "LINEから開いてください"],
  fromLineBody: ["This page shows your shifts. Open it from your classroom's LINE: the menu or a message.", "このページではシフトを確認できます。教室のLINEのメニューやメッセージから開いてください。"],
  expired: ["Open this page again from LINE", "LINEからもう一度開いてください"],
  expiredBody: ["Your sign-in has expired.", "ログインの有効期限が切れました。"],
  notPaired: ["Your LINE is not paired yet", "LINEがまだ連携されていません"],
  notPairedBody: ["Send the pairing code your classroom gave you to the classroom's LINE, then open this page again.", "教室から受け取った連携コードを教室のLINEに送ってから、もう一度このページを開いてください。"],
  offline: ["Could not connect", "接続できませんでした"],
  offlineBody: ["Check your connection and try again.", "通信環境を確認して、もう一度お試しください。"],
  failed: ["Something went wrong. Try again later.", "エラーが発生しました。しばらくしてからお試しください。"],
  sendFailed: ["Could not send. Check your connection and try again.", "送信できませんでした。通信環境を確認して、もう一度お試しください。"],
  tab_manager: ["Today", "今日"],
  tab_month: ["My shifts", "シフト"],
  tab_classroom: ["Class\u00adroom", "教室"],
  tab_availability: ["Avail\u00adability", "シフト希望"],
  tab_covers: ["Cover", "代講"],
  tab_calendar: ["Calendar", "カレンダー"],
  views: ["Views", "表示の切り替え"],
  toDo: [(n) => `${n} to answer`, (n) => `未対応 ${n}件`],
  title_manager: ["Today and tomorrow", "今日と明日"],
  title_month: ["My shifts", "わたしのシフト"],
  title_classroom: ["Classroom shifts", "教室のシフト"],
  title_availability: ["Availability", "シフト希望"],
  title_covers: ["Cover calls", "代講の募集"],
  title_calendar: ["Calendar", "カレンダー連携"],
  month: ["Month", "月"],
  noShifts: ["No shifts this month.", "この月のシフトはありません。"],
  isNew: ["New", "新規"],
  moved: ["Moved — was {0}", "変更（元：{0}）"],
  canceled: ["Canceled", "取り消し"],
  ack: ["Got it", "了解"],
  acked: ["Acknowledged", "了解済み"],
  sent: ["sent", "送信済み"],
  ackSent: ["Sent: got it.", "了解を伝えました。"],
  classroom: ["Classroom", "教室"],
  closed: ["Closed", "休室"],
  dayOff: ["No shifts", "シフトなし"],
  you: ["(you)", "（あなた）"],
  notPublished: ["This month is not published yet.", "この月のシフトはまだ公開されていません。"],
  notMember: ["This classroom is not yours.", "この教室のシフトは表示できません。"],
  noRequests: ["No availability requests right now.", "現在、シフト希望の依頼はありません。"],
  answerBy: ["Answer by {0}", "締め切り：{0}"],
  late: ["Past the deadline ({0}). You can still answer; it is marked late.", "締め切り（{0}）を過ぎています。回答はできますが、締め切り後の回答として扱われます。"],
  legend: ["Tap a day: ○ can work → × cannot → a time range.", "日付をタップ：○ 出勤できる → × できない → 時間を指定"],
  weekdays: [["Mon","Tue","Wed","Thu","Fri","Sat","Sun"], ["月","火","水","木","金","土","日"]],
  closedMark: ["closed", "休"],
  yes: ["can work", "出勤できる"],
  no: ["cannot work", "出勤できない"],
  none: ["not answered", "未回答"],
  closedDay: ["closed", "休室"],
  hoursOn: ["Hours on {0}", "{0}の時間"],
  from: ["From", "開始"],
  until: ["Until", "終了"],
  hoursHint: ["Leave one empty for “from …” or “until …”.", "片方だけでも指定できます（「○時から」「○時まで」）。"],
  ok: ["OK", "決定"],
  cancel: ["Cancel", "キャンセル"],
  clear: ["Not answered", "未回答に戻す"],
  badOrder: ["“Until” must be later than “From”.", "終了は開始より後の時刻にしてください。"],
  answered: [(n, total) => `${n} of ${total} days answered`, (n, total) => `${total}日中${n}日回答済み`],
  send: ["Send", "送信する"],
  sendAgain: ["Send changes", "変更を送信する"],
  nothingToSend: ["Answer at least one day first.", "1日以上回答してから送信してください。"],
  availabilitySent: ["Sent. You can change your answers and send again until the month is over.", "送信しました。月が終わるまでは変更して送り直せます。"],
  noCovers: ["No cover calls for you right now.", "現在、あなたへの代講の募集はありません。"],
  askedBy: ["Asked by {0}", "依頼：{0}"],
  offer: ["I can cover", "引き受けます"],
  offered: ["Offered — your manager will decide and let you know.", "引き受けると伝えました。担当者が決めてご連絡します。"],
  calendarIntro: ["Your shifts as a calendar your phone subscribes to. It updates by itself.", "シフトをスマートフォンのカレンダーに表示できます。自動で更新されます。"],
  address: ["Your calendar address", "カレンダーのアドレス"],
  copy: ["Copy", "コピー"],
  copied: ["Copied.", "コピーしました。"],
  copyFailed: ["Could not copy: select the address and copy it.", "コピーできませんでした。アドレスを選択してコピーしてください。"],
  iphone: ["iPhone", "iPhone"],
  iphoneSteps: ["Settings → Calendar → Accounts → Add Account → Other → Add Subscribed Calendar, then paste the address.", "「設定」→「カレンダー」→「アカウント」→「アカウントを追加」→「その他」→「照会するカレンダーを追加」で、アドレスを貼り付けます。"],
  android: ["Android", "Android"],
  androidSteps: ["In a browser, open Google Calendar (calendar.google.com) → Other calendars + → From URL, paste the address and add it. It then shows in the Google Calendar app.", "ブラウザでGoogleカレンダー（calendar.google.com）を開き、「他のカレンダー」の＋ →「URLで追加」にアドレスを貼り付けて追加します。その後、Googleカレンダーのアプリにも表示されます。"],
  keepPrivate: ["Anyone who has this address can see your shifts. If it leaked, ask your manager for a new address.", "このアドレスを知っている人は誰でもあなたのシフトを見られます。他の人に知られたときは、担当者に新しいアドレスを発行してもらってください。"],
  noCalendar: ["Your calendar address is not ready yet. Ask your manager.", "カレンダーのアドレスはまだありません。担当者にお問い合わせください。"],
  today: ["Today", "今日"],
  tomorrow: ["Tomorrow", "明日"],
  ackedMark: ["✓ Acknowledged", "✓ 了解済み"],
  notYet: ["Not yet", "未確認"],
  notDelivered: ["Not delivered: {0}", "送信失敗：{0}"],
  openCovers: ["Open cover calls", "募集中の代講"],
  offers: [(n) => (n === 0 ? "No offers yet" : n === 1 ? "1 offer" : `${n} offers`), (n) => (n === 0 ? "引き受け手はまだいません" : `引き受け ${n}人`)],
  unanswered: ["Availability not answered", "シフト希望の未回答"],
  remind: ["Remind", "リマインド"],
  reminded: ["Reminded", "リマインド済み"],
  remindSent: ["Reminder on its way.", "リマインドを送ります。"],
  nothingHere: ["Nothing to show.", "表示する内容はありません。"],
};

const VIEWS = ["manager", "month", "classroom", "availability", "covers", "calendar"];

const state = { lang: "ja", person: null, answers: [], params: new URLSearchParams(), classrooms: new Map() };
let retryStep = null;

const $main = () => document.getElementById("main");

function w(key, ...args) {
  const value = WORDS[key][state.lang === "ja" ? 1 : 0];
  if (typeof value === "function") return value(...args);
  if (Array.isArray(value)) return value;
  return String(value).replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)]));
}

// Builds an element: attributes (on* as listeners, true/false as boolean attributes) and children
// (strings become text, so nothing from a document is ever parsed as HTML).
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "class") el.className = value;
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

function say(text) {
  const status = document.getElementById("status");
  status.textContent = text;
  clearTimeout(say.timer);
  say.timer = setTimeout(() => { status.textContent = ""; }, 5000);
}

function setLanguage(code) {
  state.lang = String(code || "").toLowerCase().startsWith("ja") ? "ja" : "en";
  document.documentElement.lang = state.lang;
}

// ---- dates, on the document's own calendar (a date string is a day, never an instant) ----

function dayOf(date) { // "2026-12-07" → Date at UTC midnight, for the weekday only
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}
function weekday(date) { return (dayOf(date).getUTCDay() + 6) % 7; } // Monday 0 … Sunday 6
function fmtDate(date) {
  const d = dayOf(date);
  const wd = w("weekdays")[weekday(date)];
  return state.lang === "ja"
    ? `${d.getUTCMonth() + 1}月${d.getUTCDate()}日（${wd}）`
    : `${wd} ${d.getUTCDate()} ${d.toLocaleString("en", { month: "short", timeZone: "UTC" })}`;
}
function fmtMonth(month) {
  const [y, m] = month.split("-").map(Number);
  if (state.lang === "ja") return `${y}年${m}月`;
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleString("en", { month: "long", year: "numeric", timeZone: "UTC" });
}
function fmtHours(start, end) {
  if (start && end) return `${start}–${end}`;
  if (start) return state.lang === "ja" ? `${start}から` : `from ${start}`;
  if (end) return state.lang === "ja" ? `${end}まで` : `until ${end}`;
  return "";
}
function todayIn(timeZone) {
  try {
    return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
  } catch (e) {
    return new Date().toISOString().slice(0, 10);
  }
}
function daysOfMonth(month) {
  const [y, m] = month.split("-").map(Number);
  const count = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return Array.from({ length: count }, (_, i) => `${month}-${String(i + 1).padStart(2, "0")}`);
}

// ---- talking to the relay ----

class HttpError extends Error {
  constructor(status, code) { super(`${status} ${code}`); this.status = status; this.code = code; }
}
class Offline extends Error {}

async function call(path, options = {}) {
  const headers = { Accept: "application/json" };
  if (options.token !== false) headers.Authorization = `Bearer ${liff.getIDToken()}`;
  if (options.body) headers["Content-Type"] = "application/json";
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 20000);
  let response;
  try {
    response = await fetch(path, {
      method: options.body ? "POST" : "GET", headers, cache: "no-store", signal: abort.signal,
      body: options.body ? JSON.stringify(options.body) : undefined,
    });
  } catch (e) {
    throw new Offline(String(e));
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) throw new HttpError(response.status, (data && data.error) || "");
  return data;
}

// ---- whole-page screens (before a view can show) ----

function screen(title, body, withRetry) {
  document.getElementById("tabs").hidden = true;
  const main = $main();
  main.replaceChildren(h("section", { class: "screen", "aria-live": "polite" },
    h("h1", {}, title),
    body ? h("p", {}, body) : null,
    withRetry ? h("button", { class: "primary", type: "button", onclick: () => started(retryStep) }, w("retry")) : null));
}

function showFailure(error, retry) {
  retryStep = retry;
  if (error instanceof HttpError && error.status === 401) screen(w("expired"), w("expiredBody"));
  else if (error instanceof HttpError && error.status === 403 && error.code === "not_paired") screen(w("notPaired"), w("notPairedBody"));
  else if (error instanceof Offline) screen(w("offline"), w("offlineBody"), true);
  else screen(w("failed"), null, true);
}

async function boot() {
  retryStep = boot;
  setLanguage(navigator.language);
  let config;
  try {
    config = await call("/liff/config", { token: false });
  } catch (e) {
    if (e instanceof HttpError && e.status === 404) return screen(w("notSetUp"), w("askManager"));
    return showFailure(e, boot);
  }
  if (typeof liff === "undefined") { // LIFF's SDK did not load: only loading the page again fetches it
    retryStep = () => location.reload();
    return screen(w("offline"), w("offlineBody"), true);
  }
  try {
    await liff.init({ liffId: config.liff_id });
  } catch (e) {
    return screen(w("offline"), w("offlineBody"), true);
  }
  setLanguage(liff.getLanguage() || navigator.language);
  if (!liff.isLoggedIn()) {
    if (liff.isInClient()) {
      screen(w("signingIn"));
      return liff.login();
    }
    return screen(w("fromLine"), w("fromLineBody"));
  }
  if (!liff.getIDToken()) return screen(w("fromLine"), w("fromLineBody"));
  await loadMe();
}

async function loadMe() {
  retryStep = loadMe;
  let me;
  try {
    me = await call("/liff/api/me");
  } catch (e) {
    return showFailure(e, loadMe);
  }
  state.person = me.person;
  state.answers = me.answers || [];
  if (state.person.language) setLanguage(state.person.language);
  state.params = new URLSearchParams(location.search);
  const asked = state.params.get("view");
  const fallback = state.person.role === "manager" ? "manager" : "month";
  show(tabs().includes(asked) ? asked : fallback, false);
}

function tabs() {
  return VIEWS.filter((view) => view !== "manager" || (state.person.role === "manager" && state.person.manager));
}

function show(view, byTap) {
  state.view = view;
  // The address keeps what is shown, so a reload (or a shared link) opens the same place.
  if (byTap) state.params = new URLSearchParams();
  state.params.set("view", view);
  history.replaceState(null, "", `${location.pathname}?${state.params}`);
  drawTabs();
  const main = $main();
  main.replaceChildren(h("h1", { id: "view-title", "data-view": view }, w(`title_${view}`)));
  RENDER[view](main);
  if (byTap) { window.scrollTo(0, 0); main.focus({ preventScroll: true }); }
}

function drawTabs() {
  const nav = document.getElementById("tabs");
  nav.setAttribute("aria-label", w("views"));
  nav.replaceChildren(...tabs().map((name) => {
    const count = waiting(name);
    return h("button", {
      type: "button", "data-view": name, "aria-current": name === state.view ? "page" : false,
      onclick: () => show(name, true),
    }, h("span", {}, w(`tab_${name}`)), count ? [h("span", { class: "count", "aria-hidden": "true" }, String(count)), h("span", { class: "hidden" }, `, ${w("toDo", count)}`)] : null);
  }));
  nav.hidden = false;
}

// What waits for the person's answer in a view, counted on its tab.
function waiting(view) {
  const p = state.person;
  if (view === "month") return p.shifts.filter((s) => s.ack && !s.acked && !pending("ack", (a) => a.ack === s.ack)).length;
  if (view === "availability") return p.availability.filter((r) => !r.answers.length && !pending("availability", (a) => a.request === r.request)).length;
  if (view === "covers") return p.covers.filter((c) => !c.offered && !pending("cover_offer", (a) => a.call === c.call)).length;
  return 0;
}

// ---- answers: what the document says, updated by what was sent and not yet taken in by the app ----

function pending(action, match) {
  return state.answers.find((a) => a.action === action && match(a));
}

async function post(answer, button, done) {
  button.disabled = true;
  try {
    await call("/liff/api/answers", { body: answer });
  } catch (e) {
    button.disabled = false;
    if (e instanceof HttpError && e.status === 401) return showFailure(e, loadMe);
    return say(e instanceof Offline ? w("sendFailed") : w("failed"));
  }
  state.answers = state.answers.filter((a) => !sameTarget(a, answer)).concat([answer]);
  drawTabs();
  done();
}

function sameTarget(a, b) {
  if (a.action !== b.action) return false;
  if (a.action === "ack") return a.ack === b.ack;
  if (a.action === "availability") return a.request === b.request;
  if (a.action === "cover_offer") return a.call === b.call;
  return a.request === b.request && a.teacher === b.teacher;
}

function classroomName(key) {
  const room = state.person.classrooms.find((c) => c.key === key);
  return room ? room.name : key;
}

function allMonths() {
  return [...new Set(state.person.classrooms.flatMap((c) => c.months))].sort();
}

function monthSwitcher(months, current, pick) {
  if (months.length < 2) return h("p", { class: "muted" }, fmtMonth(current));
  return h("div", { class: "switcher", role: "group", "aria-label": w("month") },
    months.map((m) => h("button", { type: "button", "data-month": m, "aria-pressed": m === current ? "true" : "false", onclick: () => pick(m) }, fmtMonth(m))));
}

function pickMonth(months, asked, timeZone) {
  if (months.includes(asked)) return asked;
  const now = todayIn(timeZone).slice(0, 7);
  return months.includes(now) ? now : months[0];
}

// ---- the views ----

const RENDER = {
  month(main) {
    const months = allMonths();
    const zone = (state.person.classrooms[0] || {}).time_zone;
    const month = pickMonth(months, state.params.get("month"), zone);
    if (!month) return main.append(h("p", { class: "muted" }, w("noShifts")));
    main.append(monthSwitcher(months, month, (m) => { state.params.set("month", m); show("month", false); }));
    const shifts = state.person.shifts.filter((s) => s.date.startsWith(month))
      .sort((a, b) => (a.date + a.start).localeCompare(b.date + b.start));
    if (!shifts.length) return main.append(h("p", { class: "muted" }, w("noShifts")));
    const several = state.person.classrooms.length > 1;
    let lastDay = null;
    for (const shift of shifts) {
      if (shift.date !== lastDay) { main.append(h("h2", { class: "day" }, fmtDate(shift.date))); lastDay = shift.date; }
      main.append(shiftCard(shift, several));
    }
  },

  classroom(main) {
    const rooms = state.person.classrooms;
    if (!rooms.length) return main.append(h("p", { class: "muted" }, w("nothingHere")));
    const room = rooms.find((c) => c.key === state.params.get("classroom")) || rooms[0];
    const month = pickMonth(room.months, state.params.get("month"), room.time_zone);
    if (rooms.length > 1) {
      main.append(h("label", { for: "classroom-pick" }, w("classroom")), h("select", {
        id: "classroom-pick",
        onchange: (e) => { state.params.set("classroom", e.target.value); show("classroom", false); },
      }, rooms.map((c) => h("option", { value: c.key, selected: c.key === room.key }, c.name))));
    } else {
      main.append(h("p", {}, room.name));
    }
    if (!month) return main.append(h("p", { class: "muted" }, w("notPublished")));
    main.append(monthSwitcher(room.months, month, (m) => { state.params.set("month", m); show("classroom", false); }));
    const list = h("div", { id: "classroom-days", "aria-busy": "true" }, h("p", { class: "loading" }, w("loading")));
    main.append(list);
    loadClassroom(room.key, month, list);
  },

  availability(main) {
    const requests = state.person.availability.slice();
    if (!requests.length) return main.append(h("p", { class: "muted" }, w("noRequests")));
    const first = Number(state.params.get("request"));
    requests.sort((a, b) => (b.request === first) - (a.request === first) || a.month.localeCompare(b.month));
    main.append(h("p", { class: "legend" }, w("legend")));
    for (const request of requests) main.append(availabilityForm(request));
  },

  covers(main) {
    const calls = state.person.covers;
    if (!calls.length) return main.append(h("p", { class: "muted" }, w("noCovers")));
    for (const c of calls) {
      const status = h("div", { class: "row" });
      const card = h("article", { class: "card", "data-call": c.call },
        h("div", { class: "time" }, `${fmtDate(c.date)} ${fmtHours(c.start, c.end)}`),
        h("p", { class: "what" }, classroomName(c.classroom), " · ", w("askedBy", c.asked_by)), status);
      const draw = () => {
        const offered = c.offered || pending("cover_offer", (a) => a.call === c.call);
        status.replaceChildren(offered
          ? h("p", { class: "done" }, w("offered"))
          : h("button", { type: "button", class: "primary", onclick: (e) => post({ action: "cover_offer", call: c.call }, e.currentTarget, draw) }, w("offer")));
      };
      draw();
      main.append(card);
    }
  },

  calendar(main) {
    const url = state.person.calendar_url;
    main.append(h("p", {}, w("calendarIntro")));
    if (!url) return main.append(h("p", { class: "muted" }, w("noCalendar")));
    const field = h("input", { id: "calendar-url", class: "address", type: "text", readonly: true, value: url, onfocus: (e) => e.target.select() });
    main.append(
      h("label", { for: "calendar-url" }, w("address")),
      h("div", { class: "row" }, h("div", { class: "grow" }, field),
        h("button", { type: "button", class: "primary", id: "copy", onclick: () => copy(url, field) }, w("copy"))),
      h("h2", {}, w("iphone")), h("p", {}, w("iphoneSteps")),
      h("h2", {}, w("android")), h("p", {}, w("androidSteps")),
      h("p", { class: "card small" }, w("keepPrivate")));
  },

  manager(main) {
    const days = state.person.manager.days;
    const calls = new Map();
    const waiting = new Map();
    days.forEach((day, i) => {
      main.append(h("h2", { class: "day" }, `${i === 0 ? w("today") : i === 1 ? w("tomorrow") : ""} ${fmtDate(day.date)}`.trim()));
      for (const room of day.classrooms) {
        const card = h("section", { class: "card", "data-classroom": room.key }, h("h3", {}, room.name));
        if (!room.shifts.length) card.append(h("p", { class: "muted" }, w("dayOff")));
        else card.append(h("ul", { class: "plain" }, room.shifts.map((s) => h("li", { class: "row" },
          h("span", { class: "grow" }, h("span", { class: "time" }, fmtHours(s.start, s.end)), " ", s.teacher),
          s.acked ? h("span", { class: "badge ok" }, w("ackedMark"))
            : s.failed ? h("span", { class: "badge failed" }, w("notDelivered", s.failed))
              : h("span", { class: "badge canceled" }, w("notYet"))))));
        main.append(card);
        for (const c of room.covers) calls.set(c.call, { ...c, room: room.name });
        for (const u of room.unanswered) waiting.set(`${u.request}/${u.teacher}`, { ...u, room: room.name });
      }
    });
    if (calls.size) {
      main.append(h("h2", {}, w("openCovers")), h("div", { class: "card" }, h("ul", { class: "plain" }, [...calls.values()].map((c) => h("li", { "data-call": c.call },
        h("div", { class: "time" }, `${fmtDate(c.date)} ${fmtHours(c.start, c.end)}`),
        h("div", {}, `${c.room} · ${w("askedBy", c.asked_by)}`),
        h("div", { class: c.offers ? "badge ok" : "badge canceled" }, w("offers", c.offers)))))));
    }
    if (waiting.size) {
      main.append(h("h2", {}, w("unanswered")), h("div", { class: "card" }, h("ul", { class: "plain" }, [...waiting.values()].map((u) => {
        const slot = h("span", {});
        const draw = () => {
          const done = u.reminded || pending("remind", (a) => a.request === u.request && a.teacher === u.teacher);
          slot.replaceChildren(done ? h("span", { class: "done" }, w("reminded"))
            : h("button", { type: "button", onclick: (e) => post({ action: "remind", request: u.request, teacher: u.teacher }, e.currentTarget, () => { draw(); say(w("remindSent")); }) }, w("remind")));
        };
        draw();
        return h("li", { class: "row", "data-teacher": u.teacher },
          h("span", { class: "grow" }, u.name, h("br", {}), h("span", { class: "muted small" }, `${u.room} · ${fmtMonth(u.month)}`)), slot);
      }))));
    }
  },
};

function shiftCard(shift, several) {
  const kind = shift.change && shift.change.kind;
  const card = h("article", { class: kind === "canceled" ? "card canceled" : "card", "data-shift": shift.id });
  const was = shift.change && shift.change.was;
  const badges = [];
  if (kind === "new") badges.push(h("span", { class: "badge new" }, w("isNew")));
  if (kind === "moved") badges.push(h("span", { class: "badge moved" }, w("moved", was ? `${fmtDate(was.date)} ${fmtHours(was.start, was.end)}` : "")));
  if (kind === "canceled") badges.push(h("span", { class: "badge canceled" }, w("canceled")));
  const slot = h("div", {});
  card.append(h("div", { class: "row keep" },
    h("div", { class: "grow" }, h("div", { class: "time" }, fmtHours(shift.start, shift.end)),
      several ? h("div", { class: "what" }, classroomName(shift.classroom)) : null,
      shift.note ? h("div", { class: "what small" }, shift.note) : null,
      badges.length ? h("div", { class: "row" }, badges) : null),
    slot));
  const draw = () => {
    const sent = shift.ack && pending("ack", (a) => a.ack === shift.ack);
    if (shift.acked || sent) slot.replaceChildren(h("span", { class: "done" }, `✓ ${w("acked")}`, sent ? h("span", { class: "muted small" }, `（${w("sent")}）`) : null));
    else if (shift.ack) slot.replaceChildren(h("button", { type: "button", class: "primary", onclick: (e) => post({ action: "ack", ack: shift.ack }, e.currentTarget, () => { draw(); say(w("ackSent")); }) }, w("ack")));
  };
  draw();
  return card;
}

async function loadClassroom(key, month, list) {
  const cacheKey = `${key}/${month}`;
  let doc = state.classrooms.get(cacheKey);
  if (!doc) {
    try {
      doc = await call(`/liff/api/classroom?key=${encodeURIComponent(key)}&month=${encodeURIComponent(month)}`);
      state.classrooms.set(cacheKey, doc);
    } catch (e) {
      list.removeAttribute("aria-busy");
      if (e instanceof HttpError && e.status === 404) return list.replaceChildren(h("p", { class: "muted" }, w("notPublished")));
      if (e instanceof HttpError && e.status === 403 && e.code === "not_member") return list.replaceChildren(h("p", { class: "muted" }, w("notMember")));
      if (e instanceof HttpError && e.status === 401) return showFailure(e, loadMe);
      return list.replaceChildren(h("p", {}, e instanceof Offline ? w("offlineBody") : w("failed")),
        h("button", { type: "button", onclick: () => loadClassroom(key, month, list) }, w("retry")));
    }
  }
  if (!list.isConnected) return; // the person moved on while it loaded
  list.removeAttribute("aria-busy");
  list.replaceChildren(...doc.days.map((day) => h("section", { class: "card", "data-date": day.date },
    h("div", { class: "row" }, h("h2", { class: "grow day" }, fmtDate(day.date)),
      day.holiday ? h("span", { class: "badge holiday" }, day.holiday) : null,
      day.closed ? h("span", { class: "badge closed" }, w("closed")) : null),
    day.shifts.length
      ? h("ul", { class: "plain" }, day.shifts.map((s) => h("li", { class: s.teacher === state.person.name ? "you" : null },
        h("span", { class: "time" }, fmtHours(s.start, s.end)), " ", s.teacher, s.teacher === state.person.name ? ` ${w("you")}` : "")))
      : day.closed ? null : h("p", { class: "muted small" }, w("dayOff")))));
}

// ---- availability: a month grid, one answer per day, the whole month sent at once ----

function availabilityForm(request) {
  const sent = pending("availability", (a) => a.request === request.request);
  const answers = new Map();
  for (const a of (sent ? sent.days : request.answers)) answers.set(a.date, { answer: a.answer, from: a.from || null, to: a.to || null });
  const closed = new Set(request.closed_days);
  const room = state.person.classrooms.find((c) => c.key === request.classroom) || {};
  const late = request.late || todayIn(room.time_zone) > request.deadline;
  const days = daysOfMonth(request.month);
  const form = h("section", { class: "card request", "data-request": request.request, "aria-labelledby": `req-${request.request}` });
  const count = h("p", { class: "small", "aria-live": "polite" });
  const grid = h("div", { class: "grid" }, w("weekdays").map((d, i) => h("div", { class: `wd${i === 5 ? " sat" : i === 6 ? " sun" : ""}`, "aria-hidden": "true" }, d)));
  for (let i = 0; i < weekday(days[0]); i++) grid.append(h("div", { "aria-hidden": "true" }));
  const cells = new Map();
  const submit = h("button", { type: "button", class: "primary", "data-submit": request.request }, sent ? w("sendAgain") : w("send"));

  const drawCell = (date) => {
    const cell = cells.get(date);
    const a = answers.get(date);
    const kind = closed.has(date) ? "closed" : a ? a.answer : "none";
    const wd = weekday(date);
    cell.className = `cell ${kind}${wd === 5 ? " sat" : wd === 6 ? " sun" : ""}`;
    cell.dataset.answer = kind;
    const mark = kind === "yes" ? "○" : kind === "no" ? "×" : "";
    const hours = kind === "hours" ? h("span", { class: "hours" }, a.from || "", h("br", {}), a.to ? `–${a.to}` : "–")
      : kind === "closed" ? h("span", { class: "hours", "aria-hidden": "true" }, w("closedMark")) : null;
    cell.replaceChildren(...[h("span", { class: "num" }, String(Number(date.slice(8)))), mark ? h("span", { class: "mark", "aria-hidden": "true" }, mark) : null, hours].filter(Boolean));
    const said = kind === "closed" ? w("closedDay") : kind === "hours" ? fmtHours(a.from, a.to) : w(kind);
    cell.setAttribute("aria-label", `${fmtDate(date)}: ${said}`);
  };
  const drawCount = () => {
    const open = days.filter((d) => !closed.has(d));
    count.textContent = w("answered", open.filter((d) => answers.has(d)).length, open.length);
  };
  const change = (date, value) => {
    if (value) answers.set(date, value); else answers.delete(date);
    drawCell(date); drawCount();
  };
  const cycle = (date) => {
    const now = answers.get(date);
    if (!now || now.answer === "hours") change(date, { answer: "yes", from: null, to: null });
    else if (now.answer === "yes") change(date, { answer: "no", from: null, to: null });
    else hoursSheet(date, now, (value) => change(date, value));
  };
  for (const date of days) {
    const cell = h("button", { type: "button", "data-date": date, disabled: closed.has(date), onclick: () => cycle(date) });
    cells.set(date, cell);
    grid.append(cell);
    drawCell(date);
  }
  drawCount();
  submit.addEventListener("click", () => {
    const chosen = days.filter((d) => answers.has(d) && !closed.has(d)).map((date) => {
      const a = answers.get(date);
      return a.answer === "hours" ? { date, answer: "hours", from: a.from, to: a.to } : { date, answer: a.answer };
    });
    if (!chosen.length) return say(w("nothingToSend"));
    post({ action: "availability", request: request.request, days: chosen }, submit, () => {
      submit.disabled = false;
      submit.textContent = w("sendAgain");
      say(w("availabilitySent"));
    });
  });
  form.append(
    h("h2", { id: `req-${request.request}` }, `${fmtMonth(request.month)} · ${classroomName(request.classroom)}`),
    late ? h("p", { class: "warn" }, w("late", fmtDate(request.deadline))) : h("p", {}, w("answerBy", fmtDate(request.deadline))),
    grid, count, h("div", { class: "actions" }, submit));
  return form;
}

// A small sheet for a day's hours: either end may be empty ("from 16:00", "until 20:00").
function hoursSheet(date, now, done) {
  const from = h("input", { id: "hours-from", type: "time", step: 900, value: (now && now.from) || "" });
  const to = h("input", { id: "hours-to", type: "time", step: 900, value: (now && now.to) || "" });
  const error = h("p", { class: "error", role: "alert" });
  const dialog = h("dialog", { class: "sheet", "aria-labelledby": "hours-title" });
  const close = () => { dialog.close(); dialog.remove(); };
  const accept = () => {
    const f = from.value || null;
    const t = to.value || null;
    if (f && t && t <= f) { error.textContent = w("badOrder"); return; }
    close();
    done(f || t ? { answer: "hours", from: f, to: t } : { answer: "yes", from: null, to: null });
  };
  dialog.append(
    h("h2", { id: "hours-title" }, w("hoursOn", fmtDate(date))),
    h("div", { class: "times" },
      h("div", {}, h("label", { for: "hours-from" }, w("from")), from),
      h("div", {}, h("label", { for: "hours-to" }, w("until")), to)),
    h("p", { class: "muted small" }, w("hoursHint")), error,
    h("div", { class: "actions" },
      h("button", { type: "button", id: "hours-clear", onclick: () => { close(); done(null); } }, w("clear")),
      h("button", { type: "button", id: "hours-cancel", onclick: close }, w("cancel")),
      h("button", { type: "button", class: "primary", id: "hours-ok", onclick: accept }, w("ok"))));
  dialog.addEventListener("cancel", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  from.focus();
}

async function copy(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    say(w("copied"));
  } catch (e) {
    field.focus();
    field.select();
    say(document.execCommand && document.execCommand("copy") ? w("copied") : w("copyFailed"));
  }
}

// Whatever else goes wrong (a document the page cannot read) ends on a screen that offers to start again.
function started(run) {
  Promise.resolve().then(run).catch(() => {
    retryStep = () => location.reload();
    screen(w("failed"), null, true);
  });
}

started(boot);
