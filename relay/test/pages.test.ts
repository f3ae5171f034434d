import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runCron } from "../src/app";
import { MAX_BODY_CHARS, MAX_ENTRIES } from "../src/pages";
import { call, DAY, MINUTE, T0 } from "./helpers";
import {
  classroom, entry, handOver, LIFF_ID, LOGIN_CHANNEL, person, putPages, pulledEvents, signedIn, TEACHER_ID,
} from "./page-helpers";

const FEED = "a".repeat(64);

async function rows(table: string): Promise<number> {
  return (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<number>("n")) ?? 0;
}

async function held(kind: string, key: string): Promise<{ body: string; purge_after: number } | null> {
  return env.DB.prepare("SELECT body, purge_after FROM pages WHERE kind = ? AND key = ?").bind(kind, key).first();
}

describe("PUT /api/pages", () => {
  it("keeps the settings and each document whole, replaced by the next put of the same key", async () => {
    const response = await putPages({
      settings: { login_channel_id: LOGIN_CHANNEL, liff_id: LIFF_ID },
      put: [entry("person", TEACHER_ID, person()), entry("classroom", "c3/2026-12", classroom("c3", "2026-12")),
        entry("calendar", FEED, "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")],
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ put: 3, deleted: 0 });
    expect(await env.DB.prepare("SELECT login_channel_id, liff_id FROM page_settings").first()).toEqual({ login_channel_id: LOGIN_CHANNEL, liff_id: LIFF_ID });
    expect((await held("classroom", "c3/2026-12"))?.purge_after).toBe(T0 + 40 * DAY);

    const renamed = person({ name: "佐藤 花" });
    expect(await (await putPages({ put: [entry("person", TEACHER_ID, renamed, "2027-02-07T15:00:00Z")] })).json()).toEqual({ put: 1, deleted: 0 });
    expect(await held("person", TEACHER_ID)).toEqual({ body: JSON.stringify(renamed), purge_after: Date.parse("2027-02-07T15:00:00Z") });
    // Settings left out are left as they are.
    expect(await rows("page_settings")).toBe(1);
  });

  it("deletes the documents named, counting those it held", async () => {
    await handOver();
    const response = await putPages({ delete: [{ kind: "person", key: TEACHER_ID }, { kind: "classroom", key: "c9/2026-12" }] });
    expect(await response.json()).toEqual({ put: 0, deleted: 1 });
    expect(await held("person", TEACHER_ID)).toBeNull();
  });

  it("refuses a bad shape with 400 and changes nothing", async () => {
    const bad: unknown[] = [
      { put: [entry("teacher", TEACHER_ID, person())] },
      { put: [entry("person", "U 1", person())] },
      { put: [entry("classroom", "c3/2026-13", classroom("c3", "2026-13"))] },
      { put: [entry("calendar", "A".repeat(64), "BEGIN:VCALENDAR")] },
      { put: [entry("calendar", FEED, "<html>")] },
      { put: [entry("person", TEACHER_ID, "{not json")] },
      { put: [entry("person", TEACHER_ID, "[1, 2]")] },
      { put: [entry("person", TEACHER_ID, JSON.stringify({ pad: "x".repeat(MAX_BODY_CHARS) }))] },
      { put: [entry("person", TEACHER_ID, person(), "2027-01-07 15:00")] },
      { put: [entry("person", TEACHER_ID, person()), entry("person", TEACHER_ID, person())] },
      { put: Array.from({ length: MAX_ENTRIES }, (_, i) => entry("person", `U${i}`, person())), delete: [{ kind: "person", key: "U99" }] },
      { put: {} },
      { delete: [{ kind: "person" }] },
      { settings: { login_channel_id: 2000000001, liff_id: LIFF_ID } },
      { settings: { login_channel_id: LOGIN_CHANNEL, liff_id: "not-a-liff-id" } },
      { events_through: -1 },
      { events_through: "12" },
    ];
    for (const body of bad) {
      const response = await putPages(body as Record<string, unknown>);
      expect([response.status, JSON.stringify(body).slice(0, 120)]).toEqual([400, JSON.stringify(body).slice(0, 120)]);
      expect(await response.json()).toMatchObject({ error: "bad_request" });
    }
    expect([await rows("pages"), await rows("page_settings")]).toEqual([0, 0]);
  });

  it("takes 40 entries at once", async () => {
    const response = await putPages({ put: Array.from({ length: MAX_ENTRIES }, (_, i) => entry("person", `U${i}`, person())) });
    expect(await response.json()).toEqual({ put: MAX_ENTRIES, deleted: 0 });
  });

  it("is refused as every /api/ call is: unsigned, forged, replayed, stale, oversized", async () => {
    const body = { put: [entry("person", TEACHER_ID, person())] };
    const now = Date.now();
    const status = async (options: Parameters<typeof call>[1]) => (await call("/api/pages", { method: "PUT", body, ...options })).status;
    expect(await status({ unsigned: true })).toBe(401);
    expect(await status({ key: "f".repeat(64) })).toBe(401);
    expect(await status({ now, ts: now - 6 * MINUTE })).toBe(401);
    expect(await status({ now, nonce: "the-pages-nonce-0001" })).toBe(200);
    expect(await status({ now, nonce: "the-pages-nonce-0001" })).toBe(401);
    const forged = await call("/api/pages", { method: "PUT", body, alter: (h) => h.replace(/sig=[0-9a-f]{4}/, "sig=0000") });
    expect((await forged.json()) as object).toMatchObject({ error: "signature" });
    const oversized = { put: [entry("person", TEACHER_ID, JSON.stringify({ pad: "x".repeat(2_000_001) }))] };
    expect((await call("/api/pages", { method: "PUT", body: oversized })).status).toBe(413);
    expect((await call("/api/pages", { method: "DELETE", unsigned: true })).status).toBe(401);
    expect(await rows("pages")).toBe(1); // the one signed call
  });
});

describe("DELETE /api/pages", () => {
  it("removes every document, answer and setting: the page is off", async () => {
    await handOver();
    const teacher = await signedIn();
    expect((await teacher("/liff/api/answers", { body: { action: "cover_offer", call: 9 } })).status).toBe(202);
    const response = await call("/api/pages", { method: "DELETE" });
    expect(await response.json()).toEqual({ deleted: 5 });
    expect([await rows("pages"), await rows("page_answers"), await rows("page_settings")]).toEqual([0, 0, 0]);
    expect((await teacher("/liff/api/me")).status).toBe(401); // no settings: no sign-in
    expect(await pulledEvents()).toHaveLength(1); // an event made before stays the app's to take
  });
});

describe("the cron's purge of the page", () => {
  it("removes a document after its purge_after, an answer not taken in after 7 days", async () => {
    await putPages({
      settings: { login_channel_id: LOGIN_CHANNEL, liff_id: LIFF_ID },
      put: [entry("person", TEACHER_ID, person(), new Date(T0 + 10 * DAY).toISOString()),
        entry("calendar", FEED, "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", new Date(T0 + 5 * DAY).toISOString())],
    }, T0);
    const teacher = await signedIn();
    expect((await teacher("/liff/api/answers", { body: { action: "cover_offer", call: 9 }, now: T0 })).status).toBe(202);
    await runCron(env, () => T0 + 5 * DAY, () => 0.5);
    expect([await rows("pages"), await rows("page_answers")]).toEqual([2, 1]);
    await runCron(env, () => T0 + 5 * DAY + MINUTE, () => 0.5);
    expect([await rows("pages"), await rows("page_answers")]).toEqual([1, 1]); // the calendar's day has passed
    await runCron(env, () => T0 + 7 * DAY + MINUTE, () => 0.5);
    expect([await rows("pages"), await rows("page_answers")]).toEqual([1, 0]);
    await runCron(env, () => T0 + 10 * DAY + MINUTE, () => 0.5);
    expect(await rows("pages")).toBe(0);
    expect(await rows("page_settings")).toBe(1); // kept until the page is turned off
  });
});
