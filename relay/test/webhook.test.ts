import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../src/crypto";
import { MISSES_IN_ALL, MISSES_PER_USER } from "../src/pairing";
import { call, HOUR, lineLog, lineSignature, webhook } from "./helpers";

const USER = `U${"a".repeat(32)}`;
let ids = 0;

function textEvent(text: string, options: { userId?: string; id?: string; redelivery?: boolean } = {}) {
  ids += 1;
  return {
    type: "message",
    webhookEventId: options.id ?? `01HEVENT${ids}`,
    timestamp: Date.now(),
    mode: "active",
    replyToken: `reply-token-${ids}`,
    source: { type: "user", userId: options.userId ?? USER },
    message: { id: String(ids), type: "text", text },
    deliveryContext: { isRedelivery: options.redelivery ?? false },
  };
}

async function deliver(events: unknown[], now?: number, environment: Cloudflare.Env = env): Promise<Response> {
  const body = JSON.stringify({ destination: `U${"0".repeat(32)}`, events });
  return webhook(body, await lineSignature(body), now, environment);
}

async function storedEvents(): Promise<{ webhook_event_id: string; event: unknown }[]> {
  return ((await (await call("/api/events")).json()) as { events: { webhook_event_id: string; event: unknown }[] }).events;
}

async function holdCode(code: string, reply: string, expiresAt = new Date(Date.now() + 7 * 24 * HOUR).toISOString()): Promise<void> {
  const salt = `salt-${code}-0123456789`;
  const response = await call("/api/pairing-codes", {
    method: "PUT",
    body: { codes: [{ salt, hash: await sha256Hex(salt + code), reply_text: reply, expires_at: expiresAt }] },
  });
  expect(response.status).toBe(200);
}

describe("the LINE webhook's signature", () => {
  it("takes a body signed with the channel secret", async () => {
    const response = await deliver([textEvent("hello")]);
    expect(response.status).toBe(200);
    expect(await storedEvents()).toHaveLength(1);
  });

  it("refuses a body signed with another secret, stores nothing", async () => {
    const body = JSON.stringify({ events: [textEvent("hello")] });
    const response = await webhook(body, await lineSignature(body, "another-secret"));
    expect(response.status).toBe(401);
    expect(await storedEvents()).toHaveLength(0);
  });

  it("refuses a body without a signature", async () => {
    const response = await webhook(JSON.stringify({ events: [textEvent("hello")] }), null);
    expect(response.status).toBe(401);
    expect(await storedEvents()).toHaveLength(0);
  });

  it("refuses a body altered after it was signed", async () => {
    const body = JSON.stringify({ events: [textEvent("hello")] });
    const signature = await lineSignature(body);
    const response = await webhook(body.replace("hello", "hellO"), signature);
    expect(response.status).toBe(401);
    expect(await storedEvents()).toHaveLength(0);
  });

  it("refuses a signature that is not base64 without parsing the body", async () => {
    const response = await webhook("{not json", "***");
    expect(response.status).toBe(401);
  });

  it("answers the console's verification (no events) with 200", async () => {
    expect((await deliver([])).status).toBe(200);
  });
});

describe("webhook events", () => {
  it("are stored once by webhookEventId, however often LINE delivers them", async () => {
    const event = textEvent("hello", { id: "01HSAMEEVENT" });
    expect((await deliver([event])).status).toBe(200);
    expect((await deliver([{ ...event, deliveryContext: { isRedelivery: true } }])).status).toBe(200);
    expect((await deliver([event, textEvent("other")])).status).toBe(200);
    const events = await storedEvents();
    expect(events.map((e) => e.webhook_event_id)).toEqual(["01HSAMEEVENT", expect.stringMatching(/^01HEVENT/)]);
    expect(events[0]!.event).toMatchObject({ message: { text: "hello" }, deliveryContext: { isRedelivery: false } });
  });

  it("are pulled after a cursor and gone once acknowledged", async () => {
    await deliver([textEvent("one"), textEvent("two"), textEvent("three")]);
    const first = (await (await call("/api/events")).json()) as { events: { cursor: number }[]; next: number };
    expect(first.events).toHaveLength(3);
    const later = (await (await call(`/api/events?after=${first.events[0]!.cursor}`)).json()) as { events: unknown[] };
    expect(later.events).toHaveLength(2);
    const ack = await call("/api/events/ack", { method: "POST", body: { through: first.events[1]!.cursor } });
    expect(await ack.json()).toEqual({ removed: 2 });
    const rest = (await (await call("/api/events")).json()) as { events: { event: { message: { text: string } } }[] };
    expect(rest.events.map((e) => e.event.message.text)).toEqual(["three"]);
  });
});

describe("pairing codes", () => {
  it("get the app's reply at once when the relay holds the code, however the phone typed it", async () => {
    await holdCode("AB3DE5FG7", "You're registered.");
    await deliver([textEvent("ａｂ３ーde5 fg7")]);
    const replies = (await lineLog()).filter((r) => r.path === "/v2/bot/message/reply");
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body).toEqual({ replyToken: expect.stringMatching(/^reply-token-/), messages: [{ type: "text", text: "You're registered." }] });
    expect(replies[0]!.authorization).toBe(`Bearer ${env.LINE_CHANNEL_ACCESS_TOKEN}`);
    expect(await storedEvents()).toHaveLength(1); // the app still binds the teacher when it pulls
  });

  it("get their reply with a token the relay issued itself when it has no long-lived one", async () => {
    await holdCode("AB3DE5FG7", "You're registered.");
    await deliver([textEvent("AB3-DE5-FG7")], undefined, { ...env, LINE_CHANNEL_ACCESS_TOKEN: "" });
    const log = await lineLog();
    expect(log.map((r) => r.path)).toEqual(["/oauth2/v3/token", "/v2/bot/message/reply"]);
    expect(log[1]!.authorization).toMatch(/^Bearer stateless-/);
  });

  it("get one reply when LINE delivers the same event again", async () => {
    await holdCode("AB3DE5FG7", "You're registered.");
    const event = textEvent("AB3-DE5-FG7");
    await deliver([event]);
    await deliver([event]); // our 200 was lost on the way: LINE sent it again
    expect(await lineLog()).toHaveLength(1);
    // Nor is the repeat counted as a wrong code against the teacher.
    expect(await env.DB.prepare("SELECT count(*) AS n FROM pairing_misses").first("n")).toBe(0);
  });

  it("get no reply when the code is not held, or was spent, or expired", async () => {
    await holdCode("AB3DE5FG7", "You're registered.");
    await holdCode("ZZ9ZZ9ZZ9", "Expired one.", new Date(Date.now() - 1000).toISOString());
    await deliver([textEvent("AB3-DE5-FG8")]);
    await deliver([textEvent("ZZ9-ZZ9-ZZ9")]);
    await deliver([textEvent("AB3-DE5-FG7")]);
    await deliver([textEvent("AB3-DE5-FG7")]);
    const replies = (await lineLog()).filter((r) => r.path === "/v2/bot/message/reply");
    expect(replies).toHaveLength(1);
  });

  it("get no reply for ordinary chat, a group message or a redelivered event", async () => {
    await holdCode("AB3DE5FG7", "You're registered.");
    await deliver([textEvent("WONDERFUL")]);
    await deliver([{ ...textEvent("AB3-DE5-FG7"), source: { type: "group", groupId: `C${"1".repeat(32)}`, userId: USER } }]);
    await deliver([textEvent("AB3-DE5-FG7", { redelivery: true })]);
    expect(await lineLog()).toHaveLength(0);
  });

  it("are ignored from a LINE user after 5 wrong ones within the hour", async () => {
    await holdCode("AB3DE5FG7", "You're registered.");
    const now = Date.now();
    for (let i = 0; i < 5; i++) await deliver([textEvent(`AB3-DE5-FG${(i + 2) % 10}X`.slice(0, 11))], now);
    await deliver([textEvent("AB3-DE5-FG7")], now);
    expect(await lineLog()).toHaveLength(0);
    await deliver([textEvent("AB3-DE5-FG7")], now + HOUR + 1000);
    expect((await lineLog()).map((r) => r.path)).toEqual(["/v2/bot/message/reply"]);
  });

  it("are still answered after a few strangers' wrong ones, and ignored from everyone at the limit for all", async () => {
    await holdCode("AB3DE5FG7", "You're registered.");
    await holdCode("KM4NP6QR8", "You're registered too.");
    const now = Date.now();
    for (let i = 0; i < 6; i++) {  // six strangers, five wrong codes each: each is ignored alone
      for (let j = 0; j < MISSES_PER_USER; j++) {
        await deliver([textEvent("AB3-DE5-FG8", { userId: `U${String(i).padStart(32, "0")}` })], now);
      }
    }
    await deliver([textEvent("AB3-DE5-FG7", { userId: `U${"e".repeat(32)}` })], now);
    expect(await lineLog()).toHaveLength(1);
    const miss = env.DB.prepare("INSERT INTO pairing_misses (line_user_id, at) VALUES (?, ?)");
    const more = MISSES_IN_ALL - 6 * MISSES_PER_USER;  // many more strangers, one wrong code each
    await env.DB.batch(Array.from({ length: more }, (_, i) => miss.bind(`U${String(100 + i).padStart(32, "0")}`, now)));
    await deliver([textEvent("KM4-NP6-QR8", { userId: `U${"f".repeat(32)}` })], now);
    expect(await lineLog()).toHaveLength(1);
  });

  it("are replaced as a whole set when the app says so", async () => {
    await holdCode("AB3DE5FG7", "first");
    const response = await call("/api/pairing-codes", { method: "PUT", body: { codes: [], replace_all: true } });
    expect(response.status).toBe(200);
    await deliver([textEvent("AB3-DE5-FG7")]);
    expect(await lineLog()).toHaveLength(0);
  });
});
