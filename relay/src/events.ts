/**
 * Webhook events for the app: GET /api/events?after=CURSOR pulls them in order, POST /api/events/ack
 * {through: CURSOR} removes those the app has taken.
 */

export const PAGE = 100;

export async function pull(db: D1Database, after: number): Promise<{ events: unknown[]; next: number }> {
  const rows = await db
    .prepare("SELECT seq, webhook_event_id, body, received_at FROM events WHERE seq > ? ORDER BY seq LIMIT ?")
    .bind(after, PAGE)
    .all<{ seq: number; webhook_event_id: string; body: string; received_at: number }>();
  const events = rows.results.map((r) => ({
    cursor: r.seq,
    webhook_event_id: r.webhook_event_id,
    received_at: new Date(r.received_at).toISOString(),
    event: JSON.parse(r.body) as unknown,
  }));
  return { events, next: rows.results.at(-1)?.seq ?? after };
}

export async function ack(db: D1Database, upTo: number): Promise<{ removed: number }> {
  const result = await db.prepare("DELETE FROM events WHERE seq <= ?").bind(upTo).run();
  return { removed: result.meta.changes };
}
