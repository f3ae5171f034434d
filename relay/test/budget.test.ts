// The free plan's figures docs/relay.md states for a cron run, measured on the real D1 of the tests:
// the D1 calls (each a query, or a batch of statements), the statements they carry, the LINE calls, and
// the rows D1 reads (what the free plan counts, with every index entry looked at).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runCron } from "../src/app";
import { delivery, lineLog, MINUTE, T0, upload } from "./helpers";

interface Meter {
  db: D1Database;
  calls: number;
  statements: number;
  rowsRead: number;
  rowsWritten: number;
}

/** env.DB, counting what goes through it. `first()` is read as `all()`, for its meta: the same query. */
function metered(db: D1Database): Meter {
  const meter: Meter = { db, calls: 0, statements: 0, rowsRead: 0, rowsWritten: 0 };
  const count = (results: D1Result<unknown>[]): void => {
    for (const r of results) {
      meter.rowsRead += r.meta.rows_read ?? 0;
      meter.rowsWritten += r.meta.rows_written ?? 0;
    }
  };
  const statement = (inner: D1PreparedStatement): D1PreparedStatement => new Proxy(inner, {
    get(target, name) {
      if (name === "bind") return (...values: unknown[]) => statement(target.bind(...values));
      if (name === "all" || name === "run") {
        return async () => {
          meter.calls += 1;
          meter.statements += 1;
          const result = await target.all();
          count([result]);
          return result;
        };
      }
      if (name === "first") {
        return async (column?: string) => {
          meter.calls += 1;
          meter.statements += 1;
          const result = await target.all<Record<string, unknown>>();
          count([result]);
          const row = result.results[0] ?? null;
          return column === undefined || row === null ? row : row[column];
        };
      }
      const value: unknown = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  meter.db = new Proxy(db, {
    get(target, name) {
      if (name === "prepare") return (sql: string) => statement(target.prepare(sql));
      if (name === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          meter.calls += 1;
          meter.statements += statements.length;
          const results = await target.batch(statements);
          count(results);
          return results;
        };
      }
      const value: unknown = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return meter;
}

async function measured(at: number, vars: Record<string, string> = {}): Promise<Meter> {
  const meter = metered(env.DB);
  await runCron({ ...env, ...vars, DB: meter.db }, () => at, () => 0.5);
  return meter;
}

describe("a cron run's cost", () => {
  it("idle: 4 D1 calls, 14 statements, 19 rows read, with or without a day's work waiting for later", async () => {
    const empty = await measured(T0 - 2 * MINUTE);
    expect([empty.calls, empty.statements, empty.rowsRead]).toEqual([4, 14, 19]);
    // Deliveries queued for later are not read by an idle run: each query goes through its index.
    await upload(Array.from({ length: 30 }, (_, i) => delivery(`r${i}`, 1, { due_at: new Date(T0 + 60 * MINUTE).toISOString() })));
    const idle = await measured(T0);
    expect([idle.calls, idle.statements, idle.rowsRead]).toEqual([4, 14, 19]);
  });

  it("at the default 10 sends: 10 LINE calls, 14 D1 calls carrying 44 statements", async () => {
    await upload(Array.from({ length: 10 }, (_, i) => delivery(`r${i}`, 1, {
      body: { to: `U${String(i).padStart(32, "0")}`, messages: [{ type: "text", text: `reminder ${i}` }] },
    })));
    const run = await measured(T0);
    expect((await lineLog()).length).toBe(10);
    expect([run.calls, run.statements]).toEqual([14, 44]);
  });

  it("at the ceiling of 20 sends: 20 LINE calls, 24 D1 calls carrying 74 statements", async () => {
    await upload(Array.from({ length: 20 }, (_, i) => delivery(`r${i}`, 1, {
      body: { to: `U${String(i).padStart(32, "0")}`, messages: [{ type: "text", text: `reminder ${i}` }] },
    })));
    const full = await measured(T0, { MAX_SENDS_PER_RUN: "20" });
    expect((await lineLog()).length).toBe(20);
    expect([full.calls, full.statements]).toEqual([24, 74]);
    expect(full.rowsRead).toBeLessThanOrEqual(320); // the lease reads 5 index rows a delivery
    expect(full.rowsWritten).toBeLessThanOrEqual(230); // ≈ 11 a send, the lease and the marks included
  });
});
