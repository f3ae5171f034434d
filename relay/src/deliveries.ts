/**
 * Deliveries the app hands over: PUT /api/deliveries {deliveries: [...]}, each either
 *
 *     {id, subject_version, path, body, retry_key, retry_key_issued_at?, due_at, not_after}
 *     {id, subject_version, cancel: true}
 *
 * by id: a newer subject version replaces or cancels what is held, an older or equal one changes
 * nothing (an upload repeated after a lost answer is harmless), and a delivery already sent stays sent
 * (a change after that is the app's correction, a delivery of its own). The guards are in the SQL as
 * well, so a send finishing at the same moment cannot be overwritten by a stale answer.
 */

import { BadRequest, instant } from "./http";

// Free plan: 50 D1 queries per invocation. An upload spends the nonce, one read and one write per
// delivery, so a batch stays well under that.
export const MAX_PER_CALL = 40;
export const MAX_BODY_CHARS = 60_000;
// Only these LINE endpoints take X-Line-Retry-Key (on any other it is a 400), and only a retry key makes
// a send by the relay and one by the app count once.
export const PATHS = new Set(["/v2/bot/message/push", "/v2/bot/message/multicast"]);
const ID = /^[A-Za-z0-9:_.-]{1,100}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Upload =
  | { kind: "send"; id: string; version: number; path: string; body: string; retryKey: string; keyIssuedAt: number; dueAt: number; notAfter: number }
  | { kind: "cancel"; id: string; version: number };

export type Result = "stored" | "replaced" | "canceled" | "ignored" | "already_sent";

export function parse(value: unknown, now: number): Upload {
  if (typeof value !== "object" || value === null) throw new BadRequest("each delivery must be an object");
  const v = value as Record<string, unknown>;
  if (typeof v.id !== "string" || !ID.test(v.id)) throw new BadRequest("id must be 1–100 of A-Z a-z 0-9 : _ . -");
  const version = v.subject_version;
  if (typeof version !== "number" || !Number.isSafeInteger(version) || version < 0) throw new BadRequest(`${v.id}: subject_version must be a whole number`);
  if (v.cancel === true) return { kind: "cancel", id: v.id, version };
  if (typeof v.path !== "string" || !PATHS.has(v.path)) throw new BadRequest(`${v.id}: path must be one of ${[...PATHS].join(", ")}`);
  if (typeof v.body !== "object" || v.body === null || Array.isArray(v.body)) throw new BadRequest(`${v.id}: body must be LINE's JSON request body`);
  const body = JSON.stringify(v.body);
  if (body.length > MAX_BODY_CHARS) throw new BadRequest(`${v.id}: body is over ${MAX_BODY_CHARS} characters`);
  if (typeof v.retry_key !== "string" || !UUID.test(v.retry_key)) throw new BadRequest(`${v.id}: retry_key must be a UUID`);
  const keyIssuedAt = v.retry_key_issued_at === undefined ? now : instant(v.retry_key_issued_at, "retry_key_issued_at");
  return {
    kind: "send", id: v.id, version, path: v.path, body, retryKey: v.retry_key.toLowerCase(), keyIssuedAt,
    dueAt: instant(v.due_at, "due_at"), notAfter: instant(v.not_after, "not_after"),
  };
}

/** What an upload does to what is held (pure: the SQL guards repeat it). */
export function outcome(upload: Upload, held: { version: number; state: string } | undefined): Result {
  if (held === undefined) return upload.kind === "send" ? "stored" : "canceled";
  if (held.state === "sent") return "already_sent";
  if (upload.kind === "cancel") return upload.version >= held.version ? "canceled" : "ignored";
  return upload.version > held.version ? "replaced" : "ignored";
}

function statement(db: D1Database, upload: Upload, now: number): D1PreparedStatement {
  if (upload.kind === "cancel") {
    return db
      .prepare(
        "INSERT INTO deliveries (id, subject_version, state, updated_at) VALUES (?, ?, 'canceled', ?) " +
          "ON CONFLICT (id) DO UPDATE SET state = 'canceled', subject_version = excluded.subject_version, updated_at = excluded.updated_at " +
          "WHERE deliveries.subject_version <= excluded.subject_version AND deliveries.state <> 'sent'",
      )
      .bind(upload.id, upload.version, now);
  }
  return db
    .prepare(
      "INSERT INTO deliveries (id, subject_version, state, path, body, retry_key, retry_key_issued_at, due_at, not_after, attempts, next_attempt_at, updated_at) " +
        "VALUES (?, ?, 'queued', ?, ?, ?, ?, ?, ?, 0, ?, ?) " +
        "ON CONFLICT (id) DO UPDATE SET subject_version = excluded.subject_version, state = 'queued', path = excluded.path, body = excluded.body, " +
        "retry_key = excluded.retry_key, retry_key_issued_at = excluded.retry_key_issued_at, due_at = excluded.due_at, not_after = excluded.not_after, " +
        "attempts = 0, next_attempt_at = excluded.next_attempt_at, updated_at = excluded.updated_at " +
        "WHERE deliveries.subject_version < excluded.subject_version AND deliveries.state <> 'sent'",
    )
    .bind(upload.id, upload.version, upload.path, upload.body, upload.retryKey, upload.keyIssuedAt, upload.dueAt, upload.notAfter, upload.dueAt, now);
}

export async function upload(db: D1Database, body: Record<string, unknown>, now: number): Promise<{ results: { id: string; result: Result }[] }> {
  if (!Array.isArray(body.deliveries) || body.deliveries.length === 0 || body.deliveries.length > MAX_PER_CALL) {
    throw new BadRequest(`deliveries must be a list of 1 to ${MAX_PER_CALL}`);
  }
  const uploads = body.deliveries.map((d) => parse(d, now));
  if (new Set(uploads.map((u) => u.id)).size !== uploads.length) throw new BadRequest("an id appears twice");
  const held = await db
    .prepare(`SELECT id, subject_version, state FROM deliveries WHERE id IN (${uploads.map(() => "?").join(", ")})`)
    .bind(...uploads.map((u) => u.id))
    .all<{ id: string; subject_version: number; state: string }>();
  const byId = new Map(held.results.map((r) => [r.id, { version: r.subject_version, state: r.state }]));
  const results = uploads.map((u) => ({ id: u.id, result: outcome(u, byId.get(u.id)) }));
  const changes = uploads.filter((_, i) => results[i]!.result !== "ignored" && results[i]!.result !== "already_sent");
  if (changes.length > 0) await db.batch(changes.map((u) => statement(db, u, now)));
  return { results };
}
