// The free plan's figures docs/relay.md states for a cron run, measured on the real D1 of the tests:
// the D1 calls (each a query, or a batch of statements), the statements they carry, the LINE calls, and
// the rows D1 reads (what the free plan counts, with every index entry looked at).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runCron } from "../src/app";
import { delivery, lineLog, MINUTE, T0, upload } from "./helpers";
import { type Meter, metered } from "./meter";

async function measured(at: number, vars: Record<string, string> = {}): Promise<Meter> {
  const meter = metered(env.DB);
  await runCron({ ...env, ...vars, DB: meter.db }, () => at, () => 0.5);
  return meter;
}

describe("a cron run's cost", () => {
  it("idle: 4 D1 calls, 16 statements, 21 rows read, with or without a day's work waiting for later", async () => {
    const empty = await measured(T0 - 2 * MINUTE);
    expect([empty.calls, empty.statements, empty.rowsRead]).toEqual([4, 16, 21]);
    // Deliveries queued for later are not read by an idle run: each query goes through its index.
    await upload(Array.from({ length: 30 }, (_, i) => delivery(`r${i}`, 1, { due_at: new Date(T0 + 60 * MINUTE).toISOString() })));
    const idle = await measured(T0);
    expect([idle.calls, idle.statements, idle.rowsRead]).toEqual([4, 16, 21]);
  });

  it("at the default 10 sends: 10 LINE calls, 14 D1 calls carrying 46 statements", async () => {
    await upload(Array.from({ length: 10 }, (_, i) => delivery(`r${i}`, 1, {
      body: { to: `U${String(i).padStart(32, "0")}`, messages: [{ type: "text", text: `reminder ${i}` }] },
    })));
    const run = await measured(T0);
    expect((await lineLog()).length).toBe(10);
    expect([run.calls, run.statements]).toEqual([14, 46]);
  });

  it("at the ceiling of 20 sends: 20 LINE calls, 24 D1 calls carrying 76 statements", async () => {
    await upload(Array.from({ length: 20 }, (_, i) => delivery(`r${i}`, 1, {
      body: { to: `U${String(i).padStart(32, "0")}`, messages: [{ type: "text", text: `reminder ${i}` }] },
    })));
    const full = await measured(T0, { MAX_SENDS_PER_RUN: "20" });
    expect((await lineLog()).length).toBe(20);
    expect([full.calls, full.statements]).toEqual([24, 76]);
    expect(full.rowsRead).toBeLessThanOrEqual(320); // the lease reads 5 index rows a delivery
    expect(full.rowsWritten).toBeLessThanOrEqual(230); // ≈ 11 a send, the lease and the marks included
  });
});
