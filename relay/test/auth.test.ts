import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { route } from "../src/app";
import { authorization, BASE, call, handle } from "./helpers";

async function refusal(response: Response): Promise<string> {
  expect(response.status).toBe(401);
  expect(response.headers.get("www-authenticate")).toBe("Shiftcast-HMAC");
  return ((await response.json()) as { error: string }).error;
}

describe("the app's API", () => {
  it("answers a signed call", async () => {
    expect((await call("/api/events")).status).toBe(200);
  });

  it("refuses a call without the Authorization header", async () => {
    expect(await refusal(await call("/api/events", { unsigned: true }))).toBe("missing");
  });

  it("refuses a call signed with another key", async () => {
    expect(await refusal(await call("/api/events", { key: "f".repeat(64) }))).toBe("signature");
  });

  it("refuses a header that is not the scheme's", async () => {
    expect(await refusal(await call("/api/events", { alter: (h) => h.replace("Shiftcast-HMAC", "Bearer") }))).toBe("malformed");
  });

  it("refuses a signed call whose body, path or method was changed", async () => {
    const now = Date.now();
    const header = await authorization("POST", "/api/events/ack", new TextEncoder().encode('{"through":1}'), now, "nonce-changed-body-1");
    const altered = new Request(`${BASE}/api/events/ack`, { method: "POST", headers: { authorization: header }, body: '{"through":9}' });
    expect(await refusal(await handle(altered, now))).toBe("signature");
    const moved = new Request(`${BASE}/api/outcomes/ack`, { method: "POST", headers: { authorization: header }, body: '{"through":1}' });
    expect(await refusal(await handle(moved, now))).toBe("signature");
  });

  it("refuses a timestamp more than 5 minutes off, either way", async () => {
    const now = Date.now();
    expect(await refusal(await call("/api/events", { now, ts: now - 5 * 60_000 - 2000 }))).toBe("stale");
    expect(await refusal(await call("/api/events", { now, ts: now + 5 * 60_000 + 2000 }))).toBe("stale");
    expect((await call("/api/events", { now, ts: now - 4 * 60_000 })).status).toBe(200);
  });

  it("refuses a nonce used before, even with a fresh signature", async () => {
    const now = Date.now();
    expect((await call("/api/events", { now, nonce: "the-same-nonce-0001" })).status).toBe(200);
    expect(await refusal(await call("/api/events", { now: now + 1000, nonce: "the-same-nonce-0001" }))).toBe("replayed");
  });

  it("stores no nonce for a call it refused", async () => {
    const now = Date.now();
    await call("/api/events", { now, nonce: "nonce-of-a-refusal-1", key: "f".repeat(64) });
    expect((await call("/api/events", { now, nonce: "nonce-of-a-refusal-1" })).status).toBe(200);
  });

  it("answers 503 while the relay key is not set", async () => {
    const response = await route(new Request(`${BASE}/api/events`), { ...env, RELAY_KEY: "" }, createExecutionContext(), Date.now());
    expect(response.status).toBe(503);
  });
});

describe("plain http", () => {
  it("is refused, even for a signed call", async () => {
    const response = await call("/api/events", { base: "http://relay.test" });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: "https_only" });
  });

  it("is refused for the webhook and the health check too", async () => {
    expect((await handle(new Request("http://relay.test/health"))).status).toBe(403);
    expect((await handle(new Request("http://relay.test/line/webhook", { method: "POST", body: "{}" }))).status).toBe(403);
  });

  it("is let through when ALLOW_HTTP is 1 (local runs)", async () => {
    const response = await route(new Request("http://127.0.0.1:8787/health"), { ...env, ALLOW_HTTP: "1" }, createExecutionContext(), Date.now());
    expect(response.status).toBe(200);
  });
});
