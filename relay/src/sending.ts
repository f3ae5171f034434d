/**
 * The cron's sending (every minute): deliveries that are due, not sent, not canceled and whose shift has
 * not started go to LINE with X-Line-Retry-Key set to the delivery's uploaded key, so a message the app
 * sent as well is accepted once (LINE answers the second with 409) — but only when no app sender has
 * checked in for SENDER_QUIET_MINUTES. Every attempt, and every delivery whose shift started before it
 * could go (expired), is recorded as an outcome for the app to pull.
 *
 * One run sends at most MAX_SENDS_PER_RUN (default 10, never above 20), one after another: the free
 * plan allows 50 subrequests and 50 D1 queries per invocation and 10 ms of CPU, and a send costs one
 * fetch, one D1 batch and next to no CPU (the request body is stored ready to send). The rows a run
 * takes are leased first (their next attempt moved past the run's longest possible end), so a run that
 * overlaps the next minute's never sends the same delivery twice.
 */

import { type Env, longestRunMs, type Settings } from "./env";
import { call, type LineAnswer } from "./line";
import { classify, decide, retryKeyUsable, sendable, type Decision } from "./policy";
import { accessToken, dropToken, type Grant } from "./token";

export interface RunSummary {
  expired: number;
  attempted: number;
  sent: number;
  senderAwake: boolean;
}

interface Claimed {
  id: string;
  subject_version: number;
  path: string;
  body: string;
  retry_key: string;
  retry_key_issued_at: number;
  due_at: number;
  not_after: number;
  attempts: number;
}

/** Queued deliveries whose shift has started: they will never be sent. */
async function expire(db: D1Database, now: number): Promise<number> {
  const rows = await db
    .prepare("UPDATE deliveries SET state = 'expired', updated_at = ? WHERE state = 'queued' AND not_after <= ? RETURNING id, subject_version, retry_key")
    .bind(now, now)
    .all<{ id: string; subject_version: number; retry_key: string }>();
  if (rows.results.length > 0) {
    await db.batch(rows.results.map((r) =>
      db.prepare("INSERT INTO outcomes (delivery_id, subject_version, retry_key, at, outcome, error_code) VALUES (?, ?, ?, ?, 'expired', 'NOT_AFTER_PASSED')")
        .bind(r.id, r.subject_version, r.retry_key, now)));
  }
  return rows.results.length;
}

export async function senderAwake(db: D1Database, config: Settings, now: number): Promise<boolean> {
  const row = await db.prepare("SELECT max(at) AS at FROM heartbeats").first<{ at: number | null }>();
  return row?.at != null && row.at > now - config.senderQuietMs;
}

async function claim(db: D1Database, config: Settings, now: number): Promise<Claimed[]> {
  const leaseUntil = now + longestRunMs(config);
  const rows = await db
    .prepare(
      "UPDATE deliveries SET next_attempt_at = ? WHERE id IN (SELECT id FROM deliveries WHERE state = 'queued' " +
        "AND next_attempt_at <= ? AND due_at <= ? AND not_after > ? ORDER BY next_attempt_at LIMIT ?) " +
        "RETURNING id, subject_version, path, body, retry_key, retry_key_issued_at, due_at, not_after, attempts",
    )
    .bind(leaseUntil, now, now, now, config.maxSendsPerRun)
    .all<Claimed>();
  return rows.results.sort((a, b) => a.due_at - b.due_at || a.id.localeCompare(b.id));
}

function record(db: D1Database, d: Claimed, at: number, decision: Decision, attempts: number, answer: {
  status: number | null; requestId: string | null; acceptedRequestId: string | null; message: string | null; durationMs: number;
} | null): D1PreparedStatement[] {
  const state = { sent: "sent", retry: "queued", throttled: "queued", hold: "queued" }[decision.outcome as string] ?? "failed";
  return [
    // Guarded: a newer version or a cancel that arrived during the send is not overwritten.
    db.prepare("UPDATE deliveries SET state = ?, attempts = ?, next_attempt_at = ?, updated_at = ? WHERE id = ? AND subject_version = ? AND state = 'queued'")
      .bind(state, attempts, decision.nextAttemptAt, at, d.id, d.subject_version),
    db.prepare(
      "INSERT INTO outcomes (delivery_id, subject_version, retry_key, at, http_status, request_id, accepted_request_id, outcome, error_code, message, next_attempt_at, duration_ms) " +
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ).bind(d.id, d.subject_version, d.retry_key, at, answer?.status ?? null, answer?.requestId ?? null, answer?.acceptedRequestId ?? null,
      decision.outcome, decision.code, answer?.message ?? null, decision.nextAttemptAt, answer?.durationMs ?? null),
  ];
}

/** Hand the rows a stopped run did not reach back to the next run. */
async function release(db: D1Database, rows: Claimed[], at: number): Promise<void> {
  if (rows.length === 0) return;
  await db.prepare(`UPDATE deliveries SET next_attempt_at = ? WHERE state = 'queued' AND id IN (${rows.map(() => "?").join(", ")})`)
    .bind(at, ...rows.map((r) => r.id)).run();
}

export async function send(env: Env, config: Settings, clock: () => number, random: () => number): Promise<RunSummary> {
  const now = clock();
  const summary: RunSummary = { expired: await expire(env.DB, now), attempted: 0, sent: 0, senderAwake: false };
  if (await senderAwake(env.DB, config, now)) return { ...summary, senderAwake: true };
  const claimed = await claim(env.DB, config, now);
  let grant: Grant | null = null;
  for (const [i, d] of claimed.entries()) {
    const at = clock();
    if (!sendable(d.due_at, d.not_after, at)) {
      await release(env.DB, [d], at); // the next run expires it
      continue;
    }
    if (!retryKeyUsable(d.retry_key_issued_at, at)) {
      await env.DB.batch(record(env.DB, d, at, { outcome: "failed", code: "RETRY_KEY_EXPIRED", nextAttemptAt: null }, d.attempts, null));
      continue;
    }
    // The token is fetched once a run, at its first send: a run with nothing to send asks for none.
    grant ??= await accessToken(env, config, at);
    const answer: LineAnswer = "refused" in grant
      ? grant.refused
      : await call(config, grant.token, d.path, d.body, { "x-line-retry-key": d.retry_key });
    const verdict = classify(answer);
    // A throttled or held attempt reached no one: it does not spend the retry budget.
    const attempts = verdict.outcome === "throttled" || verdict.outcome === "hold" ? d.attempts : d.attempts + 1;
    const decision = decide(verdict, d.attempts + 1, clock(), random());
    const statements = record(env.DB, d, at, decision, attempts, answer);
    // A stateless token LINE refused is dropped with the outcome (no query of its own): the next run issues another.
    if ("token" in grant && grant.stateless && answer.status === 401) statements.push(dropToken(env.DB, grant.token));
    await env.DB.batch(statements);
    summary.attempted += 1;
    if (decision.outcome === "sent") summary.sent += 1;
    // No token this run: the others would fare no better (and LINE is not asked again for one).
    if (verdict.stopRun || "refused" in grant) {
      await release(env.DB, claimed.slice(i + 1), decision.nextAttemptAt ?? clock());
      break;
    }
  }
  return summary;
}
