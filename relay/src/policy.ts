/**
 * What LINE's answer means for a delivery, and when to try again: the app's rules
 * (core/outbox/policy.py) as pure functions, with the clock and randomness passed in.
 *
 * 2xx sent; 409 with x-line-accepted-request-id sent (an earlier attempt with this retry key was
 * accepted); 5xx, timeouts and network errors retried with backoff (2, 4, 8, 16, 32 minutes, ±10 %),
 * at most 5 retries after the first attempt; 429 "monthly limit" failed and the run stops; any other 429
 * throttled (LINE processed nothing: retry at the next run, the budget untouched); 401 held (the token
 * is refused: the delivery stays queued and the run stops); other 4xx failed, not retried.
 */

export const RATE_LIMIT_MESSAGE = "The API rate limit has been exceeded. Try again later.";
export const MONTHLY_LIMIT_MESSAGE = "You have reached your monthly limit.";
export const MAX_RETRIES = 5;
export const BACKOFF_BASE_MS = 2 * 60_000;
export const JITTER = 0.1;
export const THROTTLE_DELAY_MS = 5_000;
export const HOLD_DELAY_MS = 5 * 60_000;
export const RETRY_KEY_LIFETIME_MS = 24 * 60 * 60_000;
// A key this close to its 24 h limit might be forgotten by LINE before the request arrives, and then a
// duplicate would reach the teacher.
export const RETRY_KEY_MARGIN_MS = 10 * 60_000;

export type Outcome = "sent" | "retry" | "failed" | "dead" | "throttled" | "hold" | "expired";

export interface Verdict {
  outcome: Outcome;
  code: string | null;
  stopRun: boolean; // nothing else this run would fare better
}

export interface Answer {
  status: number | null;
  transport: "timeout" | "connection" | null;
  acceptedRequestId: string | null;
  message: string | null;
}

export function classify(answer: Answer): Verdict {
  const { status } = answer;
  if (status === null) return { outcome: "retry", code: answer.transport === "timeout" ? "TIMEOUT" : "CONNECTION_ERROR", stopRun: false };
  if (status >= 200 && status < 300) return { outcome: "sent", code: null, stopRun: false };
  if (status === 409 && answer.acceptedRequestId) return { outcome: "sent", code: null, stopRun: false };
  if (status >= 500) return { outcome: "retry", code: "LINE_5XX", stopRun: false };
  if (status === 429) {
    if ((answer.message ?? "").trim() === MONTHLY_LIMIT_MESSAGE) return { outcome: "failed", code: "QUOTA_EXHAUSTED", stopRun: true };
    return { outcome: "throttled", code: "RATE_LIMITED", stopRun: true };
  }
  if (status === 401) return { outcome: "hold", code: "AUTH_FAILED", stopRun: true };
  const code = ({ 400: "LINE_400", 403: "LINE_403", 404: "LINE_404" } as Record<number, string>)[status] ?? "LINE_4XX";
  return { outcome: "failed", code, stopRun: false };
}

export interface Decision {
  outcome: Outcome;
  code: string | null;
  nextAttemptAt: number | null;
}

/** The verdict plus the retry budget. `attemptsMade` counts this attempt; `random` is in [0, 1). */
export function decide(verdict: Verdict, attemptsMade: number, now: number, random: number): Decision {
  if (verdict.outcome === "retry") {
    const retriesUsed = attemptsMade - 1;
    if (retriesUsed >= MAX_RETRIES) return { outcome: "dead", code: verdict.code, nextAttemptAt: null };
    return { outcome: "retry", code: verdict.code, nextAttemptAt: now + backoff(retriesUsed + 1, random) };
  }
  if (verdict.outcome === "throttled") return { outcome: "throttled", code: verdict.code, nextAttemptAt: now + THROTTLE_DELAY_MS };
  if (verdict.outcome === "hold") return { outcome: "hold", code: verdict.code, nextAttemptAt: now + HOLD_DELAY_MS };
  return { outcome: verdict.outcome, code: verdict.code, nextAttemptAt: null };
}

/** Delay before retry number `retry` (1-based), spread by ±10 % so failures do not retry in lockstep. */
export function backoff(retry: number, random: number): number {
  const nominal = BACKOFF_BASE_MS * 2 ** (retry - 1);
  return Math.round(nominal + nominal * JITTER * (2 * random - 1));
}

/** May a send use a retry key issued at `issuedAt`? Never once LINE may have forgotten it. */
export function retryKeyUsable(issuedAt: number, now: number): boolean {
  return now - issuedAt < RETRY_KEY_LIFETIME_MS - RETRY_KEY_MARGIN_MS;
}

/** Is a queued delivery to be sent in a run at `now`? Due, and its shift not started. */
export function sendable(dueAt: number, notAfter: number, now: number): boolean {
  return dueAt <= now && now < notAfter;
}
