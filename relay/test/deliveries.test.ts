import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, delivery, TEACHER, upload } from "./helpers";

async function held(id: string): Promise<{ subject_version: number; state: string; body: string | null } | null> {
  return env.DB.prepare("SELECT subject_version, state, body FROM deliveries WHERE id = ?").bind(id).first();
}

describe("PUT /api/deliveries", () => {
  it("stores a batch, queued", async () => {
    expect(await upload([delivery("r1", 1), delivery("r2", 1)])).toEqual([
      { id: "r1", result: "stored" },
      { id: "r2", result: "stored" },
    ]);
    expect(await held("r1")).toMatchObject({ subject_version: 1, state: "queued" });
  });

  it("replaces a delivery by a newer subject version", async () => {
    await upload([delivery("r1", 1)]);
    expect(await upload([delivery("r1", 2)])).toEqual([{ id: "r1", result: "replaced" }]);
    const row = await held("r1");
    expect(row?.subject_version).toBe(2);
    expect(JSON.parse(row!.body!).messages[0].text).toBe("reminder r1 v2");
  });

  it("ignores an older or the same version: a newer one is never overwritten", async () => {
    await upload([delivery("r1", 3)]);
    expect(await upload([delivery("r1", 2), delivery("r2", 1)])).toEqual([
      { id: "r1", result: "ignored" },
      { id: "r2", result: "stored" },
    ]);
    expect(await upload([delivery("r1", 3, { body: { to: TEACHER, messages: [{ type: "text", text: "again" }] } })])).toEqual([{ id: "r1", result: "ignored" }]);
    expect(JSON.parse((await held("r1"))!.body!).messages[0].text).toBe("reminder r1 v3");
  });

  it("cancels by id, and an older upload does not bring the delivery back", async () => {
    await upload([delivery("r1", 1)]);
    expect(await upload([{ id: "r1", subject_version: 1, cancel: true }])).toEqual([{ id: "r1", result: "canceled" }]);
    expect((await held("r1"))?.state).toBe("canceled");
    expect(await upload([delivery("r1", 1)])).toEqual([{ id: "r1", result: "ignored" }]);
    expect((await held("r1"))?.state).toBe("canceled");
  });

  it("ignores a cancel older than what is held", async () => {
    await upload([delivery("r1", 2)]);
    expect(await upload([{ id: "r1", subject_version: 1, cancel: true }])).toEqual([{ id: "r1", result: "ignored" }]);
    expect((await held("r1"))?.state).toBe("queued");
  });

  it("keeps a cancel that arrives before its delivery", async () => {
    expect(await upload([{ id: "r9", subject_version: 4, cancel: true }])).toEqual([{ id: "r9", result: "canceled" }]);
    expect(await upload([delivery("r9", 4)])).toEqual([{ id: "r9", result: "ignored" }]);
  });

  it("leaves a sent delivery as it is", async () => {
    await upload([delivery("r1", 1)]);
    await env.DB.prepare("UPDATE deliveries SET state = 'sent' WHERE id = 'r1'").run();
    expect(await upload([delivery("r1", 2)])).toEqual([{ id: "r1", result: "already_sent" }]);
    expect(await upload([{ id: "r1", subject_version: 3, cancel: true }])).toEqual([{ id: "r1", result: "already_sent" }]);
    expect(await held("r1")).toMatchObject({ subject_version: 1, state: "sent" });
  });

  it("refuses what it cannot send safely", async () => {
    const bad = async (d: unknown) => (await call("/api/deliveries", { method: "PUT", body: { deliveries: [d] } })).status;
    expect(await bad(delivery("r1", 1, { path: "/v2/bot/message/reply" }))).toBe(400); // takes no retry key
    expect(await bad(delivery("r1", 1, { retry_key: "not-a-uuid" }))).toBe(400);
    expect(await bad(delivery("r1", 1, { due_at: "2026-12-01 09:00" }))).toBe(400); // no zone
    expect(await bad(delivery("r 1", 1))).toBe(400);
    const many = Array.from({ length: 41 }, (_, i) => delivery(`r${i}`, 1));
    expect((await call("/api/deliveries", { method: "PUT", body: { deliveries: many } })).status).toBe(400);
    const twice = [delivery("r1", 1), delivery("r1", 2)];
    expect((await call("/api/deliveries", { method: "PUT", body: { deliveries: twice } })).status).toBe(400);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM deliveries").first("n")).toBe(0);
  });
});
