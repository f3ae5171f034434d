/**
 * The month's image, for LINE to fetch: PUT /api/images/{name} (signed, a PNG or JPEG body) stores it
 * and answers its public path /i/{token}; GET /i/{token} serves it to anyone holding the address.
 *
 * Kept in D1 rather than KV: a month's image is 100–500 KB, under D1's 2 MB value limit, and the free
 * plan's D1 (100,000 rows written a day, 500 MB) is far roomier than its KV (1,000 writes a day, 1 GB),
 * which would also be a second binding to set up. The bytes are stored as base64 text, not as a BLOB:
 * the D1 binding hands a BLOB to JavaScript as an array with one number per byte, which took 16–30 ms
 * for 500 KB where the same image as text took 2–8 ms and decodes natively, and the free plan allows
 * 10 ms of CPU per request. Base64 makes it a third larger, so an image is at most 1.4 MB (1.87 MB as
 * text). An upload of other bytes under a name gets a new random token (128 bits), so an address never
 * shows other content and can be cached for good. The same bytes under the same name keep their token
 * and only count as uploaded again (kept 7 more days): a LINE message that names the address, and the
 * retry that must repeat it byte for byte, stay good when the app puts the image again.
 */

import { fromBase64Native, randomToken, sha256Hex, toBase64Native } from "./crypto";
import { json, problem } from "./http";

// D1 refuses a value over 2,000,000 bytes; as base64 this is 1,866,668 characters.
export const MAX_IMAGE_BYTES = 1_400_000;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;
const TOKEN = /^[A-Za-z0-9_-]{22}$/;

export function contentType(data: Uint8Array): string | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (data.length >= 8 && png.every((b, i) => data[i] === b)) return "image/png";
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "image/jpeg";
  return null;
}

export async function put(db: D1Database, name: string, data: Uint8Array, now: number): Promise<Response> {
  if (!NAME.test(name)) return problem(400, "bad_name", "an image name is 1–100 of A-Z a-z 0-9 . _ -");
  if (data.length > MAX_IMAGE_BYTES) return problem(413, "too_large", `an image is at most ${MAX_IMAGE_BYTES} bytes`);
  const type = contentType(data);
  if (type === null) return problem(415, "not_an_image", "only PNG and JPEG images are kept");
  const digest = await sha256Hex(data);
  // The same bytes again keep their token (only uploaded_at moves); other bytes replace it. The
  // statement decides, so two uploads at once cannot leave an address showing other content.
  const kept = await db
    .prepare(
      "INSERT INTO images (name, token, content_type, data, sha256, uploaded_at) VALUES (?, ?, ?, ?, ?, ?) " +
        "ON CONFLICT (name) DO UPDATE SET " +
        "token = CASE WHEN images.sha256 = excluded.sha256 THEN images.token ELSE excluded.token END, " +
        "content_type = excluded.content_type, data = excluded.data, sha256 = excluded.sha256, " +
        "uploaded_at = excluded.uploaded_at RETURNING token",
    )
    .bind(name, randomToken(16), type, toBase64Native(data), digest, now)
    .first<{ token: string }>();
  if (kept === null) return problem(500, "not_stored", "the image was not stored");
  return json({ name, path: `/i/${kept.token}`, content_type: type, bytes: data.length, sha256: digest });
}

export async function get(db: D1Database, token: string, headOnly = false): Promise<Response> {
  if (!TOKEN.test(token)) return problem(404, "not_found", "no such image");
  const row = await db
    .prepare("SELECT content_type, data, sha256 FROM images WHERE token = ?")
    .bind(token)
    .first<{ content_type: string; data: string; sha256: string }>();
  if (row === null) return problem(404, "not_found", "no such image");
  const data = fromBase64Native(row.data);
  return new Response(headOnly ? null : data, {
    headers: {
      "content-type": row.content_type,
      // The token changes with every upload, so what is at one address never changes.
      "cache-control": "public, max-age=604800, immutable",
      etag: `"${row.sha256}"`,
      "content-length": String(data.length),
      "x-content-type-options": "nosniff",
    },
  });
}
