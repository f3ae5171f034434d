/**
 * Pairing codes: a teacher sends the code the manager handed them to the LINE account, and hears back at
 * once even while every PC sleeps. The app uploads each pending code as {salt, hash, reply_text,
 * expires_at} with hash = hex SHA-256(salt + code), the code as the app stores it (upper case, no
 * hyphens); the relay answers a matching message with that reply (LINE's reply API, a free message)
 * and marks the code used. The binding itself is the app's, when it pulls the event; a message that
 * is not a held code gets no reply here.
 *
 * Guessing is held to the app's pace (core/receiving/pairing_limits.py): a LINE user's 5th wrong code
 * within an hour has their codes ignored for an hour, and the 500th from everyone together has all
 * codes ignored for an hour.
 */

import { sameText, sha256Hex } from "./crypto";
import { BadRequest, instant } from "./http";

// As core/receiving/pairing.py reads codes: 9 characters (6 for codes from before), at least one digit
// and one letter, forgiving lower case, full-width characters, spaces and the dashes phones type.
const CODE_LENGTHS = new Set([9, 6]);
const SEPARATORS = new Set([..." -\u3000\t\n\u30fc\u2010\u2011\u2012\u2013\u2014\u2015\u2212"]);
const MAX_MESSAGE = 40;
export const MISSES_PER_USER = 5;
export const MISSES_IN_ALL = 500;
export const MISS_WINDOW_MS = 60 * 60_000;
export const MAX_CODES_PER_CALL = 40;

/** The code a message means, normalised as the app stores codes, or null. */
export function asCode(text: string): string | null {
  if (text.length > MAX_MESSAGE) return null;
  const folded = text.normalize("NFKC").toUpperCase();
  const compact = [...folded].filter((c) => !SEPARATORS.has(c)).join("");
  if (!CODE_LENGTHS.has(compact.length) || !/^[A-Z0-9]+$/.test(compact)) return null;
  return /[0-9]/.test(compact) && /[A-Z]/.test(compact) ? compact : null;
}

export function codeHash(salt: string, code: string): Promise<string> {
  return sha256Hex(salt + code);
}

/** Is this LINE user (or everyone) locked out by recent wrong codes? */
async function lockedOut(db: D1Database, userId: string, now: number): Promise<boolean> {
  const row = await db
    .prepare("SELECT count(*) AS everyone, sum(line_user_id = ?) AS theirs FROM pairing_misses WHERE at > ?")
    .bind(userId, now - MISS_WINDOW_MS)
    .first<{ everyone: number; theirs: number | null }>();
  return row !== null && (row.everyone >= MISSES_IN_ALL || (row.theirs ?? 0) >= MISSES_PER_USER);
}

/** The reply for `code` from `userId`, spending the code, or null (no reply: not a held code, or locked out). */
export async function replyFor(db: D1Database, userId: string, code: string, now: number): Promise<string | null> {
  if (await lockedOut(db, userId, now)) return null;
  const live = await db
    .prepare("SELECT hash, salt, reply_text FROM pairing_codes WHERE used_at IS NULL AND expires_at > ?")
    .bind(now)
    .all<{ hash: string; salt: string; reply_text: string }>();
  for (const row of live.results) {
    if (sameText(await codeHash(row.salt, code), row.hash)) {
      const spent = await db.prepare("UPDATE pairing_codes SET used_at = ? WHERE hash = ? AND used_at IS NULL").bind(now, row.hash).run();
      return spent.meta.changes === 1 ? row.reply_text : null;
    }
  }
  await db.prepare("INSERT INTO pairing_misses (line_user_id, at) VALUES (?, ?)").bind(userId, now).run();
  return null;
}

interface CodeUpload {
  salt: string;
  hash: string;
  reply_text: string;
  expires_at: number;
}

function code(value: unknown): CodeUpload {
  const v = value as Record<string, unknown>;
  if (typeof v !== "object" || v === null) throw new BadRequest("each code must be an object");
  if (typeof v.salt !== "string" || v.salt.length < 16 || v.salt.length > 128) throw new BadRequest("salt must be 16–128 characters");
  if (typeof v.hash !== "string" || !/^[0-9a-f]{64}$/.test(v.hash)) throw new BadRequest("hash must be 64 lower-case hex digits");
  if (typeof v.reply_text !== "string" || v.reply_text.length === 0 || v.reply_text.length > 5000) {
    throw new BadRequest("reply_text must be 1–5,000 characters (a LINE text message)");
  }
  return { salt: v.salt, hash: v.hash, reply_text: v.reply_text, expires_at: instant(v.expires_at, "expires_at") };
}

/** PUT /api/pairing-codes {codes: [...], replace_all?}: store codes (by hash); replace_all drops the others first. */
export async function upload(db: D1Database, body: Record<string, unknown>): Promise<{ stored: number }> {
  if (!Array.isArray(body.codes) || body.codes.length > MAX_CODES_PER_CALL) {
    throw new BadRequest(`codes must be a list of at most ${MAX_CODES_PER_CALL}`);
  }
  const codes = body.codes.map(code);
  const statements = codes.map((c) =>
    db
      .prepare(
        "INSERT INTO pairing_codes (hash, salt, reply_text, expires_at) VALUES (?, ?, ?, ?) " +
          "ON CONFLICT (hash) DO UPDATE SET salt = excluded.salt, reply_text = excluded.reply_text, expires_at = excluded.expires_at",
      )
      .bind(c.hash, c.salt, c.reply_text, c.expires_at),
  );
  if (body.replace_all === true) {
    const keep = codes.map((c) => c.hash);
    const others = keep.length > 0 ? ` WHERE hash NOT IN (${keep.map(() => "?").join(", ")})` : "";
    statements.unshift(db.prepare(`DELETE FROM pairing_codes${others}`).bind(...keep));
  }
  if (statements.length > 0) await db.batch(statements);
  return { stored: codes.length };
}
