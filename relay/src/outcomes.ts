/**
 * Outcomes for the app: GET /api/outcomes?after=CURSOR pulls every attempt and expiry in order, POST
 * /api/outcomes/ack {through: CURSOR} removes those the app has recorded.
 */

import { iso } from "./http";

export const PAGE = 100;

interface Row {
  seq: number;
  delivery_id: string;
  subject_version: number;
  retry_key: string | null;
  at: number;
  http_status: number | null;
  request_id: string | null;
  accepted_request_id: string | null;
  outcome: string;
  error_code: string | null;
  message: string | null;
  next_attempt_at: number | null;
  duration_ms: number | null;
}

/** An outcome as GET /api/outcomes gives it: times in ISO 8601, the row's seq as its cursor. */
export type PulledOutcome = Omit<Row, "seq" | "at" | "next_attempt_at"> & { cursor: number; at: string; next_attempt_at: string | null };

export async function pull(db: D1Database, after: number): Promise<{ outcomes: PulledOutcome[]; next: number }> {
  const rows = await db.prepare("SELECT * FROM outcomes WHERE seq > ? ORDER BY seq LIMIT ?").bind(after, PAGE).all<Row>();
  const outcomes = rows.results.map((r): PulledOutcome => ({
    cursor: r.seq,
    delivery_id: r.delivery_id,
    subject_version: r.subject_version,
    retry_key: r.retry_key,
    at: iso(r.at)!,
    http_status: r.http_status,
    request_id: r.request_id,
    accepted_request_id: r.accepted_request_id,
    outcome: r.outcome,
    error_code: r.error_code,
    message: r.message,
    next_attempt_at: iso(r.next_attempt_at),
    duration_ms: r.duration_ms,
  }));
  return { outcomes, next: rows.results.at(-1)?.seq ?? after };
}

export async function ack(db: D1Database, upTo: number): Promise<{ removed: number }> {
  const result = await db.prepare("DELETE FROM outcomes WHERE seq <= ?").bind(upTo).run();
  return { removed: result.meta.changes };
}
