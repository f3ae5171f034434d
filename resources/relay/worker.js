// src/crypto.ts
var encoder = new TextEncoder();
function utf8(text) {
  return encoder.encode(text);
}
function hex(bytes) {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let out = "";
  for (const b of view) out += b.toString(16).padStart(2, "0");
  return out;
}
function fromHex(text) {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}
function fromBase64(text) {
  try {
    const raw = atob(text);
    const out = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}
function base64url(bytes) {
  let raw = "";
  for (const b of bytes) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
async function sha256Hex(data) {
  const bytes = typeof data === "string" ? utf8(data) : data;
  return hex(await crypto.subtle.digest("SHA-256", bytes));
}
function hmacKey(secret) {
  return crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}
async function hmacVerify(secret, signature, message) {
  return crypto.subtle.verify("HMAC", await hmacKey(secret), signature, message);
}
function sameText(a, b) {
  const x = utf8(a);
  const y = utf8(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}
function toBase64Native(bytes) {
  return bytes.toBase64();
}
function fromBase64Native(text) {
  return Uint8Array.fromBase64(text);
}
function randomToken(bytes) {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

// src/auth.ts
var CLOCK_SKEW_MS = 5 * 6e4;
var HEADER = /^Shiftcast-HMAC ts=(\d{1,12}), nonce=([A-Za-z0-9_-]{16,64}), sig=([0-9a-f]{64})$/;
function canonical(method, pathAndQuery, ts, nonce, bodyHash) {
  return ["SHIFTCAST-HMAC-SHA256", method.toUpperCase(), pathAndQuery, ts, nonce, bodyHash].join("\n");
}
function relayKey(env) {
  const key = fromHex(env.RELAY_KEY ?? "");
  return key !== null && key.length === 32 ? key : null;
}
async function refusal(request2, url, body, env, now) {
  const key = relayKey(env);
  if (key === null) return "not_configured";
  const header = request2.headers.get("authorization");
  if (!header) return "missing";
  const parts = HEADER.exec(header.trim());
  if (parts === null) return "malformed";
  const [, ts, nonce, sig] = parts;
  const sentAt = Number(ts) * 1e3;
  if (Math.abs(now - sentAt) > CLOCK_SKEW_MS) return "stale";
  const message = canonical(request2.method, url.pathname + url.search, ts, nonce, await sha256Hex(body));
  if (!await hmacVerify(key, fromHex(sig), utf8(message))) return "signature";
  const stored = await env.DB.prepare("INSERT INTO nonces (nonce, expires_at) VALUES (?, ?) ON CONFLICT (nonce) DO NOTHING").bind(nonce, sentAt + CLOCK_SKEW_MS).run();
  return stored.meta.changes === 1 ? null : "replayed";
}

// src/http.ts
function json(body, status = 200, headers = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers }
  });
}
function problem(status, error, message, headers = {}) {
  return json({ error, message }, status, headers);
}
var BadRequest = class extends Error {
};
function parseObject(raw) {
  let value;
  try {
    value = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new BadRequest("the body is not JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new BadRequest("the body is not a JSON object");
  return value;
}
function instant(value, field) {
  if (typeof value !== "string" || !/(Z|[+-]\d\d:\d\d)$/.test(value)) throw new BadRequest(`${field} must be an ISO 8601 time with its zone`);
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new BadRequest(`${field} is not a time`);
  return ms;
}
function iso(ms) {
  return ms === null ? null : new Date(ms).toISOString();
}
function cursor(url) {
  const raw = url.searchParams.get("after") ?? "0";
  if (!/^\d{1,15}$/.test(raw)) throw new BadRequest("after must be a cursor from an earlier answer");
  return Number(raw);
}
function through(body) {
  const value = body.through;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new BadRequest("through must be a cursor");
  return value;
}

// src/deliveries.ts
var MAX_PER_CALL = 40;
var MAX_BODY_CHARS = 6e4;
var PATHS = /* @__PURE__ */ new Set(["/v2/bot/message/push", "/v2/bot/message/multicast"]);
var ID = /^[A-Za-z0-9:_.-]{1,100}$/;
var UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function parse(value, now) {
  if (typeof value !== "object" || value === null) throw new BadRequest("each delivery must be an object");
  const v = value;
  if (typeof v.id !== "string" || !ID.test(v.id)) throw new BadRequest("id must be 1\u2013100 of A-Z a-z 0-9 : _ . -");
  const version = v.subject_version;
  if (typeof version !== "number" || !Number.isSafeInteger(version) || version < 0) throw new BadRequest(`${v.id}: subject_version must be a whole number`);
  if (v.cancel === true) return { kind: "cancel", id: v.id, version };
  if (typeof v.path !== "string" || !PATHS.has(v.path)) throw new BadRequest(`${v.id}: path must be one of ${[...PATHS].join(", ")}`);
  if (typeof v.body !== "object" || v.body === null || Array.isArray(v.body)) throw new BadRequest(`${v.id}: body must be LINE's JSON request body`);
  const body = JSON.stringify(v.body);
  if (body.length > MAX_BODY_CHARS) throw new BadRequest(`${v.id}: body is over ${MAX_BODY_CHARS} characters`);
  if (typeof v.retry_key !== "string" || !UUID.test(v.retry_key)) throw new BadRequest(`${v.id}: retry_key must be a UUID`);
  const keyIssuedAt = v.retry_key_issued_at === void 0 ? now : instant(v.retry_key_issued_at, "retry_key_issued_at");
  return {
    kind: "send",
    id: v.id,
    version,
    path: v.path,
    body,
    retryKey: v.retry_key.toLowerCase(),
    keyIssuedAt,
    dueAt: instant(v.due_at, "due_at"),
    notAfter: instant(v.not_after, "not_after")
  };
}
function outcome(upload4, held) {
  if (held === void 0) return upload4.kind === "send" ? "stored" : "canceled";
  if (held.state === "sent") return "already_sent";
  if (upload4.kind === "cancel") return upload4.version >= held.version ? "canceled" : "ignored";
  return upload4.version > held.version ? "replaced" : "ignored";
}
function statement(db, upload4, now) {
  if (upload4.kind === "cancel") {
    return db.prepare(
      "INSERT INTO deliveries (id, subject_version, state, updated_at) VALUES (?, ?, 'canceled', ?) ON CONFLICT (id) DO UPDATE SET state = 'canceled', subject_version = excluded.subject_version, updated_at = excluded.updated_at WHERE deliveries.subject_version <= excluded.subject_version AND deliveries.state <> 'sent'"
    ).bind(upload4.id, upload4.version, now);
  }
  return db.prepare(
    "INSERT INTO deliveries (id, subject_version, state, path, body, retry_key, retry_key_issued_at, due_at, not_after, attempts, next_attempt_at, updated_at) VALUES (?, ?, 'queued', ?, ?, ?, ?, ?, ?, 0, ?, ?) ON CONFLICT (id) DO UPDATE SET subject_version = excluded.subject_version, state = 'queued', path = excluded.path, body = excluded.body, retry_key = excluded.retry_key, retry_key_issued_at = excluded.retry_key_issued_at, due_at = excluded.due_at, not_after = excluded.not_after, attempts = 0, next_attempt_at = excluded.next_attempt_at, updated_at = excluded.updated_at WHERE deliveries.subject_version < excluded.subject_version AND deliveries.state <> 'sent'"
  ).bind(upload4.id, upload4.version, upload4.path, upload4.body, upload4.retryKey, upload4.keyIssuedAt, upload4.dueAt, upload4.notAfter, upload4.dueAt, now);
}
async function upload(db, body, now) {
  if (!Array.isArray(body.deliveries) || body.deliveries.length === 0 || body.deliveries.length > MAX_PER_CALL) {
    throw new BadRequest(`deliveries must be a list of 1 to ${MAX_PER_CALL}`);
  }
  const uploads = body.deliveries.map((d) => parse(d, now));
  if (new Set(uploads.map((u) => u.id)).size !== uploads.length) throw new BadRequest("an id appears twice");
  const held = await db.prepare(`SELECT id, subject_version, state FROM deliveries WHERE id IN (${uploads.map(() => "?").join(", ")})`).bind(...uploads.map((u) => u.id)).all();
  const byId = new Map(held.results.map((r) => [r.id, { version: r.subject_version, state: r.state }]));
  const results = uploads.map((u) => ({ id: u.id, result: outcome(u, byId.get(u.id)) }));
  const changes = uploads.filter((_, i) => results[i].result !== "ignored" && results[i].result !== "already_sent");
  if (changes.length > 0) await db.batch(changes.map((u) => statement(db, u, now)));
  return { results };
}

// src/env.ts
var MAX_SENDS_CEILING = 20;
var DEFAULT_LIFF_SDK_URL = "https://static.line-scdn.net/liff/edge/2/sdk.js";
function positive(value, fallback) {
  const n = Number(value);
  return value !== void 0 && value !== "" && Number.isFinite(n) && n > 0 ? n : fallback;
}
function sdkUrl(value) {
  try {
    const url = new URL(value ?? "");
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : DEFAULT_LIFF_SDK_URL;
  } catch {
    return DEFAULT_LIFF_SDK_URL;
  }
}
function settings(env) {
  return {
    lineApiBase: (env.LINE_API_BASE || "https://api.line.me").replace(/\/+$/, ""),
    allowHttp: env.ALLOW_HTTP === "1",
    senderQuietMs: positive(env.SENDER_QUIET_MINUTES, 5) * 6e4,
    maxSendsPerRun: Math.min(Math.floor(positive(env.MAX_SENDS_PER_RUN, 10)), MAX_SENDS_CEILING),
    lineTimeoutMs: positive(env.LINE_TIMEOUT_MS, 1e4),
    liffSdkUrl: sdkUrl(env.LIFF_SDK_URL)
  };
}
function longestRunMs(config) {
  return config.maxSendsPerRun * config.lineTimeoutMs + 6e4;
}

// src/events.ts
var PAGE = 100;
async function pull(db, after) {
  const rows = await db.prepare("SELECT seq, webhook_event_id, body, received_at FROM events WHERE seq > ? ORDER BY seq LIMIT ?").bind(after, PAGE).all();
  const events = rows.results.map((r) => ({
    cursor: r.seq,
    webhook_event_id: r.webhook_event_id,
    received_at: new Date(r.received_at).toISOString(),
    event: JSON.parse(r.body)
  }));
  return { events, next: rows.results.at(-1)?.seq ?? after };
}
async function ack(db, upTo) {
  const result = await db.prepare("DELETE FROM events WHERE seq <= ?").bind(upTo).run();
  return { removed: result.meta.changes };
}

// src/ics.ts
var PATH = /^\/ics\/([A-Za-z0-9_-]{43})\.ics$/;
async function feed(db, path, headOnly = false) {
  const token = PATH.exec(path)?.[1];
  if (token === void 0) return problem(404, "not_found", "no such calendar");
  const row = await db.prepare("SELECT body FROM pages WHERE kind = 'calendar' AND key = ?").bind(await sha256Hex(token)).first();
  if (row === null) return problem(404, "not_found", "no such calendar");
  return new Response(headOnly ? null : row.body, {
    headers: {
      "content-type": "text/calendar; charset=utf-8",
      "cache-control": "private, max-age=900",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer"
    }
  });
}

// src/images.ts
var MAX_IMAGE_BYTES = 14e5;
var NAME = /^[A-Za-z0-9._-]{1,100}$/;
var TOKEN = /^[A-Za-z0-9_-]{22}$/;
function contentType(data) {
  const png = [137, 80, 78, 71, 13, 10, 26, 10];
  if (data.length >= 8 && png.every((b, i) => data[i] === b)) return "image/png";
  if (data.length >= 3 && data[0] === 255 && data[1] === 216 && data[2] === 255) return "image/jpeg";
  return null;
}
async function put(db, name, data, now) {
  if (!NAME.test(name)) return problem(400, "bad_name", "an image name is 1\u2013100 of A-Z a-z 0-9 . _ -");
  if (data.length > MAX_IMAGE_BYTES) return problem(413, "too_large", `an image is at most ${MAX_IMAGE_BYTES} bytes`);
  const type = contentType(data);
  if (type === null) return problem(415, "not_an_image", "only PNG and JPEG images are kept");
  const digest = await sha256Hex(data);
  const kept = await db.prepare(
    "INSERT INTO images (name, token, content_type, data, sha256, uploaded_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET token = CASE WHEN images.sha256 = excluded.sha256 THEN images.token ELSE excluded.token END, content_type = excluded.content_type, data = excluded.data, sha256 = excluded.sha256, uploaded_at = excluded.uploaded_at RETURNING token"
  ).bind(name, randomToken(16), type, toBase64Native(data), digest, now).first();
  if (kept === null) return problem(500, "not_stored", "the image was not stored");
  return json({ name, path: `/i/${kept.token}`, content_type: type, bytes: data.length, sha256: digest });
}
async function get(db, token, headOnly = false) {
  if (!TOKEN.test(token)) return problem(404, "not_found", "no such image");
  const row = await db.prepare("SELECT content_type, data, sha256 FROM images WHERE token = ?").bind(token).first();
  if (row === null) return problem(404, "not_found", "no such image");
  const data = fromBase64Native(row.data);
  return new Response(headOnly ? null : data, {
    headers: {
      "content-type": row.content_type,
      // The token changes with every upload, so what is at one address never changes.
      "cache-control": "public, max-age=604800, immutable",
      etag: `"${row.sha256}"`,
      "content-length": String(data.length),
      "x-content-type-options": "nosniff"
    }
  });
}

// src/answers.ts
var DATE = /^(\d{4}-\d{2})-\d{2}$/;
var TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
var MAX_ACK_CHARS = 300;
function objects(value) {
  return Array.isArray(value) ? value.filter((v) => typeof v === "object" && v !== null) : [];
}
function id(value, name) {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) throw new BadRequest(`${name} must be a positive whole number`);
  return value;
}
function realDate(text) {
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}
function time(value, name) {
  if (value === void 0 || value === null) return null;
  if (typeof value !== "string" || !TIME.test(value)) throw new BadRequest(`${name} must be HH:MM or null`);
  return value;
}
function day(value, month, closed, i) {
  if (typeof value !== "object" || value === null) throw new BadRequest(`days[${i}] must be an object`);
  const v = value;
  const date = typeof v.date === "string" ? v.date : "";
  if (!DATE.test(date) || !realDate(date)) throw new BadRequest(`days[${i}].date must be a date YYYY-MM-DD`);
  if (date.slice(0, 7) !== month) throw new BadRequest(`${date} is not in the request's month ${month}`);
  if (closed.has(date)) throw new BadRequest(`${date} is a closed day`);
  if (v.answer === "yes" || v.answer === "no") {
    if ((v.from ?? null) !== null || (v.to ?? null) !== null) throw new BadRequest(`${date}: from and to go with "hours" only`);
    return { date, answer: v.answer };
  }
  if (v.answer !== "hours") throw new BadRequest(`${date}: answer must be yes, no or hours`);
  const from = time(v.from, `${date}: from`);
  const to = time(v.to, `${date}: to`);
  if (from === null && to === null) throw new BadRequest(`${date}: hours need from, to or both`);
  if (from !== null && to !== null && from >= to) throw new BadRequest(`${date}: from must be before to`);
  return { date, answer: "hours", from, to };
}
function availability(v, person) {
  const request2 = id(v.request, "request");
  const open = objects(person.availability).find((a) => a.request === request2);
  if (open === void 0) throw new BadRequest(`request ${request2} is not open to you`);
  if (!Array.isArray(v.days) || v.days.length === 0 || v.days.length > 31) throw new BadRequest("days must list 1 to 31 days");
  const month = typeof open.month === "string" ? open.month : "";
  const closed = new Set(Array.isArray(open.closed_days) ? open.closed_days.filter((d) => typeof d === "string") : []);
  const days = v.days.map((d, i) => day(d, month, closed, i));
  if (new Set(days.map((d) => d.date)).size !== days.length) throw new BadRequest("a day is answered twice");
  return { action: "availability", request: request2, days };
}
function reminder(v, person) {
  const request2 = id(v.request, "request");
  const teacher = id(v.teacher, "teacher");
  if (person.role !== "manager") throw new BadRequest("only the manager reminds");
  const manager = typeof person.manager === "object" && person.manager !== null ? person.manager : {};
  const listed = objects(manager.days).flatMap((d) => objects(d.classrooms)).flatMap((c) => objects(c.unanswered)).some((u) => u.request === request2 && u.teacher === teacher);
  if (!listed) throw new BadRequest(`teacher ${teacher} is not waiting to answer request ${request2}`);
  return { action: "remind", request: request2, teacher };
}
function accept(posted, person) {
  if (typeof posted !== "object" || posted === null || Array.isArray(posted)) throw new BadRequest("an answer is a JSON object");
  const v = posted;
  switch (v.action) {
    case "ack": {
      const ack3 = v.ack;
      if (typeof ack3 !== "string" || ack3 === "" || ack3.length > MAX_ACK_CHARS) throw new BadRequest("ack must be the ack of a shift");
      if (!objects(person.shifts).some((s) => s.ack === ack3)) throw new BadRequest("this shift has nothing to acknowledge");
      return { page: { action: "ack", ack: ack3 }, target: `ack:${ack3}` };
    }
    case "availability": {
      const page = availability(v, person);
      return { page, target: `availability:${page.request}` };
    }
    case "cover_offer": {
      const call2 = id(v.call, "call");
      if (!objects(person.covers).some((c) => c.call === call2)) throw new BadRequest(`cover call ${call2} was not offered to you`);
      return { page: { action: "cover_offer", call: call2 }, target: `cover:${call2}` };
    }
    case "remind": {
      const page = reminder(v, person);
      return { page, target: `remind:${page.request}:${page.teacher}` };
    }
    default:
      throw new BadRequest("action must be ack, availability, cover_offer or remind");
  }
}

// src/line.ts
async function request(config, path, init) {
  const started = Date.now();
  try {
    const response = await fetch(config.lineApiBase + path, { ...init, signal: AbortSignal.timeout(config.lineTimeoutMs) });
    const text = await response.text();
    let message = null;
    if (!response.ok) {
      try {
        const parsed = JSON.parse(text);
        message = typeof parsed.message === "string" ? parsed.message : null;
      } catch {
        message = text.slice(0, 500) || null;
      }
    }
    return {
      answer: {
        status: response.status,
        transport: null,
        requestId: response.headers.get("x-line-request-id"),
        acceptedRequestId: response.headers.get("x-line-accepted-request-id"),
        message,
        durationMs: Date.now() - started
      },
      text
    };
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    return {
      answer: {
        status: null,
        transport: name === "TimeoutError" || name === "AbortError" ? "timeout" : "connection",
        requestId: null,
        acceptedRequestId: null,
        message: error instanceof Error ? error.message.slice(0, 500) : null,
        durationMs: Date.now() - started
      },
      text: ""
    };
  }
}
async function call(config, token, path, body, headers = {}) {
  const sent = await request(config, path, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body
  });
  return sent.answer;
}

// src/liffauth.ts
var VERIFY_PATH = "/oauth2/v2.1/verify";
var BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;
var MAX_TOKEN_CHARS = 8e3;
function unauthorized(message, headers) {
  return problem(401, "unauthorized", message, { ...headers, "www-authenticate": "Bearer" });
}
async function verify(config, token, clientId) {
  const { answer: answer2, text } = await request(config, VERIFY_PATH, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ id_token: token, client_id: clientId }).toString()
  });
  if (answer2.status === null) return { refused: `LINE did not answer the sign-in check (${answer2.transport})` };
  let claims = {};
  try {
    claims = JSON.parse(text);
  } catch {
  }
  if (answer2.status === 200 && typeof claims.sub === "string" && claims.sub !== "") return { userId: claims.sub };
  const said = typeof claims.error_description === "string" ? `: ${claims.error_description}` : "";
  return { refused: `LINE did not confirm the sign-in (HTTP ${answer2.status}${said})` };
}
async function viewer(request2, env, config, headers, more = () => []) {
  const header = request2.headers.get("authorization") ?? "";
  const token = header.length <= MAX_TOKEN_CHARS ? BEARER.exec(header)?.[1] : void 0;
  if (token === void 0) return unauthorized("the Authorization header must be Bearer <LIFF ID token>", headers);
  const settings2 = await env.DB.prepare("SELECT login_channel_id FROM page_settings WHERE id = 1").first();
  if (settings2 === null) return unauthorized("the teachers' page is not set up on this relay", headers);
  const checked = await verify(config, token, settings2.login_channel_id);
  if ("refused" in checked) return unauthorized(checked.refused, headers);
  const [person, ...rest] = await env.DB.batch([
    env.DB.prepare("SELECT body FROM pages WHERE kind = 'person' AND key = ?").bind(checked.userId),
    ...more(checked.userId)
  ]);
  const body = person.results[0]?.body;
  if (body === void 0) return problem(403, "not_paired", "this LINE account is not paired with a teacher of the classroom", headers);
  return { viewer: { userId: checked.userId, person: body }, more: rest };
}

// page/index.html
var page_default = `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="light">
<meta name="referrer" content="no-referrer">
<title>Shiftcast</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/liff/app.css">
</head>
<body>
<main id="main" tabindex="-1">
<p class="loading">\u8AAD\u307F\u8FBC\u307F\u4E2D\u2026 / Loading\u2026</p>
</main>
<p id="status" class="status" role="status" aria-live="polite"></p>
<nav id="tabs" class="tabs" hidden></nav>
<!-- The SDK and the script come after the first paint's content, so the page shows before they load. -->
<script src="{{LIFF_SDK_URL}}"></script>
<script src="/liff/app.js"></script>
</body>
</html>
`;

// page/app.js
var app_default = '// The teachers\' page: a LIFF app that shows what the desktop app handed the relay (one JSON document per\n// person) and posts the teacher\'s answers back. No framework, no build step: the relay serves this file.\n"use strict";\n\n// Every word in both languages, side by side: [English, Japanese]. (Soft hyphens let long English tab\n// names break on a 360-px phone with six tabs.)\nconst WORDS = {\n  loading: ["Loading\u2026", "\u8AAD\u307F\u8FBC\u307F\u4E2D\u2026"],\n  signingIn: ["Signing in\u2026", "\u30ED\u30B0\u30A4\u30F3\u3057\u3066\u3044\u307E\u3059\u2026"],\n  retry: ["Try again", "\u518D\u8A66\u884C"],\n  notSetUp: ["The teachers\' page is not set up yet", "\u8B1B\u5E2B\u7528\u30DA\u30FC\u30B8\u306F\u307E\u3060\u6E96\u5099\u4E2D\u3067\u3059"],\n  askManager: ["Ask your manager.", "\u62C5\u5F53\u8005\u306B\u304A\u554F\u3044\u5408\u308F\u305B\u304F\u3060\u3055\u3044\u3002"],\n  fromLine: ["Open this page from LINE", "LINE\u304B\u3089\u958B\u3044\u3066\u304F\u3060\u3055\u3044"],\n  fromLineBody: ["This page shows your shifts. Open it from your classroom\'s LINE: the menu or a message.", "\u3053\u306E\u30DA\u30FC\u30B8\u3067\u306F\u30B7\u30D5\u30C8\u3092\u78BA\u8A8D\u3067\u304D\u307E\u3059\u3002\u6559\u5BA4\u306ELINE\u306E\u30E1\u30CB\u30E5\u30FC\u3084\u30E1\u30C3\u30BB\u30FC\u30B8\u304B\u3089\u958B\u3044\u3066\u304F\u3060\u3055\u3044\u3002"],\n  expired: ["Open this page again from LINE", "LINE\u304B\u3089\u3082\u3046\u4E00\u5EA6\u958B\u3044\u3066\u304F\u3060\u3055\u3044"],\n  expiredBody: ["Your sign-in has expired.", "\u30ED\u30B0\u30A4\u30F3\u306E\u6709\u52B9\u671F\u9650\u304C\u5207\u308C\u307E\u3057\u305F\u3002"],\n  notPaired: ["Your LINE is not paired yet", "LINE\u304C\u307E\u3060\u9023\u643A\u3055\u308C\u3066\u3044\u307E\u305B\u3093"],\n  notPairedBody: ["Send the pairing code your classroom gave you to the classroom\'s LINE, then open this page again.", "\u6559\u5BA4\u304B\u3089\u53D7\u3051\u53D6\u3063\u305F\u9023\u643A\u30B3\u30FC\u30C9\u3092\u6559\u5BA4\u306ELINE\u306B\u9001\u3063\u3066\u304B\u3089\u3001\u3082\u3046\u4E00\u5EA6\u3053\u306E\u30DA\u30FC\u30B8\u3092\u958B\u3044\u3066\u304F\u3060\u3055\u3044\u3002"],\n  offline: ["Could not connect", "\u63A5\u7D9A\u3067\u304D\u307E\u305B\u3093\u3067\u3057\u305F"],\n  offlineBody: ["Check your connection and try again.", "\u901A\u4FE1\u74B0\u5883\u3092\u78BA\u8A8D\u3057\u3066\u3001\u3082\u3046\u4E00\u5EA6\u304A\u8A66\u3057\u304F\u3060\u3055\u3044\u3002"],\n  failed: ["Something went wrong. Try again later.", "\u30A8\u30E9\u30FC\u304C\u767A\u751F\u3057\u307E\u3057\u305F\u3002\u3057\u3070\u3089\u304F\u3057\u3066\u304B\u3089\u304A\u8A66\u3057\u304F\u3060\u3055\u3044\u3002"],\n  sendFailed: ["Could not send. Check your connection and try again.", "\u9001\u4FE1\u3067\u304D\u307E\u305B\u3093\u3067\u3057\u305F\u3002\u901A\u4FE1\u74B0\u5883\u3092\u78BA\u8A8D\u3057\u3066\u3001\u3082\u3046\u4E00\u5EA6\u304A\u8A66\u3057\u304F\u3060\u3055\u3044\u3002"],\n  tab_manager: ["Today", "\u4ECA\u65E5"],\n  tab_month: ["My shifts", "\u30B7\u30D5\u30C8"],\n  tab_classroom: ["Class\\u00adroom", "\u6559\u5BA4"],\n  tab_availability: ["Avail\\u00adability", "\u30B7\u30D5\u30C8\u5E0C\u671B"],\n  tab_covers: ["Cover", "\u4EE3\u8B1B"],\n  tab_calendar: ["Calendar", "\u30AB\u30EC\u30F3\u30C0\u30FC"],\n  views: ["Views", "\u8868\u793A\u306E\u5207\u308A\u66FF\u3048"],\n  toDo: [(n) => `${n} to answer`, (n) => `\u672A\u5BFE\u5FDC ${n}\u4EF6`],\n  title_manager: ["Today and tomorrow", "\u4ECA\u65E5\u3068\u660E\u65E5"],\n  title_month: ["My shifts", "\u308F\u305F\u3057\u306E\u30B7\u30D5\u30C8"],\n  title_classroom: ["Classroom shifts", "\u6559\u5BA4\u306E\u30B7\u30D5\u30C8"],\n  title_availability: ["Availability", "\u30B7\u30D5\u30C8\u5E0C\u671B"],\n  title_covers: ["Cover calls", "\u4EE3\u8B1B\u306E\u52DF\u96C6"],\n  title_calendar: ["Calendar", "\u30AB\u30EC\u30F3\u30C0\u30FC\u9023\u643A"],\n  month: ["Month", "\u6708"],\n  noShifts: ["No shifts this month.", "\u3053\u306E\u6708\u306E\u30B7\u30D5\u30C8\u306F\u3042\u308A\u307E\u305B\u3093\u3002"],\n  isNew: ["New", "\u65B0\u898F"],\n  moved: ["Moved \u2014 was {0}", "\u5909\u66F4\uFF08\u5143\uFF1A{0}\uFF09"],\n  canceled: ["Canceled", "\u53D6\u308A\u6D88\u3057"],\n  ack: ["Got it", "\u4E86\u89E3"],\n  acked: ["Acknowledged", "\u4E86\u89E3\u6E08\u307F"],\n  sent: ["sent", "\u9001\u4FE1\u6E08\u307F"],\n  ackSent: ["Sent: got it.", "\u4E86\u89E3\u3092\u4F1D\u3048\u307E\u3057\u305F\u3002"],\n  classroom: ["Classroom", "\u6559\u5BA4"],\n  closed: ["Closed", "\u4F11\u5BA4"],\n  dayOff: ["No shifts", "\u30B7\u30D5\u30C8\u306A\u3057"],\n  you: ["(you)", "\uFF08\u3042\u306A\u305F\uFF09"],\n  notPublished: ["This month is not published yet.", "\u3053\u306E\u6708\u306E\u30B7\u30D5\u30C8\u306F\u307E\u3060\u516C\u958B\u3055\u308C\u3066\u3044\u307E\u305B\u3093\u3002"],\n  notMember: ["This classroom is not yours.", "\u3053\u306E\u6559\u5BA4\u306E\u30B7\u30D5\u30C8\u306F\u8868\u793A\u3067\u304D\u307E\u305B\u3093\u3002"],\n  noRequests: ["No availability requests right now.", "\u73FE\u5728\u3001\u30B7\u30D5\u30C8\u5E0C\u671B\u306E\u4F9D\u983C\u306F\u3042\u308A\u307E\u305B\u3093\u3002"],\n  answerBy: ["Answer by {0}", "\u7DE0\u3081\u5207\u308A\uFF1A{0}"],\n  late: ["Past the deadline ({0}). You can still answer; it is marked late.", "\u7DE0\u3081\u5207\u308A\uFF08{0}\uFF09\u3092\u904E\u304E\u3066\u3044\u307E\u3059\u3002\u56DE\u7B54\u306F\u3067\u304D\u307E\u3059\u304C\u3001\u7DE0\u3081\u5207\u308A\u5F8C\u306E\u56DE\u7B54\u3068\u3057\u3066\u6271\u308F\u308C\u307E\u3059\u3002"],\n  legend: ["Tap a day: \u25CB can work \u2192 \xD7 cannot \u2192 a time range.", "\u65E5\u4ED8\u3092\u30BF\u30C3\u30D7\uFF1A\u25CB \u51FA\u52E4\u3067\u304D\u308B \u2192 \xD7 \u3067\u304D\u306A\u3044 \u2192 \u6642\u9593\u3092\u6307\u5B9A"],\n  weekdays: [["Mon","Tue","Wed","Thu","Fri","Sat","Sun"], ["\u6708","\u706B","\u6C34","\u6728","\u91D1","\u571F","\u65E5"]],\n  closedMark: ["closed", "\u4F11"],\n  yes: ["can work", "\u51FA\u52E4\u3067\u304D\u308B"],\n  no: ["cannot work", "\u51FA\u52E4\u3067\u304D\u306A\u3044"],\n  none: ["not answered", "\u672A\u56DE\u7B54"],\n  closedDay: ["closed", "\u4F11\u5BA4"],\n  hoursOn: ["Hours on {0}", "{0}\u306E\u6642\u9593"],\n  from: ["From", "\u958B\u59CB"],\n  until: ["Until", "\u7D42\u4E86"],\n  hoursHint: ["Leave one empty for \u201Cfrom \u2026\u201D or \u201Cuntil \u2026\u201D.", "\u7247\u65B9\u3060\u3051\u3067\u3082\u6307\u5B9A\u3067\u304D\u307E\u3059\uFF08\u300C\u25CB\u6642\u304B\u3089\u300D\u300C\u25CB\u6642\u307E\u3067\u300D\uFF09\u3002"],\n  ok: ["OK", "\u6C7A\u5B9A"],\n  cancel: ["Cancel", "\u30AD\u30E3\u30F3\u30BB\u30EB"],\n  clear: ["Not answered", "\u672A\u56DE\u7B54\u306B\u623B\u3059"],\n  badOrder: ["\u201CUntil\u201D must be later than \u201CFrom\u201D.", "\u7D42\u4E86\u306F\u958B\u59CB\u3088\u308A\u5F8C\u306E\u6642\u523B\u306B\u3057\u3066\u304F\u3060\u3055\u3044\u3002"],\n  answered: [(n, total) => `${n} of ${total} days answered`, (n, total) => `${total}\u65E5\u4E2D${n}\u65E5\u56DE\u7B54\u6E08\u307F`],\n  send: ["Send", "\u9001\u4FE1\u3059\u308B"],\n  sendAgain: ["Send changes", "\u5909\u66F4\u3092\u9001\u4FE1\u3059\u308B"],\n  nothingToSend: ["Answer at least one day first.", "1\u65E5\u4EE5\u4E0A\u56DE\u7B54\u3057\u3066\u304B\u3089\u9001\u4FE1\u3057\u3066\u304F\u3060\u3055\u3044\u3002"],\n  availabilitySent: ["Sent. You can change your answers and send again until the month is over.", "\u9001\u4FE1\u3057\u307E\u3057\u305F\u3002\u6708\u304C\u7D42\u308F\u308B\u307E\u3067\u306F\u5909\u66F4\u3057\u3066\u9001\u308A\u76F4\u305B\u307E\u3059\u3002"],\n  noCovers: ["No cover calls for you right now.", "\u73FE\u5728\u3001\u3042\u306A\u305F\u3078\u306E\u4EE3\u8B1B\u306E\u52DF\u96C6\u306F\u3042\u308A\u307E\u305B\u3093\u3002"],\n  askedBy: ["Asked by {0}", "\u4F9D\u983C\uFF1A{0}"],\n  offer: ["I can cover", "\u5F15\u304D\u53D7\u3051\u307E\u3059"],\n  offered: ["Offered \u2014 your manager will decide and let you know.", "\u5F15\u304D\u53D7\u3051\u308B\u3068\u4F1D\u3048\u307E\u3057\u305F\u3002\u62C5\u5F53\u8005\u304C\u6C7A\u3081\u3066\u3054\u9023\u7D61\u3057\u307E\u3059\u3002"],\n  calendarIntro: ["Your shifts as a calendar your phone subscribes to. It updates by itself.", "\u30B7\u30D5\u30C8\u3092\u30B9\u30DE\u30FC\u30C8\u30D5\u30A9\u30F3\u306E\u30AB\u30EC\u30F3\u30C0\u30FC\u306B\u8868\u793A\u3067\u304D\u307E\u3059\u3002\u81EA\u52D5\u3067\u66F4\u65B0\u3055\u308C\u307E\u3059\u3002"],\n  address: ["Your calendar address", "\u30AB\u30EC\u30F3\u30C0\u30FC\u306E\u30A2\u30C9\u30EC\u30B9"],\n  copy: ["Copy", "\u30B3\u30D4\u30FC"],\n  copied: ["Copied.", "\u30B3\u30D4\u30FC\u3057\u307E\u3057\u305F\u3002"],\n  copyFailed: ["Could not copy: select the address and copy it.", "\u30B3\u30D4\u30FC\u3067\u304D\u307E\u305B\u3093\u3067\u3057\u305F\u3002\u30A2\u30C9\u30EC\u30B9\u3092\u9078\u629E\u3057\u3066\u30B3\u30D4\u30FC\u3057\u3066\u304F\u3060\u3055\u3044\u3002"],\n  iphone: ["iPhone", "iPhone"],\n  iphoneSteps: ["Settings \u2192 Calendar \u2192 Accounts \u2192 Add Account \u2192 Other \u2192 Add Subscribed Calendar, then paste the address.", "\u300C\u8A2D\u5B9A\u300D\u2192\u300C\u30AB\u30EC\u30F3\u30C0\u30FC\u300D\u2192\u300C\u30A2\u30AB\u30A6\u30F3\u30C8\u300D\u2192\u300C\u30A2\u30AB\u30A6\u30F3\u30C8\u3092\u8FFD\u52A0\u300D\u2192\u300C\u305D\u306E\u4ED6\u300D\u2192\u300C\u7167\u4F1A\u3059\u308B\u30AB\u30EC\u30F3\u30C0\u30FC\u3092\u8FFD\u52A0\u300D\u3067\u3001\u30A2\u30C9\u30EC\u30B9\u3092\u8CBC\u308A\u4ED8\u3051\u307E\u3059\u3002"],\n  android: ["Android", "Android"],\n  androidSteps: ["In a browser, open Google Calendar (calendar.google.com) \u2192 Other calendars + \u2192 From URL, paste the address and add it. It then shows in the Google Calendar app.", "\u30D6\u30E9\u30A6\u30B6\u3067Google\u30AB\u30EC\u30F3\u30C0\u30FC\uFF08calendar.google.com\uFF09\u3092\u958B\u304D\u3001\u300C\u4ED6\u306E\u30AB\u30EC\u30F3\u30C0\u30FC\u300D\u306E\uFF0B \u2192\u300CURL\u3067\u8FFD\u52A0\u300D\u306B\u30A2\u30C9\u30EC\u30B9\u3092\u8CBC\u308A\u4ED8\u3051\u3066\u8FFD\u52A0\u3057\u307E\u3059\u3002\u305D\u306E\u5F8C\u3001Google\u30AB\u30EC\u30F3\u30C0\u30FC\u306E\u30A2\u30D7\u30EA\u306B\u3082\u8868\u793A\u3055\u308C\u307E\u3059\u3002"],\n  keepPrivate: ["Anyone who has this address can see your shifts. If it leaked, ask your manager for a new address.", "\u3053\u306E\u30A2\u30C9\u30EC\u30B9\u3092\u77E5\u3063\u3066\u3044\u308B\u4EBA\u306F\u8AB0\u3067\u3082\u3042\u306A\u305F\u306E\u30B7\u30D5\u30C8\u3092\u898B\u3089\u308C\u307E\u3059\u3002\u4ED6\u306E\u4EBA\u306B\u77E5\u3089\u308C\u305F\u3068\u304D\u306F\u3001\u62C5\u5F53\u8005\u306B\u65B0\u3057\u3044\u30A2\u30C9\u30EC\u30B9\u3092\u767A\u884C\u3057\u3066\u3082\u3089\u3063\u3066\u304F\u3060\u3055\u3044\u3002"],\n  noCalendar: ["Your calendar address is not ready yet. Ask your manager.", "\u30AB\u30EC\u30F3\u30C0\u30FC\u306E\u30A2\u30C9\u30EC\u30B9\u306F\u307E\u3060\u3042\u308A\u307E\u305B\u3093\u3002\u62C5\u5F53\u8005\u306B\u304A\u554F\u3044\u5408\u308F\u305B\u304F\u3060\u3055\u3044\u3002"],\n  today: ["Today", "\u4ECA\u65E5"],\n  tomorrow: ["Tomorrow", "\u660E\u65E5"],\n  ackedMark: ["\u2713 Acknowledged", "\u2713 \u4E86\u89E3\u6E08\u307F"],\n  notYet: ["Not yet", "\u672A\u78BA\u8A8D"],\n  notDelivered: ["Not delivered: {0}", "\u9001\u4FE1\u5931\u6557\uFF1A{0}"],\n  openCovers: ["Open cover calls", "\u52DF\u96C6\u4E2D\u306E\u4EE3\u8B1B"],\n  offers: [(n) => (n === 0 ? "No offers yet" : n === 1 ? "1 offer" : `${n} offers`), (n) => (n === 0 ? "\u5F15\u304D\u53D7\u3051\u624B\u306F\u307E\u3060\u3044\u307E\u305B\u3093" : `\u5F15\u304D\u53D7\u3051 ${n}\u4EBA`)],\n  unanswered: ["Availability not answered", "\u30B7\u30D5\u30C8\u5E0C\u671B\u306E\u672A\u56DE\u7B54"],\n  remind: ["Remind", "\u30EA\u30DE\u30A4\u30F3\u30C9"],\n  reminded: ["Reminded", "\u30EA\u30DE\u30A4\u30F3\u30C9\u6E08\u307F"],\n  remindSent: ["Reminder on its way.", "\u30EA\u30DE\u30A4\u30F3\u30C9\u3092\u9001\u308A\u307E\u3059\u3002"],\n  nothingHere: ["Nothing to show.", "\u8868\u793A\u3059\u308B\u5185\u5BB9\u306F\u3042\u308A\u307E\u305B\u3093\u3002"],\n};\n\nconst VIEWS = ["manager", "month", "classroom", "availability", "covers", "calendar"];\n\nconst state = { lang: "ja", person: null, answers: [], params: new URLSearchParams(), classrooms: new Map() };\nlet retryStep = null;\n\nconst $main = () => document.getElementById("main");\n\nfunction w(key, ...args) {\n  const value = WORDS[key][state.lang === "ja" ? 1 : 0];\n  if (typeof value === "function") return value(...args);\n  if (Array.isArray(value)) return value;\n  return String(value).replace(/\\{(\\d)\\}/g, (_, i) => String(args[Number(i)]));\n}\n\n// Builds an element: attributes (on* as listeners, true/false as boolean attributes) and children\n// (strings become text, so nothing from a document is ever parsed as HTML).\nfunction h(tag, attrs, ...children) {\n  const el = document.createElement(tag);\n  for (const [name, value] of Object.entries(attrs || {})) {\n    if (value === null || value === undefined || value === false) continue;\n    if (name.startsWith("on")) el.addEventListener(name.slice(2), value);\n    else if (name === "class") el.className = value;\n    else el.setAttribute(name, value === true ? "" : String(value));\n  }\n  for (const child of children.flat()) {\n    if (child === null || child === undefined || child === false) continue;\n    el.append(child instanceof Node ? child : String(child));\n  }\n  return el;\n}\n\nfunction say(text) {\n  const status = document.getElementById("status");\n  status.textContent = text;\n  clearTimeout(say.timer);\n  say.timer = setTimeout(() => { status.textContent = ""; }, 5000);\n}\n\nfunction setLanguage(code) {\n  state.lang = String(code || "").toLowerCase().startsWith("ja") ? "ja" : "en";\n  document.documentElement.lang = state.lang;\n}\n\n// ---- dates, on the document\'s own calendar (a date string is a day, never an instant) ----\n\nfunction dayOf(date) { // "2026-12-07" \u2192 Date at UTC midnight, for the weekday only\n  const [y, m, d] = date.split("-").map(Number);\n  return new Date(Date.UTC(y, m - 1, d));\n}\nfunction weekday(date) { return (dayOf(date).getUTCDay() + 6) % 7; } // Monday 0 \u2026 Sunday 6\nfunction fmtDate(date) {\n  const d = dayOf(date);\n  const wd = w("weekdays")[weekday(date)];\n  return state.lang === "ja"\n    ? `${d.getUTCMonth() + 1}\u6708${d.getUTCDate()}\u65E5\uFF08${wd}\uFF09`\n    : `${wd} ${d.getUTCDate()} ${d.toLocaleString("en", { month: "short", timeZone: "UTC" })}`;\n}\nfunction fmtMonth(month) {\n  const [y, m] = month.split("-").map(Number);\n  if (state.lang === "ja") return `${y}\u5E74${m}\u6708`;\n  return new Date(Date.UTC(y, m - 1, 1)).toLocaleString("en", { month: "long", year: "numeric", timeZone: "UTC" });\n}\nfunction fmtHours(start, end) {\n  if (start && end) return `${start}\u2013${end}`;\n  if (start) return state.lang === "ja" ? `${start}\u304B\u3089` : `from ${start}`;\n  if (end) return state.lang === "ja" ? `${end}\u307E\u3067` : `until ${end}`;\n  return "";\n}\nfunction todayIn(timeZone) {\n  try {\n    return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());\n  } catch (e) {\n    return new Date().toISOString().slice(0, 10);\n  }\n}\nfunction daysOfMonth(month) {\n  const [y, m] = month.split("-").map(Number);\n  const count = new Date(Date.UTC(y, m, 0)).getUTCDate();\n  return Array.from({ length: count }, (_, i) => `${month}-${String(i + 1).padStart(2, "0")}`);\n}\n\n// ---- talking to the relay ----\n\nclass HttpError extends Error {\n  constructor(status, code) { super(`${status} ${code}`); this.status = status; this.code = code; }\n}\nclass Offline extends Error {}\n\nasync function call(path, options = {}) {\n  const headers = { Accept: "application/json" };\n  if (options.token !== false) headers.Authorization = `Bearer ${liff.getIDToken()}`;\n  if (options.body) headers["Content-Type"] = "application/json";\n  const abort = new AbortController();\n  const timer = setTimeout(() => abort.abort(), 20000);\n  let response;\n  try {\n    response = await fetch(path, {\n      method: options.body ? "POST" : "GET", headers, cache: "no-store", signal: abort.signal,\n      body: options.body ? JSON.stringify(options.body) : undefined,\n    });\n  } catch (e) {\n    throw new Offline(String(e));\n  } finally {\n    clearTimeout(timer);\n  }\n  let data = null;\n  try { data = await response.json(); } catch (e) { data = null; }\n  if (!response.ok) throw new HttpError(response.status, (data && data.error) || "");\n  return data;\n}\n\n// ---- whole-page screens (before a view can show) ----\n\nfunction screen(title, body, withRetry) {\n  document.getElementById("tabs").hidden = true;\n  const main = $main();\n  main.replaceChildren(h("section", { class: "screen", "aria-live": "polite" },\n    h("h1", {}, title),\n    body ? h("p", {}, body) : null,\n    withRetry ? h("button", { class: "primary", type: "button", onclick: () => started(retryStep) }, w("retry")) : null));\n}\n\nfunction showFailure(error, retry) {\n  retryStep = retry;\n  if (error instanceof HttpError && error.status === 401) screen(w("expired"), w("expiredBody"));\n  else if (error instanceof HttpError && error.status === 403 && error.code === "not_paired") screen(w("notPaired"), w("notPairedBody"));\n  else if (error instanceof Offline) screen(w("offline"), w("offlineBody"), true);\n  else screen(w("failed"), null, true);\n}\n\nasync function boot() {\n  retryStep = boot;\n  setLanguage(navigator.language);\n  let config;\n  try {\n    config = await call("/liff/config", { token: false });\n  } catch (e) {\n    if (e instanceof HttpError && e.status === 404) return screen(w("notSetUp"), w("askManager"));\n    return showFailure(e, boot);\n  }\n  if (typeof liff === "undefined") { // LIFF\'s SDK did not load: only loading the page again fetches it\n    retryStep = () => location.reload();\n    return screen(w("offline"), w("offlineBody"), true);\n  }\n  try {\n    await liff.init({ liffId: config.liff_id });\n  } catch (e) {\n    return screen(w("offline"), w("offlineBody"), true);\n  }\n  setLanguage(liff.getLanguage() || navigator.language);\n  if (!liff.isLoggedIn()) {\n    if (liff.isInClient()) {\n      screen(w("signingIn"));\n      return liff.login();\n    }\n    return screen(w("fromLine"), w("fromLineBody"));\n  }\n  if (!liff.getIDToken()) return screen(w("fromLine"), w("fromLineBody"));\n  await loadMe();\n}\n\nasync function loadMe() {\n  retryStep = loadMe;\n  let me;\n  try {\n    me = await call("/liff/api/me");\n  } catch (e) {\n    return showFailure(e, loadMe);\n  }\n  state.person = me.person;\n  state.answers = me.answers || [];\n  if (state.person.language) setLanguage(state.person.language);\n  state.params = new URLSearchParams(location.search);\n  const asked = state.params.get("view");\n  const fallback = state.person.role === "manager" ? "manager" : "month";\n  show(tabs().includes(asked) ? asked : fallback, false);\n}\n\nfunction tabs() {\n  return VIEWS.filter((view) => view !== "manager" || (state.person.role === "manager" && state.person.manager));\n}\n\nfunction show(view, byTap) {\n  state.view = view;\n  // The address keeps what is shown, so a reload (or a shared link) opens the same place.\n  if (byTap) state.params = new URLSearchParams();\n  state.params.set("view", view);\n  history.replaceState(null, "", `${location.pathname}?${state.params}`);\n  drawTabs();\n  const main = $main();\n  main.replaceChildren(h("h1", { id: "view-title", "data-view": view }, w(`title_${view}`)));\n  RENDER[view](main);\n  if (byTap) { window.scrollTo(0, 0); main.focus({ preventScroll: true }); }\n}\n\nfunction drawTabs() {\n  const nav = document.getElementById("tabs");\n  nav.setAttribute("aria-label", w("views"));\n  nav.replaceChildren(...tabs().map((name) => {\n    const count = waiting(name);\n    return h("button", {\n      type: "button", "data-view": name, "aria-current": name === state.view ? "page" : false,\n      onclick: () => show(name, true),\n    }, h("span", {}, w(`tab_${name}`)), count ? [h("span", { class: "count", "aria-hidden": "true" }, String(count)), h("span", { class: "hidden" }, `, ${w("toDo", count)}`)] : null);\n  }));\n  nav.hidden = false;\n}\n\n// What waits for the person\'s answer in a view, counted on its tab.\nfunction waiting(view) {\n  const p = state.person;\n  if (view === "month") return p.shifts.filter((s) => s.ack && !s.acked && !pending("ack", (a) => a.ack === s.ack)).length;\n  if (view === "availability") return p.availability.filter((r) => !r.answers.length && !pending("availability", (a) => a.request === r.request)).length;\n  if (view === "covers") return p.covers.filter((c) => !c.offered && !pending("cover_offer", (a) => a.call === c.call)).length;\n  return 0;\n}\n\n// ---- answers: what the document says, updated by what was sent and not yet taken in by the app ----\n\nfunction pending(action, match) {\n  return state.answers.find((a) => a.action === action && match(a));\n}\n\nasync function post(answer, button, done) {\n  button.disabled = true;\n  try {\n    await call("/liff/api/answers", { body: answer });\n  } catch (e) {\n    button.disabled = false;\n    if (e instanceof HttpError && e.status === 401) return showFailure(e, loadMe);\n    return say(e instanceof Offline ? w("sendFailed") : w("failed"));\n  }\n  state.answers = state.answers.filter((a) => !sameTarget(a, answer)).concat([answer]);\n  drawTabs();\n  done();\n}\n\nfunction sameTarget(a, b) {\n  if (a.action !== b.action) return false;\n  if (a.action === "ack") return a.ack === b.ack;\n  if (a.action === "availability") return a.request === b.request;\n  if (a.action === "cover_offer") return a.call === b.call;\n  return a.request === b.request && a.teacher === b.teacher;\n}\n\nfunction classroomName(key) {\n  const room = state.person.classrooms.find((c) => c.key === key);\n  return room ? room.name : key;\n}\n\nfunction allMonths() {\n  return [...new Set(state.person.classrooms.flatMap((c) => c.months))].sort();\n}\n\nfunction monthSwitcher(months, current, pick) {\n  if (months.length < 2) return h("p", { class: "muted" }, fmtMonth(current));\n  return h("div", { class: "switcher", role: "group", "aria-label": w("month") },\n    months.map((m) => h("button", { type: "button", "data-month": m, "aria-pressed": m === current ? "true" : "false", onclick: () => pick(m) }, fmtMonth(m))));\n}\n\nfunction pickMonth(months, asked, timeZone) {\n  if (months.includes(asked)) return asked;\n  const now = todayIn(timeZone).slice(0, 7);\n  return months.includes(now) ? now : months[0];\n}\n\n// ---- the views ----\n\nconst RENDER = {\n  month(main) {\n    const months = allMonths();\n    const zone = (state.person.classrooms[0] || {}).time_zone;\n    const month = pickMonth(months, state.params.get("month"), zone);\n    if (!month) return main.append(h("p", { class: "muted" }, w("noShifts")));\n    main.append(monthSwitcher(months, month, (m) => { state.params.set("month", m); show("month", false); }));\n    const shifts = state.person.shifts.filter((s) => s.date.startsWith(month))\n      .sort((a, b) => (a.date + a.start).localeCompare(b.date + b.start));\n    if (!shifts.length) return main.append(h("p", { class: "muted" }, w("noShifts")));\n    const several = state.person.classrooms.length > 1;\n    let lastDay = null;\n    for (const shift of shifts) {\n      if (shift.date !== lastDay) { main.append(h("h2", { class: "day" }, fmtDate(shift.date))); lastDay = shift.date; }\n      main.append(shiftCard(shift, several));\n    }\n  },\n\n  classroom(main) {\n    const rooms = state.person.classrooms;\n    if (!rooms.length) return main.append(h("p", { class: "muted" }, w("nothingHere")));\n    const room = rooms.find((c) => c.key === state.params.get("classroom")) || rooms[0];\n    const month = pickMonth(room.months, state.params.get("month"), room.time_zone);\n    if (rooms.length > 1) {\n      main.append(h("label", { for: "classroom-pick" }, w("classroom")), h("select", {\n        id: "classroom-pick",\n        onchange: (e) => { state.params.set("classroom", e.target.value); show("classroom", false); },\n      }, rooms.map((c) => h("option", { value: c.key, selected: c.key === room.key }, c.name))));\n    } else {\n      main.append(h("p", {}, room.name));\n    }\n    if (!month) return main.append(h("p", { class: "muted" }, w("notPublished")));\n    main.append(monthSwitcher(room.months, month, (m) => { state.params.set("month", m); show("classroom", false); }));\n    const list = h("div", { id: "classroom-days", "aria-busy": "true" }, h("p", { class: "loading" }, w("loading")));\n    main.append(list);\n    loadClassroom(room.key, month, list);\n  },\n\n  availability(main) {\n    const requests = state.person.availability.slice();\n    if (!requests.length) return main.append(h("p", { class: "muted" }, w("noRequests")));\n    const first = Number(state.params.get("request"));\n    requests.sort((a, b) => (b.request === first) - (a.request === first) || a.month.localeCompare(b.month));\n    main.append(h("p", { class: "legend" }, w("legend")));\n    for (const request of requests) main.append(availabilityForm(request));\n  },\n\n  covers(main) {\n    const calls = state.person.covers;\n    if (!calls.length) return main.append(h("p", { class: "muted" }, w("noCovers")));\n    for (const c of calls) {\n      const status = h("div", { class: "row" });\n      const card = h("article", { class: "card", "data-call": c.call },\n        h("div", { class: "time" }, `${fmtDate(c.date)} ${fmtHours(c.start, c.end)}`),\n        h("p", { class: "what" }, classroomName(c.classroom), " \xB7 ", w("askedBy", c.asked_by)), status);\n      const draw = () => {\n        const offered = c.offered || pending("cover_offer", (a) => a.call === c.call);\n        status.replaceChildren(offered\n          ? h("p", { class: "done" }, w("offered"))\n          : h("button", { type: "button", class: "primary", onclick: (e) => post({ action: "cover_offer", call: c.call }, e.currentTarget, draw) }, w("offer")));\n      };\n      draw();\n      main.append(card);\n    }\n  },\n\n  calendar(main) {\n    const url = state.person.calendar_url;\n    main.append(h("p", {}, w("calendarIntro")));\n    if (!url) return main.append(h("p", { class: "muted" }, w("noCalendar")));\n    const field = h("input", { id: "calendar-url", class: "address", type: "text", readonly: true, value: url, onfocus: (e) => e.target.select() });\n    main.append(\n      h("label", { for: "calendar-url" }, w("address")),\n      h("div", { class: "row" }, h("div", { class: "grow" }, field),\n        h("button", { type: "button", class: "primary", id: "copy", onclick: () => copy(url, field) }, w("copy"))),\n      h("h2", {}, w("iphone")), h("p", {}, w("iphoneSteps")),\n      h("h2", {}, w("android")), h("p", {}, w("androidSteps")),\n      h("p", { class: "card small" }, w("keepPrivate")));\n  },\n\n  manager(main) {\n    const days = state.person.manager.days;\n    const calls = new Map();\n    const waiting = new Map();\n    days.forEach((day, i) => {\n      main.append(h("h2", { class: "day" }, `${i === 0 ? w("today") : i === 1 ? w("tomorrow") : ""} ${fmtDate(day.date)}`.trim()));\n      for (const room of day.classrooms) {\n        const card = h("section", { class: "card", "data-classroom": room.key }, h("h3", {}, room.name));\n        if (!room.shifts.length) card.append(h("p", { class: "muted" }, w("dayOff")));\n        else card.append(h("ul", { class: "plain" }, room.shifts.map((s) => h("li", { class: "row" },\n          h("span", { class: "grow" }, h("span", { class: "time" }, fmtHours(s.start, s.end)), " ", s.teacher),\n          s.acked ? h("span", { class: "badge ok" }, w("ackedMark"))\n            : s.failed ? h("span", { class: "badge failed" }, w("notDelivered", s.failed))\n              : h("span", { class: "badge canceled" }, w("notYet"))))));\n        main.append(card);\n        for (const c of room.covers) calls.set(c.call, { ...c, room: room.name });\n        for (const u of room.unanswered) waiting.set(`${u.request}/${u.teacher}`, { ...u, room: room.name });\n      }\n    });\n    if (calls.size) {\n      main.append(h("h2", {}, w("openCovers")), h("div", { class: "card" }, h("ul", { class: "plain" }, [...calls.values()].map((c) => h("li", { "data-call": c.call },\n        h("div", { class: "time" }, `${fmtDate(c.date)} ${fmtHours(c.start, c.end)}`),\n        h("div", {}, `${c.room} \xB7 ${w("askedBy", c.asked_by)}`),\n        h("div", { class: c.offers ? "badge ok" : "badge canceled" }, w("offers", c.offers)))))));\n    }\n    if (waiting.size) {\n      main.append(h("h2", {}, w("unanswered")), h("div", { class: "card" }, h("ul", { class: "plain" }, [...waiting.values()].map((u) => {\n        const slot = h("span", {});\n        const draw = () => {\n          const done = u.reminded || pending("remind", (a) => a.request === u.request && a.teacher === u.teacher);\n          slot.replaceChildren(done ? h("span", { class: "done" }, w("reminded"))\n            : h("button", { type: "button", onclick: (e) => post({ action: "remind", request: u.request, teacher: u.teacher }, e.currentTarget, () => { draw(); say(w("remindSent")); }) }, w("remind")));\n        };\n        draw();\n        return h("li", { class: "row", "data-teacher": u.teacher },\n          h("span", { class: "grow" }, u.name, h("br", {}), h("span", { class: "muted small" }, `${u.room} \xB7 ${fmtMonth(u.month)}`)), slot);\n      }))));\n    }\n  },\n};\n\nfunction shiftCard(shift, several) {\n  const kind = shift.change && shift.change.kind;\n  const card = h("article", { class: kind === "canceled" ? "card canceled" : "card", "data-shift": shift.id });\n  const was = shift.change && shift.change.was;\n  const badges = [];\n  if (kind === "new") badges.push(h("span", { class: "badge new" }, w("isNew")));\n  if (kind === "moved") badges.push(h("span", { class: "badge moved" }, w("moved", was ? `${fmtDate(was.date)} ${fmtHours(was.start, was.end)}` : "")));\n  if (kind === "canceled") badges.push(h("span", { class: "badge canceled" }, w("canceled")));\n  const slot = h("div", {});\n  card.append(h("div", { class: "row keep" },\n    h("div", { class: "grow" }, h("div", { class: "time" }, fmtHours(shift.start, shift.end)),\n      several ? h("div", { class: "what" }, classroomName(shift.classroom)) : null,\n      shift.note ? h("div", { class: "what small" }, shift.note) : null,\n      badges.length ? h("div", { class: "row" }, badges) : null),\n    slot));\n  const draw = () => {\n    const sent = shift.ack && pending("ack", (a) => a.ack === shift.ack);\n    if (shift.acked || sent) slot.replaceChildren(h("span", { class: "done" }, `\u2713 ${w("acked")}`, sent ? h("span", { class: "muted small" }, `\uFF08${w("sent")}\uFF09`) : null));\n    else if (shift.ack) slot.replaceChildren(h("button", { type: "button", class: "primary", onclick: (e) => post({ action: "ack", ack: shift.ack }, e.currentTarget, () => { draw(); say(w("ackSent")); }) }, w("ack")));\n  };\n  draw();\n  return card;\n}\n\nasync function loadClassroom(key, month, list) {\n  const cacheKey = `${key}/${month}`;\n  let doc = state.classrooms.get(cacheKey);\n  if (!doc) {\n    try {\n      doc = await call(`/liff/api/classroom?key=${encodeURIComponent(key)}&month=${encodeURIComponent(month)}`);\n      state.classrooms.set(cacheKey, doc);\n    } catch (e) {\n      list.removeAttribute("aria-busy");\n      if (e instanceof HttpError && e.status === 404) return list.replaceChildren(h("p", { class: "muted" }, w("notPublished")));\n      if (e instanceof HttpError && e.status === 403 && e.code === "not_member") return list.replaceChildren(h("p", { class: "muted" }, w("notMember")));\n      if (e instanceof HttpError && e.status === 401) return showFailure(e, loadMe);\n      return list.replaceChildren(h("p", {}, e instanceof Offline ? w("offlineBody") : w("failed")),\n        h("button", { type: "button", onclick: () => loadClassroom(key, month, list) }, w("retry")));\n    }\n  }\n  if (!list.isConnected) return; // the person moved on while it loaded\n  list.removeAttribute("aria-busy");\n  list.replaceChildren(...doc.days.map((day) => h("section", { class: "card", "data-date": day.date },\n    h("div", { class: "row" }, h("h2", { class: "grow day" }, fmtDate(day.date)),\n      day.holiday ? h("span", { class: "badge holiday" }, day.holiday) : null,\n      day.closed ? h("span", { class: "badge closed" }, w("closed")) : null),\n    day.shifts.length\n      ? h("ul", { class: "plain" }, day.shifts.map((s) => h("li", { class: s.teacher === state.person.name ? "you" : null },\n        h("span", { class: "time" }, fmtHours(s.start, s.end)), " ", s.teacher, s.teacher === state.person.name ? ` ${w("you")}` : "")))\n      : day.closed ? null : h("p", { class: "muted small" }, w("dayOff")))));\n}\n\n// ---- availability: a month grid, one answer per day, the whole month sent at once ----\n\nfunction availabilityForm(request) {\n  const sent = pending("availability", (a) => a.request === request.request);\n  const answers = new Map();\n  for (const a of (sent ? sent.days : request.answers)) answers.set(a.date, { answer: a.answer, from: a.from || null, to: a.to || null });\n  const closed = new Set(request.closed_days);\n  const room = state.person.classrooms.find((c) => c.key === request.classroom) || {};\n  const late = request.late || todayIn(room.time_zone) > request.deadline;\n  const days = daysOfMonth(request.month);\n  const form = h("section", { class: "card request", "data-request": request.request, "aria-labelledby": `req-${request.request}` });\n  const count = h("p", { class: "small", "aria-live": "polite" });\n  const grid = h("div", { class: "grid" }, w("weekdays").map((d, i) => h("div", { class: `wd${i === 5 ? " sat" : i === 6 ? " sun" : ""}`, "aria-hidden": "true" }, d)));\n  for (let i = 0; i < weekday(days[0]); i++) grid.append(h("div", { "aria-hidden": "true" }));\n  const cells = new Map();\n  const submit = h("button", { type: "button", class: "primary", "data-submit": request.request }, sent ? w("sendAgain") : w("send"));\n\n  const drawCell = (date) => {\n    const cell = cells.get(date);\n    const a = answers.get(date);\n    const kind = closed.has(date) ? "closed" : a ? a.answer : "none";\n    const wd = weekday(date);\n    cell.className = `cell ${kind}${wd === 5 ? " sat" : wd === 6 ? " sun" : ""}`;\n    cell.dataset.answer = kind;\n    const mark = kind === "yes" ? "\u25CB" : kind === "no" ? "\xD7" : "";\n    const hours = kind === "hours" ? h("span", { class: "hours" }, a.from || "", h("br", {}), a.to ? `\u2013${a.to}` : "\u2013")\n      : kind === "closed" ? h("span", { class: "hours", "aria-hidden": "true" }, w("closedMark")) : null;\n    cell.replaceChildren(...[h("span", { class: "num" }, String(Number(date.slice(8)))), mark ? h("span", { class: "mark", "aria-hidden": "true" }, mark) : null, hours].filter(Boolean));\n    const said = kind === "closed" ? w("closedDay") : kind === "hours" ? fmtHours(a.from, a.to) : w(kind);\n    cell.setAttribute("aria-label", `${fmtDate(date)}: ${said}`);\n  };\n  const drawCount = () => {\n    const open = days.filter((d) => !closed.has(d));\n    count.textContent = w("answered", open.filter((d) => answers.has(d)).length, open.length);\n  };\n  const change = (date, value) => {\n    if (value) answers.set(date, value); else answers.delete(date);\n    drawCell(date); drawCount();\n  };\n  const cycle = (date) => {\n    const now = answers.get(date);\n    if (!now || now.answer === "hours") change(date, { answer: "yes", from: null, to: null });\n    else if (now.answer === "yes") change(date, { answer: "no", from: null, to: null });\n    else hoursSheet(date, now, (value) => change(date, value));\n  };\n  for (const date of days) {\n    const cell = h("button", { type: "button", "data-date": date, disabled: closed.has(date), onclick: () => cycle(date) });\n    cells.set(date, cell);\n    grid.append(cell);\n    drawCell(date);\n  }\n  drawCount();\n  submit.addEventListener("click", () => {\n    const chosen = days.filter((d) => answers.has(d) && !closed.has(d)).map((date) => {\n      const a = answers.get(date);\n      return a.answer === "hours" ? { date, answer: "hours", from: a.from, to: a.to } : { date, answer: a.answer };\n    });\n    if (!chosen.length) return say(w("nothingToSend"));\n    post({ action: "availability", request: request.request, days: chosen }, submit, () => {\n      submit.disabled = false;\n      submit.textContent = w("sendAgain");\n      say(w("availabilitySent"));\n    });\n  });\n  form.append(\n    h("h2", { id: `req-${request.request}` }, `${fmtMonth(request.month)} \xB7 ${classroomName(request.classroom)}`),\n    late ? h("p", { class: "warn" }, w("late", fmtDate(request.deadline))) : h("p", {}, w("answerBy", fmtDate(request.deadline))),\n    grid, count, h("div", { class: "actions" }, submit));\n  return form;\n}\n\n// A small sheet for a day\'s hours: either end may be empty ("from 16:00", "until 20:00").\nfunction hoursSheet(date, now, done) {\n  const from = h("input", { id: "hours-from", type: "time", step: 900, value: (now && now.from) || "" });\n  const to = h("input", { id: "hours-to", type: "time", step: 900, value: (now && now.to) || "" });\n  const error = h("p", { class: "error", role: "alert" });\n  const dialog = h("dialog", { class: "sheet", "aria-labelledby": "hours-title" });\n  const close = () => { dialog.close(); dialog.remove(); };\n  const accept = () => {\n    const f = from.value || null;\n    const t = to.value || null;\n    if (f && t && t <= f) { error.textContent = w("badOrder"); return; }\n    close();\n    done(f || t ? { answer: "hours", from: f, to: t } : { answer: "yes", from: null, to: null });\n  };\n  dialog.append(\n    h("h2", { id: "hours-title" }, w("hoursOn", fmtDate(date))),\n    h("div", { class: "times" },\n      h("div", {}, h("label", { for: "hours-from" }, w("from")), from),\n      h("div", {}, h("label", { for: "hours-to" }, w("until")), to)),\n    h("p", { class: "muted small" }, w("hoursHint")), error,\n    h("div", { class: "actions" },\n      h("button", { type: "button", id: "hours-clear", onclick: () => { close(); done(null); } }, w("clear")),\n      h("button", { type: "button", id: "hours-cancel", onclick: close }, w("cancel")),\n      h("button", { type: "button", class: "primary", id: "hours-ok", onclick: accept }, w("ok"))));\n  dialog.addEventListener("cancel", () => dialog.remove());\n  document.body.append(dialog);\n  dialog.showModal();\n  from.focus();\n}\n\nasync function copy(text, field) {\n  try {\n    await navigator.clipboard.writeText(text);\n    say(w("copied"));\n  } catch (e) {\n    field.focus();\n    field.select();\n    say(document.execCommand && document.execCommand("copy") ? w("copied") : w("copyFailed"));\n  }\n}\n\n// Whatever else goes wrong (a document the page cannot read) ends on a screen that offers to start again.\nfunction started(run) {\n  Promise.resolve().then(run).catch(() => {\n    retryStep = () => location.reload();\n    screen(w("failed"), null, true);\n  });\n}\n\nstarted(boot);\n';

// page/app.css
var app_default2 = `/* The teachers' page: dark text on light, thumb-sized targets, no web fonts or images. */
:root {
  --ink: #1a1d21; --muted: #555d66; --line: #d5dae0; --bg: #f4f6f8; --card: #fff;
  --accent: #0b6e4f; --accent-ink: #fff; --warn: #9a3412; --warn-bg: #fff1e6;
  --new: #075985; --new-bg: #e0f2fe; --ok: #166534; --ok-bg: #e7f6ec; --tab: 60px;
  font: 16px/1.5 system-ui, -apple-system, "Hiragino Sans", "Noto Sans JP", "Yu Gothic UI", Meiryo, sans-serif;
  color: var(--ink); background: var(--bg);
  -webkit-text-size-adjust: 100%;
}
* { box-sizing: border-box; }
/* What focus or a link scrolls into view stops above the fixed tab bar, not under it. */
html { scroll-padding-bottom: calc(var(--tab) + 16px + env(safe-area-inset-bottom)); }
body { margin: 0; min-height: 100vh; }
main { padding: 12px 12px calc(var(--tab) + 56px + env(safe-area-inset-bottom)); max-width: 640px; margin: 0 auto; }
main:focus { outline: none; }
h1 { font-size: 1.3rem; margin: 4px 0 12px; }
h2 { font-size: 1.05rem; margin: 20px 0 8px; }
h3 { font-size: 1rem; margin: 0; }
p { margin: 8px 0; }
.loading, .muted { color: var(--muted); }
.small { font-size: .875rem; }

button, .button, select, input {
  font: inherit; min-height: 44px; border-radius: 8px;
}
button, .button {
  border: 1px solid var(--line); background: var(--card); color: var(--ink);
  padding: 8px 16px; cursor: pointer; touch-action: manipulation;
}
button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-ink); font-weight: 600; }
button:disabled { opacity: .55; cursor: default; }
button:focus-visible, select:focus-visible, input:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
select, input { border: 1px solid #8a939c; background: var(--card); color: var(--ink); padding: 8px 10px; }
label { display: block; font-weight: 600; font-size: .9rem; margin: 8px 0 4px; }

.card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 12px; margin: 8px 0; }
.day { margin: 16px 0 4px; font-size: .95rem; color: var(--muted); font-weight: 600; }
.row { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
.row > .grow { flex: 1 1 auto; min-width: 0; }
.row.keep { flex-wrap: nowrap; align-items: flex-start; }
.row.keep > :last-child { flex: none; }
.card > h2:first-child, .card > h3:first-child, .card .day { margin-top: 0; }
.time { font-size: 1.1rem; font-weight: 700; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; border-radius: 6px; padding: 1px 8px; font-size: .8rem; font-weight: 600; }
.badge.new { color: var(--new); background: var(--new-bg); }
.badge.moved, .badge.late, .badge.failed { color: var(--warn); background: var(--warn-bg); }
.badge.canceled { color: var(--muted); background: #eceff2; }
.badge.ok { color: var(--ok); background: var(--ok-bg); }
.badge.closed { color: var(--muted); background: #eceff2; }
.badge.holiday { color: #9f1239; background: #ffe4e6; }
.canceled .time, .canceled .what { text-decoration: line-through; color: var(--muted); }
.done { color: var(--ok); font-weight: 600; min-height: 44px; display: inline-flex; align-items: center; }

.switcher { display: flex; gap: 6px; margin: 4px 0 8px; flex-wrap: wrap; }
.switcher button[aria-pressed="true"] { background: var(--ink); color: #fff; border-color: var(--ink); }

.screen { text-align: center; padding: 48px 12px; }
.screen h1 { font-size: 1.25rem; }

ul.plain { list-style: none; margin: 0; padding: 0; }
ul.plain > li { padding: 6px 0; border-top: 1px solid var(--line); }
ul.plain > li:first-child { border-top: 0; }
.you { font-weight: 700; }

/* The availability month: seven columns, each cell a button at least 44 px square. */
/* On a 360-px phone: 336 px of main, 322 inside the card, 12 of gaps, 44.3 a column. */
.card.request { padding: 12px 6px; }
.card.request > :not(.grid) { margin-left: 6px; margin-right: 6px; }
.grid { display: grid; grid-template-columns: repeat(7, minmax(0, 1fr)); gap: 2px; margin: 8px 0; }
.grid .wd { text-align: center; font-size: .75rem; color: var(--muted); font-weight: 600; }
.grid .wd.sun, .cell.sun .num { color: #b91c1c; }
.grid .wd.sat, .cell.sat .num { color: #1d4ed8; }
.cell { min-height: 52px; padding: 2px; border-radius: 8px; display: flex; flex-direction: column;
  align-items: center; justify-content: flex-start; line-height: 1.15; }
.cell .num { font-size: .8rem; font-weight: 600; }
.cell .mark { font-size: 1.15rem; font-weight: 700; }
.cell .hours { font-size: .68rem; font-weight: 700; font-variant-numeric: tabular-nums; padding-top: 2px; }
.cell.yes { background: var(--ok-bg); border-color: #86c79b; }
.cell.no { background: #f1f2f4; }
.cell.no .mark { color: var(--muted); }
.cell.hours { background: var(--new-bg); border-color: #7cb8dd; }
.cell:disabled { background: transparent; border-style: dashed; opacity: 1; color: var(--muted); }
.cell:disabled .num { color: var(--muted); }
.legend { font-size: .85rem; color: var(--muted); }

dialog.sheet { border: 0; border-radius: 16px 16px 0 0; padding: 16px 16px calc(16px + env(safe-area-inset-bottom));
  width: 100%; max-width: 640px; margin: auto auto 0; color: var(--ink); }
dialog.sheet::backdrop { background: rgba(0, 0, 0, .35); }
.times { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.times input { width: 100%; }
.actions { display: flex; gap: 8px; justify-content: flex-end; flex-wrap: wrap; margin-top: 12px; }
.warn { color: var(--warn); background: var(--warn-bg); border-radius: 8px; padding: 8px 10px; font-weight: 600; }
.error { color: #b91c1c; font-weight: 600; }

.address { width: 100%; font-size: .85rem; }
ol.steps { padding-left: 1.3em; }

.status { position: fixed; left: 12px; right: 12px; bottom: calc(var(--tab) + 10px + env(safe-area-inset-bottom));
  margin: 0 auto; max-width: 616px; background: var(--ink); color: #fff; border-radius: 10px; padding: 10px 14px;
  transition: opacity .2s; }
.status:empty { opacity: 0; pointer-events: none; padding: 0; }

nav.tabs { position: fixed; left: 0; right: 0; bottom: 0; display: flex; background: var(--card);
  border-top: 1px solid var(--line); padding-bottom: env(safe-area-inset-bottom); }
nav.tabs[hidden] { display: none; }
nav.tabs button { flex: 1 1 0; min-width: 0; min-height: var(--tab); border: 0; border-radius: 0; background: none;
  padding: 6px 2px; font-size: clamp(.65rem, 3.1vw, .8rem); word-break: keep-all; font-weight: 600; color: var(--muted); line-height: 1.2;
  display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 2px; }
nav.tabs button { position: relative; }
nav.tabs .count { position: absolute; top: 4px; right: 4px; min-width: 18px; height: 18px; border-radius: 9px; padding: 0 5px; background: #b91c1c; color: #fff;
  font-size: .7rem; line-height: 18px; }
.hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
nav.tabs button[aria-current="page"] { color: var(--accent); box-shadow: inset 0 3px 0 var(--accent); }

@media (prefers-reduced-motion: reduce) {
  * { transition: none !important; animation: none !important; scroll-behavior: auto !important; }
}
`;

// src/statics.ts
var PLACEHOLDER = "{{LIFF_SDK_URL}}";
var STATIC_CACHE = "public, max-age=300";
var HTML = "text/html; charset=utf-8";
var FILES = {
  "/liff/": { type: HTML, text: page_default },
  "/liff/index.html": { type: HTML, text: page_default },
  "/liff/app.js": { type: "text/javascript; charset=utf-8", text: app_default },
  "/liff/app.css": { type: "text/css; charset=utf-8", text: app_default2 }
};
var LINE_SDK_HOSTS = "https://api.line.me https://access.line.me https://liffsdk.line-scdn.net";
function securityHeaders(config) {
  const sdk = new URL(config.liffSdkUrl);
  const lines = sdk.protocol === "https:" && sdk.hostname.endsWith(".line-scdn.net");
  const connect = lines ? `${sdk.origin} ${LINE_SDK_HOSTS}` : sdk.origin;
  return {
    "content-security-policy": `default-src 'none'; script-src 'self' ${sdk.origin}; style-src 'self'; img-src 'self' data:; connect-src 'self' ${connect}; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer"
  };
}
function apiHeaders(config) {
  return { ...securityHeaders(config), "cache-control": "no-store" };
}
function attribute(text) {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
async function serve(request2, url, env, config) {
  const headers = apiHeaders(config);
  if (request2.method !== "GET" && request2.method !== "HEAD") return problem(405, "method_not_allowed", "only GET", { ...headers, allow: "GET, HEAD" });
  if (url.pathname === "/liff/config") {
    const row = await env.DB.prepare("SELECT liff_id FROM page_settings WHERE id = 1").first();
    if (row === null) return problem(404, "not_found", "the app has not handed over the page's LIFF ID", headers);
    return json({ liff_id: row.liff_id }, 200, headers);
  }
  const file = FILES[url.pathname];
  if (file === void 0) return problem(404, "not_found", "no such file", headers);
  const text = file.type === HTML ? file.text.replaceAll(PLACEHOLDER, attribute(config.liffSdkUrl)) : file.text;
  return new Response(request2.method === "HEAD" ? null : text, {
    headers: { ...securityHeaders(config), "content-type": file.type, "cache-control": STATIC_CACHE }
  });
}

// src/liffapi.ts
var MAX_ANSWER_BYTES = 2e4;
var CLASSROOM = /^[A-Za-z0-9_-]{1,50}$/;
var MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
function documentOf(text) {
  const value = JSON.parse(text);
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
}
function jsonText(text, headers) {
  return new Response(text, { headers: { ...headers, "content-type": "application/json; charset=utf-8" } });
}
async function me(request2, env, config, headers) {
  const found = await viewer(request2, env, config, headers, (userId) => [
    env.DB.prepare("SELECT body FROM page_answers WHERE user_id = ? ORDER BY at").bind(userId)
  ]);
  if (found instanceof Response) return found;
  const answers = found.more[0].results.map((r) => r.body);
  return jsonText(`{"person":${found.viewer.person},"answers":[${answers.join(",")}]}`, headers);
}
async function classroom(request2, url, env, config, headers) {
  const key = url.searchParams.get("key") ?? "";
  const month = url.searchParams.get("month") ?? "";
  if (!CLASSROOM.test(key) || !MONTH.test(month)) throw new BadRequest("key must name a classroom and month be YYYY-MM");
  const found = await viewer(request2, env, config, headers, () => [
    env.DB.prepare("SELECT body FROM pages WHERE kind = 'classroom' AND key = ?").bind(`${key}/${month}`)
  ]);
  if (found instanceof Response) return found;
  const classrooms = documentOf(found.viewer.person).classrooms;
  const member = Array.isArray(classrooms) && classrooms.some((c) => c?.key === key);
  if (!member) return problem(403, "not_member", "this classroom is not one of yours", headers);
  const body = found.more[0].results[0]?.body;
  if (body === void 0) return problem(404, "not_found", "this month of the classroom is not published", headers);
  return jsonText(body, headers);
}
async function answer(request2, env, config, headers, now) {
  const tooLarge = () => problem(413, "too_large", `an answer is at most ${MAX_ANSWER_BYTES} bytes`, headers);
  if (Number(request2.headers.get("content-length") ?? "0") > MAX_ANSWER_BYTES) return tooLarge();
  const raw = new Uint8Array(await request2.arrayBuffer());
  if (raw.length > MAX_ANSWER_BYTES) return tooLarge();
  const found = await viewer(request2, env, config, headers);
  if (found instanceof Response) return found;
  let posted;
  try {
    posted = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new BadRequest("the body is not JSON");
  }
  const { page, target: target2 } = accept(posted, documentOf(found.viewer.person));
  const id2 = `page-${hex(crypto.getRandomValues(new Uint8Array(16)))}`;
  const event = { type: "page", webhookEventId: id2, timestamp: now, mode: "active", source: { type: "user", userId: found.viewer.userId }, page };
  const body = JSON.stringify(page);
  const [stored] = await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO events (webhook_event_id, body, received_at) SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM page_answers WHERE user_id = ? AND target = ? AND body = ?)"
    ).bind(id2, JSON.stringify(event), now, found.viewer.userId, target2, body),
    env.DB.prepare(
      "INSERT INTO page_answers (user_id, target, body, event_seq, at) SELECT ?, ?, ?, seq, ? FROM events WHERE webhook_event_id = ? ON CONFLICT (user_id, target) DO UPDATE SET body = excluded.body, event_seq = excluded.event_seq, at = excluded.at"
    ).bind(found.viewer.userId, target2, body, now, id2)
  ]);
  return json({ accepted: true, repeated: stored.meta.changes === 0 }, 202, headers);
}
async function liffApi(request2, url, env, config, now) {
  const headers = apiHeaders(config);
  const { method } = request2;
  const path = url.pathname;
  try {
    if (method === "GET" && path === "/liff/api/me") return await me(request2, env, config, headers);
    if (method === "GET" && path === "/liff/api/classroom") return await classroom(request2, url, env, config, headers);
    if (method === "POST" && path === "/liff/api/answers") return await answer(request2, env, config, headers, now);
  } catch (error) {
    if (error instanceof BadRequest) return problem(400, "bad_request", error.message, headers);
    throw error;
  }
  return problem(404, "not_found", "no such route", headers);
}

// src/outcomes.ts
var PAGE2 = 100;
async function pull2(db, after) {
  const rows = await db.prepare("SELECT * FROM outcomes WHERE seq > ? ORDER BY seq LIMIT ?").bind(after, PAGE2).all();
  const outcomes = rows.results.map((r) => ({
    cursor: r.seq,
    delivery_id: r.delivery_id,
    subject_version: r.subject_version,
    retry_key: r.retry_key,
    at: iso(r.at),
    http_status: r.http_status,
    request_id: r.request_id,
    accepted_request_id: r.accepted_request_id,
    outcome: r.outcome,
    error_code: r.error_code,
    message: r.message,
    next_attempt_at: iso(r.next_attempt_at),
    duration_ms: r.duration_ms
  }));
  return { outcomes, next: rows.results.at(-1)?.seq ?? after };
}
async function ack2(db, upTo) {
  const result = await db.prepare("DELETE FROM outcomes WHERE seq <= ?").bind(upTo).run();
  return { removed: result.meta.changes };
}

// src/pages.ts
var MAX_ENTRIES = 40;
var MAX_BODY_CHARS2 = 2e5;
var KEYS = {
  person: /^[A-Za-z0-9_-]{1,100}$/,
  classroom: /^[A-Za-z0-9_-]{1,50}\/\d{4}-(0[1-9]|1[0-2])$/,
  calendar: /^[0-9a-f]{64}$/
};
var CHANNEL_ID = /^\d{1,20}$/;
var LIFF_ID = /^\d{1,20}-[A-Za-z0-9]{8,40}$/;
function target(value, where) {
  if (typeof value !== "object" || value === null) throw new BadRequest(`${where} must be an object`);
  const { kind, key } = value;
  if (typeof kind !== "string" || !(kind in KEYS)) throw new BadRequest(`${where}: kind must be person, classroom or calendar`);
  if (typeof key !== "string" || !KEYS[kind].test(key)) throw new BadRequest(`${where}: not a ${kind} key: ${String(key).slice(0, 100)}`);
  return { kind, key };
}
function put2(value, i) {
  const where = `put[${i}]`;
  const { kind, key } = target(value, where);
  const { body, purge_after } = value;
  if (typeof body !== "string" || body.length > MAX_BODY_CHARS2) throw new BadRequest(`${where}: body must be text of at most ${MAX_BODY_CHARS2} characters`);
  if (kind === "calendar") {
    if (!body.startsWith("BEGIN:VCALENDAR")) throw new BadRequest(`${where}: a calendar is iCalendar text`);
  } else {
    let parsed;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new BadRequest(`${where}: body is not JSON`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new BadRequest(`${where}: body is not a JSON object`);
  }
  return { kind, key, body, purgeAfter: instant(purge_after, `${where}.purge_after`) };
}
function list(value, name) {
  if (value === void 0) return [];
  if (!Array.isArray(value)) throw new BadRequest(`${name} must be a list`);
  return value;
}
function settingsOf(value) {
  if (value === void 0) return null;
  const { login_channel_id: channel, liff_id: liffId } = typeof value === "object" && value !== null ? value : {};
  if (typeof channel !== "string" || !CHANNEL_ID.test(channel)) throw new BadRequest("settings.login_channel_id must be the LINE Login channel ID (digits)");
  if (typeof liffId !== "string" || !LIFF_ID.test(liffId)) throw new BadRequest("settings.liff_id must be a LIFF ID (<channel ID>-<letters and digits>)");
  return { channel, liffId };
}
async function upload2(db, body, now) {
  const settings2 = settingsOf(body.settings);
  const puts = list(body.put, "put").map(put2);
  const deletes = list(body.delete, "delete").map((d, i) => target(d, `delete[${i}]`));
  if (puts.length + deletes.length > MAX_ENTRIES) throw new BadRequest(`at most ${MAX_ENTRIES} entries in put and delete together`);
  const named = [...puts, ...deletes].map((e) => `${e.kind} ${e.key}`);
  if (new Set(named).size !== named.length) throw new BadRequest("an entry is named twice");
  const through2 = body.events_through;
  if (through2 !== void 0 && (typeof through2 !== "number" || !Number.isSafeInteger(through2) || through2 < 0)) {
    throw new BadRequest("events_through must be a cursor");
  }
  const statements = [];
  if (settings2 !== null) {
    statements.push(db.prepare(
      "INSERT INTO page_settings (id, login_channel_id, liff_id, updated_at) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET login_channel_id = excluded.login_channel_id, liff_id = excluded.liff_id, updated_at = excluded.updated_at"
    ).bind(settings2.channel, settings2.liffId, now));
  }
  const upsert = db.prepare(
    "INSERT INTO pages (kind, key, body, purge_after, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (kind, key) DO UPDATE SET body = excluded.body, purge_after = excluded.purge_after, updated_at = excluded.updated_at"
  );
  statements.push(...puts.map((p) => upsert.bind(p.kind, p.key, p.body, p.purgeAfter, now)));
  const remove = db.prepare("DELETE FROM pages WHERE kind = ? AND key = ?");
  statements.push(...deletes.map((d) => remove.bind(d.kind, d.key)));
  if (typeof through2 === "number") statements.push(db.prepare("DELETE FROM page_answers WHERE event_seq <= ?").bind(through2));
  if (statements.length === 0) return { put: 0, deleted: 0 };
  const results = await db.batch(statements);
  const first = settings2 === null ? 0 : 1;
  const deleted = results.slice(first + puts.length, first + puts.length + deletes.length).reduce((n, r) => n + r.meta.changes, 0);
  return { put: puts.length, deleted };
}
async function removeAll(db) {
  const [pages] = await db.batch([
    db.prepare("DELETE FROM pages"),
    db.prepare("DELETE FROM page_answers"),
    db.prepare("DELETE FROM page_settings")
  ]);
  return { deleted: pages.meta.changes };
}

// src/pairing.ts
var CODE_LENGTHS = /* @__PURE__ */ new Set([9, 6]);
var SEPARATORS = /* @__PURE__ */ new Set([..." -\u3000	\n\u30FC\u2010\u2011\u2012\u2013\u2014\u2015\u2212"]);
var MAX_MESSAGE = 40;
var MISSES_PER_USER = 5;
var MISSES_IN_ALL = 500;
var MISS_WINDOW_MS = 60 * 6e4;
var MAX_CODES_PER_CALL = 40;
function asCode(text) {
  if (text.length > MAX_MESSAGE) return null;
  const folded = text.normalize("NFKC").toUpperCase();
  const compact = [...folded].filter((c) => !SEPARATORS.has(c)).join("");
  if (!CODE_LENGTHS.has(compact.length) || !/^[A-Z0-9]+$/.test(compact)) return null;
  return /[0-9]/.test(compact) && /[A-Z]/.test(compact) ? compact : null;
}
function codeHash(salt, code2) {
  return sha256Hex(salt + code2);
}
async function lockedOut(db, userId, now) {
  const row = await db.prepare("SELECT count(*) AS everyone, sum(line_user_id = ?) AS theirs FROM pairing_misses WHERE at > ?").bind(userId, now - MISS_WINDOW_MS).first();
  return row !== null && (row.everyone >= MISSES_IN_ALL || (row.theirs ?? 0) >= MISSES_PER_USER);
}
async function replyFor(db, userId, code2, now) {
  if (await lockedOut(db, userId, now)) return null;
  const live = await db.prepare("SELECT hash, salt, reply_text FROM pairing_codes WHERE used_at IS NULL AND expires_at > ?").bind(now).all();
  for (const row of live.results) {
    if (sameText(await codeHash(row.salt, code2), row.hash)) {
      const spent = await db.prepare("UPDATE pairing_codes SET used_at = ? WHERE hash = ? AND used_at IS NULL").bind(now, row.hash).run();
      return spent.meta.changes === 1 ? row.reply_text : null;
    }
  }
  await db.prepare("INSERT INTO pairing_misses (line_user_id, at) VALUES (?, ?)").bind(userId, now).run();
  return null;
}
function code(value) {
  const v = value;
  if (typeof v !== "object" || v === null) throw new BadRequest("each code must be an object");
  if (typeof v.salt !== "string" || v.salt.length < 16 || v.salt.length > 128) throw new BadRequest("salt must be 16\u2013128 characters");
  if (typeof v.hash !== "string" || !/^[0-9a-f]{64}$/.test(v.hash)) throw new BadRequest("hash must be 64 lower-case hex digits");
  if (typeof v.reply_text !== "string" || v.reply_text.length === 0 || v.reply_text.length > 5e3) {
    throw new BadRequest("reply_text must be 1\u20135,000 characters (a LINE text message)");
  }
  return { salt: v.salt, hash: v.hash, reply_text: v.reply_text, expires_at: instant(v.expires_at, "expires_at") };
}
async function upload3(db, body) {
  if (!Array.isArray(body.codes) || body.codes.length > MAX_CODES_PER_CALL) {
    throw new BadRequest(`codes must be a list of at most ${MAX_CODES_PER_CALL}`);
  }
  const codes = body.codes.map(code);
  const statements = codes.map(
    (c) => db.prepare(
      "INSERT INTO pairing_codes (hash, salt, reply_text, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO UPDATE SET salt = excluded.salt, reply_text = excluded.reply_text, expires_at = excluded.expires_at"
    ).bind(c.hash, c.salt, c.reply_text, c.expires_at)
  );
  if (body.replace_all === true) {
    const keep = codes.map((c) => c.hash);
    const others = keep.length > 0 ? ` WHERE hash NOT IN (${keep.map(() => "?").join(", ")})` : "";
    statements.unshift(db.prepare(`DELETE FROM pairing_codes${others}`).bind(...keep));
  }
  if (statements.length > 0) await db.batch(statements);
  return { stored: codes.length };
}

// src/retention.ts
var KEEP_MS = 7 * 24 * 60 * 6e4;
async function purge(db, now) {
  const old = now - KEEP_MS;
  await db.batch([
    db.prepare("DELETE FROM events WHERE received_at < ?").bind(old),
    db.prepare("DELETE FROM outcomes WHERE at < ?").bind(old),
    db.prepare("DELETE FROM deliveries WHERE updated_at < ? AND (state <> 'queued' OR not_after < ?)").bind(old, old),
    db.prepare("DELETE FROM images WHERE uploaded_at < ?").bind(old),
    db.prepare("DELETE FROM heartbeats WHERE at < ?").bind(old),
    db.prepare("DELETE FROM nonces WHERE expires_at < ?").bind(now),
    // Two statements, so each uses its index: the cron runs every minute and D1 counts rows read.
    db.prepare("DELETE FROM pairing_codes WHERE used_at <= ?").bind(now),
    db.prepare("DELETE FROM pairing_codes WHERE expires_at <= ?").bind(now),
    db.prepare("DELETE FROM pairing_misses WHERE at <= ?").bind(now - MISS_WINDOW_MS),
    db.prepare("DELETE FROM pages WHERE purge_after < ?").bind(now),
    // No index (the answers wait a minute for the app's next sync, so the table stays small).
    db.prepare("DELETE FROM page_answers WHERE at < ?").bind(old)
  ]);
}

// src/policy.ts
var MONTHLY_LIMIT_MESSAGE = "You have reached your monthly limit.";
var MAX_RETRIES = 5;
var BACKOFF_BASE_MS = 2 * 6e4;
var JITTER = 0.1;
var THROTTLE_DELAY_MS = 5e3;
var HOLD_DELAY_MS = 5 * 6e4;
var RETRY_KEY_LIFETIME_MS = 24 * 60 * 6e4;
var RETRY_KEY_MARGIN_MS = 10 * 6e4;
function classify(answer2) {
  const { status } = answer2;
  if (status === null) return { outcome: "retry", code: answer2.transport === "timeout" ? "TIMEOUT" : "CONNECTION_ERROR", stopRun: false };
  if (status >= 200 && status < 300) return { outcome: "sent", code: null, stopRun: false };
  if (status === 409 && answer2.acceptedRequestId) return { outcome: "sent", code: null, stopRun: false };
  if (status >= 500) return { outcome: "retry", code: "LINE_5XX", stopRun: false };
  if (status === 429) {
    if ((answer2.message ?? "").trim() === MONTHLY_LIMIT_MESSAGE) return { outcome: "failed", code: "QUOTA_EXHAUSTED", stopRun: true };
    return { outcome: "throttled", code: "RATE_LIMITED", stopRun: true };
  }
  if (status === 401) return { outcome: "hold", code: "AUTH_FAILED", stopRun: true };
  const code2 = { 400: "LINE_400", 403: "LINE_403", 404: "LINE_404" }[status] ?? "LINE_4XX";
  return { outcome: "failed", code: code2, stopRun: false };
}
function decide(verdict, attemptsMade, now, random) {
  if (verdict.outcome === "retry") {
    const retriesUsed = attemptsMade - 1;
    if (retriesUsed >= MAX_RETRIES) return { outcome: "dead", code: verdict.code, nextAttemptAt: null };
    return { outcome: "retry", code: verdict.code, nextAttemptAt: now + backoff(retriesUsed + 1, random) };
  }
  if (verdict.outcome === "throttled") return { outcome: "throttled", code: verdict.code, nextAttemptAt: now + THROTTLE_DELAY_MS };
  if (verdict.outcome === "hold") return { outcome: "hold", code: verdict.code, nextAttemptAt: now + HOLD_DELAY_MS };
  return { outcome: verdict.outcome, code: verdict.code, nextAttemptAt: null };
}
function backoff(retry, random) {
  const nominal = BACKOFF_BASE_MS * 2 ** (retry - 1);
  return Math.round(nominal + nominal * JITTER * (2 * random - 1));
}
function retryKeyUsable(issuedAt, now) {
  return now - issuedAt < RETRY_KEY_LIFETIME_MS - RETRY_KEY_MARGIN_MS;
}
function sendable(dueAt, notAfter, now) {
  return dueAt <= now && now < notAfter;
}

// src/token.ts
var TOKEN_PATH = "/oauth2/v3/token";
function refusedAnswer(message, from = null) {
  return {
    status: 401,
    transport: null,
    requestId: from?.requestId ?? null,
    acceptedRequestId: null,
    message,
    durationMs: from?.durationMs ?? 0
  };
}
function usable(expiresAt, now, config) {
  return now < expiresAt - longestRunMs(config);
}
function credentialsOf(env) {
  return sha256Hex(`${env.LINE_CHANNEL_ID}:${env.LINE_CHANNEL_SECRET}`);
}
async function issue(env, config, now) {
  const form = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: env.LINE_CHANNEL_ID ?? "",
    client_secret: env.LINE_CHANNEL_SECRET
  });
  const { answer: answer2, text } = await request(config, TOKEN_PATH, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString()
  });
  let parsed = {};
  try {
    parsed = JSON.parse(text);
  } catch {
  }
  if (answer2.status === 200 && typeof parsed.access_token === "string" && parsed.access_token !== "" && typeof parsed.expires_in === "number" && parsed.expires_in > 0) {
    return { token: parsed.access_token, expiresAt: now + parsed.expires_in * 1e3 };
  }
  if (answer2.status === 400 || answer2.status === 401 || answer2.status === 200) {
    const said = [parsed.error, parsed.error_description].filter((v) => typeof v === "string").join(": ");
    return refusedAnswer(`LINE issued no token (HTTP ${answer2.status}${said ? `: ${said}` : ""})`, answer2);
  }
  return answer2;
}
async function accessToken(env, config, now) {
  if (env.LINE_CHANNEL_ACCESS_TOKEN) return { token: env.LINE_CHANNEL_ACCESS_TOKEN, stateless: false };
  if (!env.LINE_CHANNEL_ID || !env.LINE_CHANNEL_SECRET) {
    return { refused: refusedAnswer("the relay has no channel access token, and no channel ID and secret to issue one") };
  }
  const credentials = await credentialsOf(env);
  const kept = await env.DB.prepare("SELECT token, expires_at FROM line_token WHERE id = 1 AND credentials = ?").bind(credentials).first();
  if (kept !== null && usable(kept.expires_at, now, config)) return { token: kept.token, stateless: true };
  const issued = await issue(env, config, now);
  if (!("token" in issued)) return { refused: issued };
  await env.DB.prepare(
    "INSERT INTO line_token (id, credentials, token, expires_at) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET credentials = excluded.credentials, token = excluded.token, expires_at = excluded.expires_at"
  ).bind(credentials, issued.token, issued.expiresAt).run();
  return { token: issued.token, stateless: true };
}
function dropToken(db, token) {
  return db.prepare("DELETE FROM line_token WHERE id = 1 AND token = ?").bind(token);
}

// src/sending.ts
async function expire(db, now) {
  const [stopped, expired] = await db.batch([
    db.prepare("SELECT id, subject_version, retry_key, attempt_started_at, next_attempt_at FROM deliveries WHERE state = 'queued' AND next_attempt_at <= ? AND attempt_started_at IS NOT NULL").bind(now),
    db.prepare("UPDATE deliveries SET state = 'expired', updated_at = ? WHERE state = 'queued' AND not_after <= ? RETURNING id, subject_version, retry_key").bind(now, now)
  ]);
  const statements = stopped.results.flatMap((r) => [
    db.prepare("INSERT INTO outcomes (delivery_id, subject_version, retry_key, at, outcome, error_code, next_attempt_at) VALUES (?, ?, ?, ?, 'retry', 'RUN_STOPPED', ?)").bind(r.id, r.subject_version, r.retry_key, r.attempt_started_at, r.next_attempt_at),
    // The attempt counts against the retry budget: LINE may have taken it.
    db.prepare("UPDATE deliveries SET attempts = attempts + 1, attempt_started_at = NULL, updated_at = ? WHERE id = ? AND attempt_started_at = ?").bind(now, r.id, r.attempt_started_at)
  ]);
  statements.push(...expired.results.map((r) => db.prepare("INSERT INTO outcomes (delivery_id, subject_version, retry_key, at, outcome, error_code) VALUES (?, ?, ?, ?, 'expired', 'NOT_AFTER_PASSED')").bind(r.id, r.subject_version, r.retry_key, now)));
  if (statements.length > 0) await db.batch(statements);
  return expired.results.length;
}
async function senderAwake(db, config, now) {
  const row = await db.prepare("SELECT max(at) AS at FROM heartbeats").first();
  return row?.at != null && row.at > now - config.senderQuietMs;
}
async function claim(db, config, now) {
  const leaseUntil = now + longestRunMs(config);
  const [rows] = await db.batch([
    db.prepare(
      "UPDATE deliveries SET next_attempt_at = ? WHERE id IN (SELECT id FROM deliveries WHERE state = 'queued' AND next_attempt_at <= ? AND due_at <= ? AND not_after > ? ORDER BY next_attempt_at LIMIT ?) RETURNING id, subject_version, path, body, retry_key, retry_key_issued_at, due_at, not_after, attempts"
    ).bind(leaseUntil, now, now, now, config.maxSendsPerRun),
    // The first of them (in the order they go) is started in the same batch: see handOn().
    db.prepare(
      "UPDATE deliveries SET attempt_started_at = ? WHERE id = (SELECT id FROM deliveries WHERE state = 'queued' AND next_attempt_at = ? ORDER BY due_at, id LIMIT 1)"
    ).bind(now, leaseUntil)
  ]);
  return rows.results.sort((a, b) => a.due_at - b.due_at || a.id.localeCompare(b.id));
}
function handOn(db, d, next, at) {
  return next === void 0 ? db.prepare("UPDATE deliveries SET attempt_started_at = NULL WHERE id = ?").bind(d.id) : db.prepare("UPDATE deliveries SET attempt_started_at = CASE WHEN id = ? THEN ? END WHERE id IN (?, ?)").bind(next.id, at, d.id, next.id);
}
function record(db, d, at, decision, attempts, answer2) {
  const state = { sent: "sent", retry: "queued", throttled: "queued", hold: "queued" }[decision.outcome] ?? "failed";
  return [
    // Guarded: a newer version or a cancel that arrived during the send is not overwritten.
    db.prepare("UPDATE deliveries SET state = ?, attempts = ?, next_attempt_at = ?, updated_at = ? WHERE id = ? AND subject_version = ? AND state = 'queued'").bind(state, attempts, decision.nextAttemptAt, at, d.id, d.subject_version),
    db.prepare(
      "INSERT INTO outcomes (delivery_id, subject_version, retry_key, at, http_status, request_id, accepted_request_id, outcome, error_code, message, next_attempt_at, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    ).bind(
      d.id,
      d.subject_version,
      d.retry_key,
      at,
      answer2?.status ?? null,
      answer2?.requestId ?? null,
      answer2?.acceptedRequestId ?? null,
      decision.outcome,
      decision.code,
      answer2?.message ?? null,
      decision.nextAttemptAt,
      answer2?.durationMs ?? null
    )
  ];
}
function release(db, rows, at) {
  return db.prepare(`UPDATE deliveries SET next_attempt_at = ? WHERE state = 'queued' AND id IN (${rows.map(() => "?").join(", ")})`).bind(at, ...rows.map((r) => r.id));
}
async function send(env, config, clock, random) {
  const now = clock();
  const summary = { expired: await expire(env.DB, now), attempted: 0, sent: 0, senderAwake: false };
  if (await senderAwake(env.DB, config, now)) return { ...summary, senderAwake: true };
  const claimed = await claim(env.DB, config, now);
  let grant = null;
  for (const [i, d] of claimed.entries()) {
    const at = clock();
    const next = claimed[i + 1];
    if (!sendable(d.due_at, d.not_after, at)) {
      await env.DB.batch([release(env.DB, [d], at), handOn(env.DB, d, next, at)]);
      continue;
    }
    if (!retryKeyUsable(d.retry_key_issued_at, at)) {
      await env.DB.batch([
        ...record(env.DB, d, at, { outcome: "failed", code: "RETRY_KEY_EXPIRED", nextAttemptAt: null }, d.attempts, null),
        handOn(env.DB, d, next, at)
      ]);
      continue;
    }
    grant ??= await accessToken(env, config, at);
    const answer2 = "refused" in grant ? grant.refused : await call(config, grant.token, d.path, d.body, { "x-line-retry-key": d.retry_key });
    const verdict = classify(answer2);
    const attempts = verdict.outcome === "throttled" || verdict.outcome === "hold" ? d.attempts : d.attempts + 1;
    const decision = decide(verdict, d.attempts + 1, clock(), random());
    const statements = record(env.DB, d, at, decision, attempts, answer2);
    if ("token" in grant && grant.stateless && answer2.status === 401) statements.push(dropToken(env.DB, grant.token));
    const stopping = verdict.stopRun || "refused" in grant;
    const rest = claimed.slice(i + 1);
    statements.push(handOn(env.DB, d, stopping ? void 0 : next, clock()));
    if (stopping && rest.length > 0) statements.push(release(env.DB, rest, decision.nextAttemptAt ?? clock()));
    await env.DB.batch(statements);
    summary.attempted += 1;
    if (decision.outcome === "sent") summary.sent += 1;
    if (stopping) break;
  }
  return summary;
}

// src/version.ts
var RELAY_VERSION = "0.4.0";

// src/webhook.ts
async function signatureValid(secret, body, header) {
  if (!secret || !header) return false;
  const signature = fromBase64(header.trim());
  if (signature === null || signature.length !== 32) return false;
  return hmacVerify(utf8(secret), signature, body);
}
function pairingAttempt(event) {
  const { source, message, replyToken } = event;
  if (event.type !== "message" || source?.type !== "user" || typeof source.userId !== "string") return null;
  if (message?.type !== "text" || typeof message.text !== "string" || typeof replyToken !== "string") return null;
  if (event.deliveryContext?.isRedelivery === true) return null;
  const code2 = asCode(message.text);
  return code2 === null ? null : { userId: source.userId, code: code2, replyToken };
}
async function answerPairing(env, config, attempt, now) {
  const text = await replyFor(env.DB, attempt.userId, attempt.code, now);
  if (text === null) return;
  const grant = await accessToken(env, config, now);
  const answer2 = "refused" in grant ? grant.refused : await call(
    config,
    grant.token,
    "/v2/bot/message/reply",
    JSON.stringify({ replyToken: attempt.replyToken, messages: [{ type: "text", text }] })
  );
  if ("token" in grant && grant.stateless && answer2.status === 401) await dropToken(env.DB, grant.token).run();
  if (answer2.status !== 200) console.warn(`a pairing reply was refused: ${answer2.status ?? answer2.transport} ${answer2.message ?? ""}`);
}
async function receive(request2, body, env, config, ctx, now) {
  if (!await signatureValid(env.LINE_CHANNEL_SECRET, body, request2.headers.get("x-line-signature"))) {
    return problem(401, "bad_signature", "the x-line-signature header does not sign this body");
  }
  let events;
  try {
    const parsed = JSON.parse(new TextDecoder().decode(body));
    events = Array.isArray(parsed.events) ? parsed.events : [];
  } catch {
    return problem(400, "bad_body", "the body is not JSON");
  }
  const stored = events.filter((e) => typeof e === "object" && e !== null && typeof e.webhookEventId === "string");
  if (stored.length > 0) {
    const insert = env.DB.prepare("INSERT INTO events (webhook_event_id, body, received_at) VALUES (?, ?, ?) ON CONFLICT (webhook_event_id) DO NOTHING");
    const results = await env.DB.batch(stored.map((e) => insert.bind(e.webhookEventId, JSON.stringify(e), now)));
    stored.forEach((event, i) => {
      const attempt = results[i].meta.changes === 1 ? pairingAttempt(event) : null;
      if (attempt !== null) ctx.waitUntil(answerPairing(env, config, attempt, now));
    });
  }
  return json({});
}

// src/app.ts
var MAX_BODY_BYTES = 2e6;
var REFUSALS = {
  missing: "the Authorization header is missing",
  malformed: "the Authorization header is not Shiftcast-HMAC ts=\u2026, nonce=\u2026, sig=\u2026",
  stale: "the timestamp is more than 5 minutes off the relay's clock",
  signature: "the signature does not match",
  replayed: "this nonce was used before"
};
async function schemaVersion(db) {
  try {
    const row = await db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").first();
    return row === null ? null : Number(row.value);
  } catch {
    return null;
  }
}
async function api(request2, url, body, env, now) {
  const { method } = request2;
  const path = url.pathname;
  if (method === "PUT" && path.startsWith("/api/images/")) return put(env.DB, path.slice("/api/images/".length), body, now);
  if (method === "GET" && path === "/api/events") return json(await pull(env.DB, cursor(url)));
  if (method === "POST" && path === "/api/events/ack") return json(await ack(env.DB, through(parseObject(body))));
  if (method === "GET" && path === "/api/outcomes") return json(await pull2(env.DB, cursor(url)));
  if (method === "POST" && path === "/api/outcomes/ack") return json(await ack2(env.DB, through(parseObject(body))));
  if (method === "PUT" && path === "/api/deliveries") return json(await upload(env.DB, parseObject(body), now));
  if (method === "PUT" && path === "/api/pages") return json(await upload2(env.DB, parseObject(body), now));
  if (method === "DELETE" && path === "/api/pages") return json(await removeAll(env.DB));
  if (method === "PUT" && path === "/api/pairing-codes") return json(await upload3(env.DB, parseObject(body)));
  if (method === "POST" && path === "/api/heartbeat") {
    const sender = parseObject(body).sender;
    if (typeof sender !== "string" || sender.length === 0 || sender.length > 100) throw new BadRequest("sender must name the app sender (1\u2013100 characters)");
    await env.DB.prepare("INSERT INTO heartbeats (sender, at) VALUES (?, ?) ON CONFLICT (sender) DO UPDATE SET at = excluded.at").bind(sender, now).run();
    return json({ at: new Date(now).toISOString() });
  }
  return problem(404, "not_found", "no such route");
}
async function route(request2, env, ctx, now) {
  const url = new URL(request2.url);
  const config = settings(env);
  if (url.protocol !== "https:" && !config.allowHttp) return problem(403, "https_only", "the relay answers only over HTTPS");
  if (request2.method === "GET" && url.pathname === "/health") {
    return json({ version: RELAY_VERSION, schema_version: await schemaVersion(env.DB) });
  }
  if ((request2.method === "GET" || request2.method === "HEAD") && url.pathname.startsWith("/i/")) {
    return get(env.DB, url.pathname.slice(3), request2.method === "HEAD");
  }
  if (url.pathname.startsWith("/liff/api/")) return liffApi(request2, url, env, config, now);
  if (url.pathname.startsWith("/liff/")) return serve(request2, url, env, config);
  if (url.pathname === "/liff") return Response.redirect(`${url.origin}/liff/${url.search}`, 308);
  if ((request2.method === "GET" || request2.method === "HEAD") && url.pathname.startsWith("/ics/")) {
    return feed(env.DB, url.pathname, request2.method === "HEAD");
  }
  const declared = Number(request2.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return problem(413, "too_large", "the body is too large");
  const body = new Uint8Array(await request2.arrayBuffer());
  if (body.length > MAX_BODY_BYTES) return problem(413, "too_large", "the body is too large");
  if (request2.method === "POST" && url.pathname === "/line/webhook") return receive(request2, body, env, config, ctx, now);
  if (!url.pathname.startsWith("/api/")) return problem(404, "not_found", "no such route");
  const refused = await refusal(request2, url, body, env, now);
  if (refused === "not_configured") return problem(503, "not_configured", "the relay key is not set");
  if (refused !== null) return problem(401, refused, REFUSALS[refused], { "www-authenticate": "Shiftcast-HMAC" });
  try {
    return await api(request2, url, body, env, now);
  } catch (error) {
    if (error instanceof BadRequest) return problem(400, "bad_request", error.message);
    throw error;
  }
}
async function runCron(env, clock, random = Math.random) {
  const summary = await send(env, settings(env), clock, random);
  await purge(env.DB, clock());
  console.log(`relay run: ${summary.attempted} attempted, ${summary.sent} sent, ${summary.expired} expired${summary.senderAwake ? ", an app sender is awake" : ""}`);
  return summary;
}

// src/index.ts
var index_default = {
  fetch(request2, env, ctx) {
    return route(request2, env, ctx, Date.now());
  },
  async scheduled(controller, env) {
    await runCron(env, () => Math.max(Date.now(), controller.scheduledTime));
  }
};
export {
  index_default as default
};
