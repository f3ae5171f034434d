/**
 * The app's key to the relay: every /api/ call is signed with the relay key (256 bits, Worker secret
 * RELAY_KEY as 64 hex digits) in the header
 *
 *     Authorization: Shiftcast-HMAC ts=<unix seconds>, nonce=<16–64 of A-Z a-z 0-9 _ ->, sig=<hex>
 *
 * where sig = HMAC-SHA256(key, "SHIFTCAST-HMAC-SHA256\n" + method + "\n" + path and query + "\n" + ts +
 * "\n" + nonce + "\n" + hex SHA-256 of the body). A timestamp more than 5 minutes off is refused, and so
 * is a nonce seen before: nonces are kept until their timestamp would be refused anyway, so a captured
 * request cannot be replayed. The signature is checked in constant time before the nonce is stored, so
 * unsigned requests write nothing.
 */

import { fromHex, hmacVerify, sha256Hex, utf8 } from "./crypto";
import type { Env } from "./env";

export const SCHEME = "Shiftcast-HMAC";
export const CLOCK_SKEW_MS = 5 * 60_000;
const HEADER = /^Shiftcast-HMAC ts=(\d{1,12}), nonce=([A-Za-z0-9_-]{16,64}), sig=([0-9a-f]{64})$/;

export type Refusal = "missing" | "malformed" | "stale" | "signature" | "replayed" | "not_configured";

export function canonical(method: string, pathAndQuery: string, ts: string, nonce: string, bodyHash: string): string {
  return ["SHIFTCAST-HMAC-SHA256", method.toUpperCase(), pathAndQuery, ts, nonce, bodyHash].join("\n");
}

export function relayKey(env: Env): Uint8Array | null {
  const key = fromHex(env.RELAY_KEY ?? "");
  return key !== null && key.length === 32 ? key : null;
}

/** Null when the request is the app's, else why not. */
export async function refusal(request: Request, url: URL, body: Uint8Array, env: Env, now: number): Promise<Refusal | null> {
  const key = relayKey(env);
  if (key === null) return "not_configured";
  const header = request.headers.get("authorization");
  if (!header) return "missing";
  const parts = HEADER.exec(header.trim());
  if (parts === null) return "malformed";
  const [, ts, nonce, sig] = parts as unknown as [string, string, string, string];
  const sentAt = Number(ts) * 1000;
  if (Math.abs(now - sentAt) > CLOCK_SKEW_MS) return "stale";
  const message = canonical(request.method, url.pathname + url.search, ts, nonce, await sha256Hex(body));
  if (!(await hmacVerify(key, fromHex(sig)!, utf8(message)))) return "signature";
  // Kept until the timestamp falls out of the window: a replay after that is refused as stale.
  const stored = await env.DB.prepare("INSERT INTO nonces (nonce, expires_at) VALUES (?, ?) ON CONFLICT (nonce) DO NOTHING")
    .bind(nonce, sentAt + CLOCK_SKEW_MS)
    .run();
  return stored.meta.changes === 1 ? null : "replayed";
}
