import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_ANSWER_BYTES } from "../src/liffapi";
import { BASE, handle, lineLog } from "./helpers";
import {
  ACK, handOver, idToken, liff, LOGIN_CHANNEL, MANAGER_ID, OTHER_ID, pulledEvents, putPages, signedIn, TEACHER_ID,
} from "./page-helpers";

async function refused(response: Response): Promise<{ error: string; message: string }> {
  expect(response.headers.get("www-authenticate")).toBe("Bearer");
  expect(response.headers.get("cache-control")).toBe("no-store");
  return response.json();
}

async function me(token: string): Promise<{ person: { name: string }; answers: unknown[] }> {
  const response = await liff("/liff/api/me", { token });
  expect(response.status).toBe(200);
  return response.json();
}

async function answerCount(): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM page_answers").first<number>("n")) ?? 0;
}

describe("the page's sign-in", () => {
  it("answers a teacher's own document when LINE verified the token for the page's channel", async () => {
    await handOver();
    expect((await me(await idToken(TEACHER_ID))).person.name).toBe("佐藤 花子");
    const checks = (await lineLog()).filter((r) => r.path === "/oauth2/v2.1/verify");
    expect(checks).toHaveLength(1);
    expect(checks[0]!.body).toMatchObject({ client_id: LOGIN_CHANNEL, id_token: expect.any(String) });
  });

  it("refuses a call without a token, or with a header that is not Bearer", async () => {
    await handOver();
    const token = await idToken(TEACHER_ID);
    for (const response of [await liff("/liff/api/me"), await liff("/liff/api/me", { token: `${token} extra` }),
      await handleWith("Basic dXNlcjpwYXNz"), await handleWith(token)]) {
      expect(response.status).toBe(401);
      expect(await refused(response)).toMatchObject({ error: "unauthorized" });
    }
    expect(await lineLog()).toEqual([]); // LINE is not asked about a header that carries no token
  });

  it("refuses a forged, an expired and another channel's token as LINE refuses them", async () => {
    await handOver();
    const token = await idToken(TEACHER_ID);
    const [head, , sig] = token.split(".");
    const claims = btoa(JSON.stringify({ sub: OTHER_ID, aud: LOGIN_CHANNEL, exp: 9_999_999_999 })).replace(/=+$/, "");
    const cases: [string, string][] = [
      [`${head}.${claims}.${sig}`, "Invalid IdToken."],
      [await idToken(TEACHER_ID, { expiresIn: -60 }), "IdToken expired."],
      [await idToken(TEACHER_ID, { channel: "2000000999" }), "Invalid IdToken Audience."],
    ];
    for (const [bad, said] of cases) {
      const response = await liff("/liff/api/me", { token: bad });
      expect(response.status).toBe(401);
      const body = await refused(response);
      expect(body.error).toBe("unauthorized");
      expect(body.message).toContain(said);
    }
  });

  it("refuses every token while the app has handed over no settings", async () => {
    const response = await liff("/liff/api/me", { token: await idToken(TEACHER_ID) });
    expect(response.status).toBe(401);
    expect(await refused(response)).toMatchObject({ error: "unauthorized" });
  });

  it("answers 403 not_paired to a LINE user the app handed over no document for", async () => {
    await handOver();
    const response = await liff("/liff/api/me", { token: await idToken(`U${"9".repeat(32)}`) });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: "not_paired" });
  });
});

async function handleWith(authorization: string): Promise<Response> {
  return handle(new Request(`${BASE}/liff/api/me`, { headers: { authorization } }));
}

describe("GET /liff/api/me and /liff/api/classroom", () => {
  it("never show a teacher another's document or answers", async () => {
    await handOver();
    const teacher = await signedIn(TEACHER_ID);
    const other = await signedIn(OTHER_ID);
    expect((await (await other("/liff/api/answers", { body: { action: "cover_offer", call: 9 } })).json())).toEqual({ accepted: true, repeated: false });
    const mine = (await (await teacher("/liff/api/me")).json()) as { person: { name: string }; answers: unknown[] };
    expect(mine).toMatchObject({ person: { name: "佐藤 花子" }, answers: [] });
    const theirs = (await (await other("/liff/api/me")).json()) as { person: { name: string }; answers: unknown[] };
    expect(theirs).toEqual({ person: expect.objectContaining({ name: "高橋 三郎" }), answers: [{ action: "cover_offer", call: 9 }] });
  });

  it("answer the month of a classroom of the teacher's, 403 for another's, 404 for a month not handed over", async () => {
    await handOver();
    const teacher = await signedIn();
    const own = await teacher("/liff/api/classroom?key=c3&month=2026-12");
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await own.json()).toMatchObject({ v: 1, classroom: "c3", month: "2026-12" });
    const another = await teacher("/liff/api/classroom?key=c4&month=2026-12");
    expect(another.status).toBe(403);
    expect(await another.json()).toMatchObject({ error: "not_member" });
    const missing = await teacher("/liff/api/classroom?key=c3&month=2027-01");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: "not_found" });
    expect((await teacher("/liff/api/classroom?key=c3&month=2026-13")).status).toBe(400);
    expect((await teacher("/liff/api/classroom?key=../c3&month=2026-12")).status).toBe(400);
  });

  it("refuse a classroom's month without a token", async () => {
    await handOver();
    expect((await liff("/liff/api/classroom?key=c3&month=2026-12")).status).toBe(401);
  });
});

describe("POST /liff/api/answers", () => {
  it("turns an answer into a page event for the app, and shows it on the page until the app took it in", async () => {
    await handOver();
    const teacher = await signedIn();
    const now = Date.parse("2026-12-06T09:00:00Z");
    const posted = { action: "availability", request: 5, days: [
      { date: "2027-01-04", answer: "yes" }, { date: "2027-01-05", answer: "no", from: null },
      { date: "2027-01-06", answer: "hours", from: "16:00" }, { date: "2027-01-07", answer: "hours", from: "16:00", to: "20:00" }] };
    const response = await teacher("/liff/api/answers", { body: { ...posted, extra: "dropped" }, now });
    expect(response.status).toBe(202);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ accepted: true, repeated: false });
    const page = { action: "availability", request: 5, days: [
      { date: "2027-01-04", answer: "yes" }, { date: "2027-01-05", answer: "no" },
      { date: "2027-01-06", answer: "hours", from: "16:00", to: null }, { date: "2027-01-07", answer: "hours", from: "16:00", to: "20:00" }] };
    const [pulled] = await pulledEvents();
    expect(pulled!.webhook_event_id).toMatch(/^page-[0-9a-f]{32}$/);
    expect(pulled!.event).toEqual({ type: "page", webhookEventId: pulled!.webhook_event_id, timestamp: now, mode: "active",
      source: { type: "user", userId: TEACHER_ID }, page });
    expect((await (await teacher("/liff/api/me")).json())).toMatchObject({ answers: [page] });

    // The app took the event in and put the documents that show it: the page shows those alone.
    expect((await putPages({ put: [], events_through: pulled!.cursor })).status).toBe(200);
    expect((await (await teacher("/liff/api/me")).json())).toMatchObject({ answers: [] });
  });

  it("keeps the latest answer to the same thing, and an answer after the app's put stays", async () => {
    await handOver();
    const teacher = await signedIn();
    await teacher("/liff/api/answers", { body: { action: "availability", request: 5, days: [{ date: "2027-01-04", answer: "yes" }] } });
    const [first] = await pulledEvents();
    await teacher("/liff/api/answers", { body: { action: "availability", request: 5, days: [{ date: "2027-01-04", answer: "no" }] } });
    await teacher("/liff/api/answers", { body: { action: "ack", ack: ACK } });
    expect(await pulledEvents()).toHaveLength(3); // every answer reaches the app, in order
    const shown = (await (await teacher("/liff/api/me")).json()) as { answers: unknown[] };
    expect(shown.answers).toEqual([{ action: "availability", request: 5, days: [{ date: "2027-01-04", answer: "no" }] }, { action: "ack", ack: ACK }]);
    await putPages({ events_through: first!.cursor }); // taken in up to the first only
    expect(((await (await teacher("/liff/api/me")).json()) as { answers: unknown[] }).answers).toHaveLength(2);
  });

  it("takes an ack, a cover offer and the manager's reminder the documents offer", async () => {
    await handOver();
    const teacher = await signedIn();
    expect((await teacher("/liff/api/answers", { body: { action: "ack", ack: ACK } })).status).toBe(202);
    expect((await teacher("/liff/api/answers", { body: { action: "cover_offer", call: 9 } })).status).toBe(202);
    const boss = await signedIn(MANAGER_ID);
    expect((await boss("/liff/api/answers", { body: { action: "remind", request: 5, teacher: 12 } })).status).toBe(202);
    expect((await pulledEvents()).map((e) => [(e.event.source as { userId: string }).userId, e.event.page])).toEqual([
      [TEACHER_ID, { action: "ack", ack: ACK }],
      [TEACHER_ID, { action: "cover_offer", call: 9 }],
      [MANAGER_ID, { action: "remind", request: 5, teacher: 12 }],
    ]);
    expect(await answerCount()).toBe(3);
  });

  it("makes no second event of the same answer while the first waits for the app: a replay or a double tap", async () => {
    await handOver();
    const boss = await signedIn(MANAGER_ID);
    const remind = { body: { action: "remind", request: 5, teacher: 12 } };
    expect(await (await boss("/liff/api/answers", remind)).json()).toEqual({ accepted: true, repeated: false });
    expect(await (await boss("/liff/api/answers", remind)).json()).toEqual({ accepted: true, repeated: true });
    const pulled = await pulledEvents();
    expect(pulled).toHaveLength(1); // the teacher is reminded once
    expect(await answerCount()).toBe(1);
    // Once the app took it in, the manager may remind again: that is a new answer.
    await putPages({ events_through: pulled[0]!.cursor });
    expect(await (await boss("/liff/api/answers", remind)).json()).toEqual({ accepted: true, repeated: false });
    expect(await pulledEvents()).toHaveLength(2);
  });

  it("refuses what the person's document does not offer, and stores nothing", async () => {
    await handOver();
    const teacher = await signedIn();
    const boss = await signedIn(MANAGER_ID);
    const refusals: [typeof teacher, unknown][] = [
      [teacher, { action: "ack", ack: "ack=999:1" }], // an ack not offered
      [teacher, { action: "ack", ack: null }], // a shift acknowledged already has none
      [teacher, { action: "availability", request: 6, days: [{ date: "2027-01-04", answer: "yes" }] }], // a request not open
      [teacher, { action: "availability", request: 5, days: [{ date: "2027-02-04", answer: "yes" }] }], // not its month
      [teacher, { action: "availability", request: 5, days: [{ date: "2027-01-01", answer: "yes" }] }], // a closed day
      [teacher, { action: "availability", request: 5, days: [{ date: "2027-01-32", answer: "yes" }] }],
      [teacher, { action: "availability", request: 5, days: [{ date: "2027-01-04", answer: "maybe" }] }],
      [teacher, { action: "availability", request: 5, days: [{ date: "2027-01-04", answer: "hours" }] }],
      [teacher, { action: "availability", request: 5, days: [{ date: "2027-01-04", answer: "hours", from: "20:00", to: "16:00" }] }],
      [teacher, { action: "availability", request: 5, days: [{ date: "2027-01-04", answer: "hours", from: "25:00" }] }],
      [teacher, { action: "availability", request: 5, days: [{ date: "2027-01-04", answer: "yes", from: "16:00" }] }],
      [teacher, { action: "availability", request: 5, days: [{ date: "2027-01-04", answer: "yes" }, { date: "2027-01-04", answer: "no" }] }],
      [teacher, { action: "availability", request: 5, days: [] }],
      [teacher, { action: "cover_offer", call: 10 }], // a call not offered
      [teacher, { action: "remind", request: 5, teacher: 12 }], // only the manager reminds
      [boss, { action: "remind", request: 5, teacher: 13 }], // not waiting
      [teacher, { action: "delete_everything" }],
      [teacher, ["ack", ACK]],
    ];
    for (const [who, body] of refusals) {
      const response = await who("/liff/api/answers", { body });
      expect([response.status, JSON.stringify(body)]).toEqual([400, JSON.stringify(body)]);
      expect(await response.json()).toMatchObject({ error: "bad_request" });
    }
    expect((await teacher("/liff/api/answers", { raw: "{not json" })).status).toBe(400);
    expect(await pulledEvents()).toEqual([]);
    expect(await answerCount()).toBe(0);
  });

  it("refuses an answer over 20,000 bytes with 413, before anything else", async () => {
    await handOver();
    const teacher = await signedIn();
    const large = JSON.stringify({ action: "ack", ack: ACK, padding: "x".repeat(MAX_ANSWER_BYTES) });
    const response = await teacher("/liff/api/answers", { raw: large });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: "too_large" });
    expect((await liff("/liff/api/answers", { raw: large })).status).toBe(413);
    expect(await pulledEvents()).toEqual([]);
  });

  it("refuses an answer without a verified token", async () => {
    await handOver();
    const response = await liff("/liff/api/answers", { body: { action: "ack", ack: ACK }, token: await idToken(TEACHER_ID, { expiresIn: -1 }) });
    expect(response.status).toBe(401);
    expect(await pulledEvents()).toEqual([]);
  });
});
