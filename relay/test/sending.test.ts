import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runCron } from "../src/app";
import worker from "../src/index";
import { call, clock, delivery, HOUR, lineLog, MINUTE, outcomes, script, T0, upload } from "./helpers";

// Without jitter (random 0.5), retries come exactly 2, 4, 8, 16, 32 minutes later.
const run = (at: number, environment: Cloudflare.Env = env) => runCron(environment, clock(at).now, () => 0.5);

function to(n: number): string {
  return `U${String(n).padStart(32, "0")}`;
}

function reminder(id: string, n: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return delivery(id, 1, { body: { to: to(n), messages: [{ type: "text", text: `reminder ${id}` }] }, ...overrides });
}

async function state(id: string): Promise<{ state: string; attempts: number; next_attempt_at: number | null } | null> {
  return env.DB.prepare("SELECT state, attempts, next_attempt_at FROM deliveries WHERE id = ?").bind(id).first();
}

describe("the cron's sending", () => {
  it("sends a due delivery with its uploaded retry key and the channel token, and records it sent", async () => {
    const d = reminder("r1", 1);
    await upload([d]);
    expect(await run(T0 - MINUTE)).toMatchObject({ attempted: 0 }); // not due yet
    expect(await run(T0)).toMatchObject({ attempted: 1, sent: 1 });
    const log = await lineLog();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ path: "/v2/bot/message/push", retryKey: d.retry_key, authorization: `Bearer ${env.LINE_CHANNEL_ACCESS_TOKEN}` });
    expect(log[0]!.body).toEqual(d.body);
    expect((await state("r1"))?.state).toBe("sent");
    expect(await outcomes()).toEqual([expect.objectContaining({
      delivery_id: "r1", subject_version: 1, retry_key: d.retry_key, at: new Date(T0).toISOString(), http_status: 200,
      request_id: expect.stringMatching(/^req-/), outcome: "sent", error_code: null,
    })]);
    expect(await run(T0 + MINUTE)).toMatchObject({ attempted: 0 });
  });

  it("retries a 500 with backoff and the same retry key, then records it sent", async () => {
    const d = reminder("r1", 1);
    await upload([d]);
    await script(to(1), [{ status: 500 }]);
    expect(await run(T0)).toMatchObject({ attempted: 1, sent: 0 });
    expect(await state("r1")).toMatchObject({ state: "queued", attempts: 1, next_attempt_at: T0 + 2 * MINUTE });
    expect(await run(T0 + MINUTE)).toMatchObject({ attempted: 0 }); // still backing off
    expect(await run(T0 + 2 * MINUTE)).toMatchObject({ attempted: 1, sent: 1 });
    expect((await lineLog()).map((r) => r.retryKey)).toEqual([d.retry_key, d.retry_key]);
    expect((await outcomes()).map((o) => [o.http_status, o.outcome, o.error_code, o.next_attempt_at])).toEqual([
      [500, "retry", "LINE_5XX", new Date(T0 + 2 * MINUTE).toISOString()],
      [200, "sent", null, null],
    ]);
  });

  it("retries a timeout with the same retry key", async () => {
    const d = reminder("r1", 1);
    await upload([d]);
    await script(to(1), [{ status: 200, hangMs: 30_000 }]);
    await run(T0, { ...env, LINE_TIMEOUT_MS: "300" });
    expect((await outcomes()).map((o) => [o.http_status, o.outcome, o.error_code])).toEqual([[null, "retry", "TIMEOUT"]]);
    expect(await run(T0 + 2 * MINUTE)).toMatchObject({ sent: 1 });
    expect((await lineLog()).map((r) => r.retryKey)).toEqual([d.retry_key, d.retry_key]);
  });

  it("gives up after 5 retries (dead)", async () => {
    await upload([reminder("r1", 1, { not_after: new Date(T0 + 3 * HOUR).toISOString() })]);
    await script(to(1), Array.from({ length: 6 }, () => ({ status: 503 })));
    for (const minutes of [0, 2, 6, 14, 30, 62]) expect(await run(T0 + minutes * MINUTE)).toMatchObject({ attempted: 1 });
    expect(await run(T0 + 2 * HOUR)).toMatchObject({ attempted: 0 });
    expect((await outcomes()).map((o) => o.outcome)).toEqual(["retry", "retry", "retry", "retry", "retry", "dead"]);
    expect((await state("r1"))?.state).toBe("failed");
  });

  it("does not retry a 400", async () => {
    await upload([reminder("r1", 1)]);
    await script(to(1), [{ status: 400, message: "The request body has 1 error(s)" }]);
    await run(T0);
    await run(T0 + 10 * MINUTE);
    expect(await lineLog()).toHaveLength(1);
    expect(await outcomes()).toEqual([expect.objectContaining({ http_status: 400, outcome: "failed", error_code: "LINE_400", message: "The request body has 1 error(s)" })]);
  });

  it("fails on the monthly limit without retrying, and stops the run", async () => {
    await upload([reminder("r1", 1), reminder("r2", 2)]);
    await script(to(1), [{ status: 429, message: "You have reached your monthly limit." }]);
    expect(await run(T0)).toMatchObject({ attempted: 1, sent: 0 });
    expect((await state("r1"))?.state).toBe("failed");
    expect((await state("r2"))?.state).toBe("queued");
    expect(await outcomes()).toEqual([expect.objectContaining({ http_status: 429, outcome: "failed", error_code: "QUOTA_EXHAUSTED" })]);
    await run(T0 + MINUTE);
    expect((await lineLog()).map((r) => r.to)).toEqual([to(1), to(2)]); // r1 never again
  });

  it("retries a rate limit at the next run without spending a retry", async () => {
    await upload([reminder("r1", 1)]);
    await script(to(1), [{ status: 429, message: "The API rate limit has been exceeded. Try again later." }]);
    await run(T0);
    expect(await state("r1")).toMatchObject({ state: "queued", attempts: 0 });
    expect(await run(T0 + MINUTE)).toMatchObject({ sent: 1 });
    expect((await outcomes()).map((o) => [o.outcome, o.error_code])).toEqual([["throttled", "RATE_LIMITED"], ["sent", null]]);
  });

  it("counts a 409 for a retry key LINE already accepted as sent", async () => {
    const d = reminder("r1", 1);
    await upload([d]);
    // The app sent it first, with the same key, before its PC went to sleep.
    const first = await fetch("https://line.test/v2/bot/message/push", {
      method: "POST", body: JSON.stringify(d.body),
      headers: { "x-line-retry-key": d.retry_key as string, authorization: `Bearer ${env.LINE_CHANNEL_ACCESS_TOKEN}` },
    });
    expect(first.status).toBe(200);
    expect(await run(T0)).toMatchObject({ attempted: 1, sent: 1 });
    expect(await outcomes()).toEqual([expect.objectContaining({
      http_status: 409, outcome: "sent", accepted_request_id: first.headers.get("x-line-request-id"),
    })]);
    expect((await state("r1"))?.state).toBe("sent");
  });

  it("holds a delivery LINE refused the token for, and stops the run", async () => {
    await upload([reminder("r1", 1), reminder("r2", 2)]);
    await script(to(1), [{ status: 401, message: "Authentication failed" }]);
    await run(T0);
    expect(await state("r1")).toMatchObject({ state: "queued", attempts: 0 });
    expect(await lineLog()).toHaveLength(1);
  });

  it("never sends once the shift has started, and says it expired", async () => {
    await upload([reminder("r1", 1)]);
    await run(T0 + 2 * HOUR); // the PC and the relay missed it until its shift started
    expect(await lineLog()).toHaveLength(0);
    expect(await outcomes()).toEqual([expect.objectContaining({ delivery_id: "r1", outcome: "expired", error_code: "NOT_AFTER_PASSED", http_status: null })]);
    expect((await state("r1"))?.state).toBe("expired");
  });

  it("does not retry past the shift's start", async () => {
    await upload([reminder("r2", 2, { not_after: new Date(T0 + MINUTE).toISOString() })]);
    await script(to(2), [{ status: 500 }]);
    await run(T0);
    await run(T0 + 2 * MINUTE); // the retry's time: the shift started a minute ago
    expect(await lineLog()).toHaveLength(1);
    expect((await outcomes()).map((o) => o.outcome)).toEqual(["retry", "expired"]);
  });

  it("sends nothing while an app sender has checked in within the last 5 minutes", async () => {
    await upload([reminder("r1", 1)]);
    expect((await call("/api/heartbeat", { method: "POST", body: { sender: "pc-1" }, now: T0 - MINUTE })).status).toBe(200);
    expect(await run(T0)).toMatchObject({ attempted: 0, senderAwake: true });
    expect(await run(T0 + 3 * MINUTE)).toMatchObject({ attempted: 0, senderAwake: true });
    expect(await run(T0 + 4 * MINUTE + 1)).toMatchObject({ attempted: 1, sent: 1, senderAwake: false });
  });

  it("sends at most MAX_SENDS_PER_RUN per run, the earliest due first", async () => {
    await upload(Array.from({ length: 15 }, (_, i) => reminder(`r${i}`, i, { due_at: new Date(T0 - (15 - i) * MINUTE).toISOString() })));
    expect(await run(T0)).toMatchObject({ attempted: 10, sent: 10 });
    expect(await run(T0 + MINUTE)).toMatchObject({ attempted: 5, sent: 5 });
    expect((await lineLog()).map((r) => r.to)).toEqual(Array.from({ length: 15 }, (_, i) => to(i)));
  });

  it("does not use a retry key LINE may have forgotten", async () => {
    await upload([reminder("r1", 1, { retry_key_issued_at: new Date(T0 - 24 * HOUR + 5 * MINUTE).toISOString() })]);
    await run(T0);
    expect(await lineLog()).toHaveLength(0);
    expect(await outcomes()).toEqual([expect.objectContaining({ outcome: "failed", error_code: "RETRY_KEY_EXPIRED", http_status: null })]);
  });

  it("records the attempt of a run stopped after LINE took the message, before trying it again", async () => {
    const first = reminder("r1", 1);
    const second = reminder("r2", 2);
    await upload([first, second]);
    // The host stops the run after LINE answered r1 and before the run wrote it down: D1's third batch
    // of the run (after the expiry's and the lease's) never lands.
    let batches = 0;
    const stopping = new Proxy(env.DB, {
      get(target, name) {
        if (name === "batch") {
          return async (statements: D1PreparedStatement[]) => {
            batches += 1;
            if (batches === 3) throw new Error("the run was stopped");
            return target.batch(statements);
          };
        }
        const value: unknown = Reflect.get(target, name);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    await expect(run(T0, { ...env, DB: stopping })).rejects.toThrow("the run was stopped");
    expect((await lineLog()).map((r) => r.to)).toEqual([to(1)]); // LINE took r1; r2 was never tried
    expect(await outcomes()).toEqual([]);
    expect(await run(T0 + MINUTE)).toMatchObject({ attempted: 0 }); // the stopped run's lease holds

    const leaseOver = T0 + 3 * MINUTE; // 10 sends × 10 s + 1 minute
    expect(await run(leaseOver)).toMatchObject({ attempted: 2, sent: 2 });
    const pulled = (await outcomes()).map((o) => [o.delivery_id, o.at, o.outcome, o.error_code, o.http_status]);
    expect(pulled).toEqual([
      ["r1", new Date(T0).toISOString(), "retry", "RUN_STOPPED", null], // the attempt LINE took, at its moment
      ["r1", new Date(leaseOver).toISOString(), "sent", null, 409], // LINE had it: the teacher got it once
      ["r2", new Date(leaseOver).toISOString(), "sent", null, 200],
    ]);
    expect((await lineLog()).filter((r) => r.to === to(1))).toHaveLength(2);
    expect(await state("r1")).toMatchObject({ state: "sent", attempts: 2 });
    expect(await run(leaseOver + 10 * MINUTE)).toMatchObject({ attempted: 0 });
    expect(await outcomes()).toHaveLength(3); // recorded once
  });

  it("runs from the Worker's scheduled handler", async () => {
    const now = Date.now();
    await upload([reminder("r1", 1, { due_at: new Date(now - MINUTE).toISOString(), not_after: new Date(now + HOUR).toISOString() })], now);
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: "* * * * *" }), env);
    expect((await state("r1"))?.state).toBe("sent");
  });
});

describe("outcomes", () => {
  it("are pulled after a cursor and gone once acknowledged", async () => {
    await upload([reminder("r1", 1), reminder("r2", 2), reminder("r3", 3)]);
    await run(T0);
    const all = await outcomes();
    expect(all.map((o) => o.delivery_id).sort()).toEqual(["r1", "r2", "r3"]);
    expect(await outcomes(all[0]!.cursor)).toHaveLength(2);
    const ack = await call("/api/outcomes/ack", { method: "POST", body: { through: all[1]!.cursor } });
    expect(await ack.json()).toEqual({ removed: 2 });
    expect((await outcomes()).map((o) => o.cursor)).toEqual([all[2]!.cursor]);
  });
});
