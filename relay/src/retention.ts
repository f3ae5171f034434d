/**
 * What the relay keeps and for how long (docs/relay.md): nothing past 7 days; pulled events and
 * outcomes go at the app's ack, nonces once their timestamp would be refused, spent or expired pairing
 * codes at once, wrong-code counts after the hour they count in; the teachers' page's documents at the
 * purge_after the app gave each, its answers not taken in after 7 days.
 */

import { MISS_WINDOW_MS } from "./pairing";

export const KEEP_MS = 7 * 24 * 60 * 60_000;

export async function purge(db: D1Database, now: number): Promise<void> {
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
    db.prepare("DELETE FROM page_answers WHERE at < ?").bind(old),
  ]);
}
