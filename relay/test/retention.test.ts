import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runCron } from "../src/app";
import { call, DAY, delivery, HOUR, lineSignature, MINUTE, T0, upload, webhook } from "./helpers";

async function count(table: string): Promise<number> {
  return (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<number>("n")) ?? 0;
}

describe("the cron's purge", () => {
  it("keeps a week, and removes everything older than 7 days", async () => {
    const body = JSON.stringify({ events: [{ type: "follow", webhookEventId: "01HFOLLOW", source: { type: "user", userId: `U${"c".repeat(32)}` } }] });
    expect((await webhook(body, await lineSignature(body), T0)).status).toBe(200);
    await upload([delivery("r1", 1)], T0 - HOUR);
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
    expect((await call("/api/images/month", { method: "PUT", body: png, now: T0 })).status).toBe(200);
    expect((await call("/api/heartbeat", { method: "POST", body: { sender: "pc-1" }, now: T0 - 30 * MINUTE })).status).toBe(200);
    await runCron(env, () => T0, () => 0.5); // sends r1: an outcome to keep
    const tables = ["events", "deliveries", "outcomes", "images", "heartbeats"];
    expect(await Promise.all(tables.map(count))).toEqual([1, 1, 1, 1, 1]);

    await runCron(env, () => T0 + 6 * DAY, () => 0.5);
    expect(await Promise.all(tables.map(count))).toEqual([1, 1, 1, 1, 1]);
    await runCron(env, () => T0 + 7 * DAY + MINUTE, () => 0.5);
    expect(await Promise.all(tables.map(count))).toEqual([0, 0, 0, 0, 0]);
  });

  it("removes nonces once their timestamp would be refused anyway", async () => {
    expect((await call("/api/events", { now: T0 })).status).toBe(200);
    expect(await count("nonces")).toBe(1);
    await runCron(env, () => T0 + 4 * MINUTE);
    expect(await count("nonces")).toBe(1);
    await runCron(env, () => T0 + 6 * MINUTE);
    expect(await count("nonces")).toBe(0);
  });

  it("removes expired and spent pairing codes, and wrong-code counts after their hour", async () => {
    const code = { salt: "0123456789abcdef", hash: "a".repeat(64), reply_text: "ok", expires_at: new Date(T0 + DAY).toISOString() };
    expect((await call("/api/pairing-codes", { method: "PUT", body: { codes: [code] }, now: T0 })).status).toBe(200);
    await env.DB.prepare("INSERT INTO pairing_misses (line_user_id, at) VALUES ('U1', ?)").bind(T0).run();
    await runCron(env, () => T0 + 30 * MINUTE);
    expect([await count("pairing_codes"), await count("pairing_misses")]).toEqual([1, 1]);
    await runCron(env, () => T0 + DAY);
    expect([await count("pairing_codes"), await count("pairing_misses")]).toEqual([0, 0]);
  });
});
