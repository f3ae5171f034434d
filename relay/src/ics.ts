/**
 * A teacher's calendar feed: GET /ics/<token>.ics, no key, the token (43 characters of base64url, 256
 * bits) being the secret. The relay holds the feed under the SHA-256 of the token only, so what it
 * keeps opens no feed; the app revokes one by making a new token. One D1 query.
 */

import { sha256Hex } from "./crypto";
import { problem } from "./http";

const PATH = /^\/ics\/([A-Za-z0-9_-]{43})\.ics$/;

export async function feed(db: D1Database, path: string, headOnly = false): Promise<Response> {
  const token = PATH.exec(path)?.[1];
  if (token === undefined) return problem(404, "not_found", "no such calendar");
  const row = await db.prepare("SELECT body FROM pages WHERE kind = 'calendar' AND key = ?")
    .bind(await sha256Hex(token))
    .first<{ body: string }>();
  if (row === null) return problem(404, "not_found", "no such calendar");
  return new Response(headOnly ? null : row.body, {
    headers: {
      "content-type": "text/calendar; charset=utf-8",
      "cache-control": "private, max-age=900",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    },
  });
}
