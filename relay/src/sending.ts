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

/**
 * The sends of runs that stopped mid-way (their lease over, the attempt started and never recorded) become
 * attempts with the outcome unknown to the relay (`retry`, RUN_STOPPED; LINE may have taken the message,
 * and the next attempt's retry key tells), and queued deliveries whose shift has started expire: they
 * will never be sent. One call when there is nothing to record: the stopped sends are looked for in the
 * expiry's batch.
 */
async function expire(db: D1Database, now: number): Promise<number> {
  const [stopped, expired] = await db.batch<{ id: string; subject_version: number; retry_key: string; attempt_started_at: number; next_attempt_at: number }>([
    db.prepare("SELECT id, subject_version, retry_key, attempt_started_at, next_attempt_at FROM deliveries " +
      "WHERE state = 'queued' AND next_attempt_at <= ? AND attempt_started_at IS NOT NULL").bind(now),
    db.prepare("UPDATE deliveries SET state = 'expired', updated_at = ? WHERE state = 'queued' AND not_after <= ? RETURNING id, subject_version, retry_key")
      .bind(now, now),
  ]);
  const statements = stopped!.results.flatMap((r) => [
    db.prepare("INSERT INTO outcomes (delivery_id, subject_version, retry_key, at, outcome, error_code, next_attempt_at) VALUES (?, ?, ?, ?, 'retry', 'RUN_STOPPED', ?)")
      .bind(r.id, r.subject_version, r.retry_key, r.attempt_started_at, r.next_attempt_at),
    // The attempt counts against the retry budget: LINE may have taken it.
    db.prepare("UPDATE deliveries SET attempts = attempts + 1, attempt_started_at = NULL, updated_at = ? WHERE id = ? AND attempt_started_at = ?")
      .bind(now, r.id, r.attempt_started_at),
  ]);
  statements.push(...expired!.results.map((r) =>
    db.prepare("INSERT INTO outcomes (delivery_id, subject_version, retry_key, at, outcome, error_code) VALUES (?, ?, ?, ?, 'expired', 'NOT_AFTER_PASSED')")
      .bind(r.id, r.subject_version, r.retry_key, now)));
  if (statements.length > 0) await db.batch(statements);
  return expired!.results.length;
}

export async function senderAwake(db: D1Database, config: Settings, now: number): Promise<boolean> {
  const row = await db.prepare("SELECT max(at) AS at FROM heartbeats").first<{ at: number | null }>();
  return row?.at != null && row.at > now - config.senderQuietMs;
}

async function claim(db: D1Database, config: Settings, now: number): Promise<Claimed[]> {
  const leaseUntil = now + longestRunMs(config);
  const [rows] = await db.batch<Claimed>([
    db.prepare(
      "UPDATE deliveries SET next_attempt_at = ? WHERE id IN (SELECT id FROM deliveries WHERE state = 'queued' " +
        "AND next_attempt_at <= ? AND due_at <= ? AND not_after > ? ORDER BY next_attempt_at LIMIT ?) " +
        "RETURNING id, subject_version, path, body, retry_key, retry_key_issued_at, due_at, not_after, attempts",
    ).bind(leaseUntil, now, now, now, config.maxSendsPerRun),
    // The first of them (in the order they go) is started in the same batch: see handOn().
    db.prepare(
      "UPDATE deliveries SET attempt_started_at = ? WHERE id = (SELECT id FROM deliveries WHERE state = 'queued' " +
        "AND next_attempt_at = ? ORDER BY due_at, id LIMIT 1)",
    ).bind(now, leaseUntil),
  ]);
  return rows!.results.sort((a, b) => a.due_at - b.due_at || a.id.localeCompare(b.id));
}

/**
 * One statement that ends `d`'s attempt (its start cleared) and starts `next`'s, in the batch that
 * records `d` (no call of its own), so a run stopped by its host while LINE held a request leaves a
 * trace: expire() records that attempt at a later run.
 */
function handOn(db: D1Database, d: Claimed, next: Claimed | undefined, at: number): D1PreparedStatement {
  return next === undefined
    ? db.prepare("UPDATE deliveries SET attempt_started_at = NULL WHERE id = ?").bind(d.id)
    : db.prepare("UPDATE deliveries SET attempt_started_at = CASE WHEN id = ? THEN ? END WHERE id IN (?, ?)")
      .bind(next.id, at, d.id, next.id);
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
function release(db: D1Database, rows: Claimed[], at: number): D1PreparedStatement {
  return db.prepare(`UPDATE deliveries SET next_attempt_at = ? WHERE state = 'queued' AND id IN (${rows.map(() => "?").join(", ")})`)
    .bind(at, ...rows.map((r) => r.id));
}

export async function send(env: Env, config: Settings, clock: () => number, random: () => number): Promise<RunSummary> {
  const now = clock();
  const summary: RunSummary = { expired: await expire(env.DB, now), attempted: 0, sent: 0, senderAwake: false };
  if (await senderAwake(env.DB, config, now)) return { ...summary, senderAwake: true };
  const claimed = await claim(env.DB, config, now);
  let grant: Grant | null = null;
  for (const [i, d] of claimed.entries()) {
    const at = clock();
    const next = claimed[i + 1];
    if (!sendable(d.due_at, d.not_after, at)) {
      await env.DB.batch([release(env.DB, [d], at), handOn(env.DB, d, next, at)]); // the next run expires it
      continue;
    }
    if (!retryKeyUsable(d.retry_key_issued_at, at)) {
      await env.DB.batch([...record(env.DB, d, at, { outcome: "failed", code: "RETRY_KEY_EXPIRED", nextAttemptAt: null }, d.attempts, null),
        handOn(env.DB, d, next, at)]);
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
    // No token this run: the others would fare no better (and LINE is not asked again for one).
    const stopping = verdict.stopRun || "refused" in grant;
    const rest = claimed.slice(i + 1);
    statements.push(handOn(env.DB, d, stopping ? undefined : next, clock()));
    if (stopping && rest.length > 0) statements.push(release(env.DB, rest, decision.nextAttemptAt ?? clock()));
    await env.DB.batch(statements);
    summary.attempted += 1;
    if (decision.outcome === "sent") summary.sent += 1;
    if (stopping) break;
  }
  return summary;
}
