/**
 * What the app hands over for the teachers' page (signed, like every /api/ call):
 *
 *     PUT /api/pages {settings?, put?: [{kind, key, body, purge_after}], delete?: [{kind, key}], events_through?}
 *     DELETE /api/pages
 *
 * A person's document (key: their LINE user ID), a classroom's month (key `<classroom>/<YYYY-MM>`) and a
 * teacher's calendar feed (key: the SHA-256 of its token) are replaced whole. `events_through` removes
 * the page's answers whose events the app has taken in: the documents it now puts show them. DELETE
 * (the manager turned the page off) removes every document, answer and setting. One D1 batch either way.
 */

import { BadRequest, instant } from "./http";

// Free plan: 50 D1 queries per invocation. A put spends the nonce and one batch of at most 43
// statements (the settings, 40 entries, the answers taken in), under 50 even counted one by one.
export const MAX_ENTRIES = 40;
export const MAX_BODY_CHARS = 200_000;
const KEYS: Record<string, RegExp> = {
  person: /^[A-Za-z0-9_-]{1,100}$/,
  classroom: /^[A-Za-z0-9_-]{1,50}\/\d{4}-(0[1-9]|1[0-2])$/,
  calendar: /^[0-9a-f]{64}$/,
};
const CHANNEL_ID = /^\d{1,20}$/;
const LIFF_ID = /^\d{1,20}-[A-Za-z0-9]{8,40}$/;

interface Put {
  kind: string;
  key: string;
  body: string;
  purgeAfter: number;
}

function target(value: unknown, where: string): { kind: string; key: string } {
  if (typeof value !== "object" || value === null) throw new BadRequest(`${where} must be an object`);
  const { kind, key } = value as Record<string, unknown>;
  if (typeof kind !== "string" || !(kind in KEYS)) throw new BadRequest(`${where}: kind must be person, classroom or calendar`);
  if (typeof key !== "string" || !KEYS[kind]!.test(key)) throw new BadRequest(`${where}: not a ${kind} key: ${String(key).slice(0, 100)}`);
  return { kind, key };
}

function put(value: unknown, i: number): Put {
  const where = `put[${i}]`;
  const { kind, key } = target(value, where);
  const { body, purge_after } = value as Record<string, unknown>;
  if (typeof body !== "string" || body.length > MAX_BODY_CHARS) throw new BadRequest(`${where}: body must be text of at most ${MAX_BODY_CHARS} characters`);
  if (kind === "calendar") {
    if (!body.startsWith("BEGIN:VCALENDAR")) throw new BadRequest(`${where}: a calendar is iCalendar text`);
  } else {
    // The page is handed these as they are: one that is not a JSON object would break it.
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new BadRequest(`${where}: body is not JSON`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new BadRequest(`${where}: body is not a JSON object`);
  }
  return { kind, key, body, purgeAfter: instant(purge_after, `${where}.purge_after`) };
}

function list(value: unknown, name: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new BadRequest(`${name} must be a list`);
  return value;
}

function settingsOf(value: unknown): { channel: string; liffId: string } | null {
  if (value === undefined) return null;
  const { login_channel_id: channel, liff_id: liffId } = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof channel !== "string" || !CHANNEL_ID.test(channel)) throw new BadRequest("settings.login_channel_id must be the LINE Login channel ID (digits)");
  if (typeof liffId !== "string" || !LIFF_ID.test(liffId)) throw new BadRequest("settings.liff_id must be a LIFF ID (<channel ID>-<letters and digits>)");
  return { channel, liffId };
}

export async function upload(db: D1Database, body: Record<string, unknown>, now: number): Promise<{ put: number; deleted: number }> {
  const settings = settingsOf(body.settings);
  const puts = list(body.put, "put").map(put);
  const deletes = list(body.delete, "delete").map((d, i) => target(d, `delete[${i}]`));
  if (puts.length + deletes.length > MAX_ENTRIES) throw new BadRequest(`at most ${MAX_ENTRIES} entries in put and delete together`);
  const named = [...puts, ...deletes].map((e) => `${e.kind} ${e.key}`);
  if (new Set(named).size !== named.length) throw new BadRequest("an entry is named twice");
  const through = body.events_through;
  if (through !== undefined && (typeof through !== "number" || !Number.isSafeInteger(through) || through < 0)) {
    throw new BadRequest("events_through must be a cursor");
  }
  const statements: D1PreparedStatement[] = [];
  if (settings !== null) {
    statements.push(db.prepare(
      "INSERT INTO page_settings (id, login_channel_id, liff_id, updated_at) VALUES (1, ?, ?, ?) " +
        "ON CONFLICT (id) DO UPDATE SET login_channel_id = excluded.login_channel_id, liff_id = excluded.liff_id, updated_at = excluded.updated_at",
    ).bind(settings.channel, settings.liffId, now));
  }
  const upsert = db.prepare(
    "INSERT INTO pages (kind, key, body, purge_after, updated_at) VALUES (?, ?, ?, ?, ?) " +
      "ON CONFLICT (kind, key) DO UPDATE SET body = excluded.body, purge_after = excluded.purge_after, updated_at = excluded.updated_at",
  );
  statements.push(...puts.map((p) => upsert.bind(p.kind, p.key, p.body, p.purgeAfter, now)));
  const remove = db.prepare("DELETE FROM pages WHERE kind = ? AND key = ?");
  statements.push(...deletes.map((d) => remove.bind(d.kind, d.key)));
  if (typeof through === "number") statements.push(db.prepare("DELETE FROM page_answers WHERE event_seq <= ?").bind(through));
  if (statements.length === 0) return { put: 0, deleted: 0 };
  const results = await db.batch(statements);
  const first = settings === null ? 0 : 1;
  const deleted = results.slice(first + puts.length, first + puts.length + deletes.length).reduce((n, r) => n + r.meta.changes, 0);
  return { put: puts.length, deleted };
}

/** The manager turned the page off: nothing of it stays. Answers the documents removed. */
export async function removeAll(db: D1Database): Promise<{ deleted: number }> {
  const [pages] = await db.batch([
    db.prepare("DELETE FROM pages"),
    db.prepare("DELETE FROM page_answers"),
    db.prepare("DELETE FROM page_settings"),
  ]);
  return { deleted: pages!.meta.changes };
}
