import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runCron } from "../src/app";
import { longestRunMs, settings } from "../src/env";
import { clock, delivery, lineLog, MINUTE, outcomes, T0, upload } from "./helpers";

// The relay as deployed with only the channel ID and secret: no long-lived token.
const statelessEnv: Cloudflare.Env = { ...env, LINE_CHANNEL_ACCESS_TOKEN: "" };
const run = (at: number, environment: Cloudflare.Env = statelessEnv) => runCron(environment, clock(at).now, () => 0.5);
const TOKEN_PATH = "/oauth2/v3/token";
const LIFETIME = 899_000; // LINE's expires_in

function teacher(n: number): string {
  return `U${String(n).padStart(32, "0")}`;
}

function reminder(id: string, n: number, at: number): Record<string, unknown> {
  return delivery(id, 1, {
    body: { to: teacher(n), messages: [{ type: "text", text: `reminder ${id}` }] },
    due_at: new Date(at).toISOString(),
    not_after: new Date(at + 2 * 60 * MINUTE).toISOString(),
  });
}

async function issued(): Promise<Record<string, string>[]> {
  return (await lineLog()).filter((r) => r.path === TOKEN_PATH).map((r) => r.body as Record<string, string>);
}

async function pushes(): Promise<{ to: string; authorization: string | null }[]> {
  return (await lineLog()).filter((r) => r.path === "/v2/bot/message/push");
}

describe("the relay's own channel access token", () => {
  it("is issued from the channel ID and secret at the first send, and the push carries it", async () => {
    await upload([reminder("r1", 1, T0)]);
    expect(await run(T0 - MINUTE)).toMatchObject({ attempted: 0 });
    expect(await issued()).toEqual([]); // nothing to send: LINE is not asked for a token
    expect(await run(T0)).toMatchObject({ attempted: 1, sent: 1 });
    expect(await issued()).toEqual([{ grant_type: "client_credentials", client_id: env.LINE_CHANNEL_ID, client_secret: env.LINE_CHANNEL_SECRET }]);
    const [push] = await pushes();
    expect(push!.authorization).toMatch(/^Bearer stateless-/);
    expect(await env.DB.prepare("SELECT token FROM line_token").first("token")).toBe(push!.authorization!.slice(7));
  });

  it("is reused by later runs until it would expire within the longest run, then issued anew", async () => {
    const renewAt = T0 + LIFETIME - longestRunMs(settings(statelessEnv));
    await upload([reminder("r1", 1, T0), reminder("r2", 2, T0 + 5 * MINUTE), reminder("r3", 3, renewAt - 1000),
      reminder("r4", 4, renewAt)]);
    await run(T0);
    await run(T0 + 5 * MINUTE);
    await run(renewAt - 1000);
    expect(await issued()).toHaveLength(1);
    await run(renewAt);
    expect(await issued()).toHaveLength(2);
    const tokens = (await pushes()).map((p) => p.authorization);
    expect(tokens[0]).toBe(tokens[1]);
    expect(tokens[1]).toBe(tokens[2]);
    expect(tokens[3]).not.toBe(tokens[2]);
    expect((await outcomes()).map((o) => o.outcome)).toEqual(["sent", "sent", "sent", "sent"]);
  });

  it("is one per run however many it sends", async () => {
    await upload([reminder("r1", 1, T0), reminder("r2", 2, T0), reminder("r3", 3, T0)]);
    expect(await run(T0)).toMatchObject({ attempted: 3, sent: 3 });
    expect(await issued()).toHaveLength(1);
  });

  it("issued with credentials since replaced is not used", async () => {
    await upload([reminder("r1", 1, T0), reminder("r2", 2, T0 + MINUTE)]);
    await run(T0);
    // The manager's new secret reached the relay (the stand-in does not know it, so it issues nothing).
    const rotated = { ...statelessEnv, LINE_CHANNEL_SECRET: "rotated-channel-secret" };
    expect(await run(T0 + MINUTE, rotated)).toMatchObject({ attempted: 1, sent: 0 });
    const asked = await issued();
    expect(asked).toHaveLength(2);
    expect(asked[1]!.client_secret).toBe("rotated-channel-secret");
    expect(await pushes()).toHaveLength(1); // the token kept for the old secret was not used
  });

  it("that LINE will not issue holds the delivery, as a refused token does, and stops the run", async () => {
    await upload([reminder("r1", 1, T0), reminder("r2", 2, T0)]);
    const wrong = { ...statelessEnv, LINE_CHANNEL_SECRET: "not-this-channels-secret" };
    expect(await run(T0, wrong)).toMatchObject({ attempted: 1, sent: 0 });
    expect(await pushes()).toEqual([]);
    expect(await issued()).toHaveLength(1); // asked once, not once per delivery
    const [held] = await outcomes();
    expect(held).toMatchObject({ outcome: "hold", error_code: "AUTH_FAILED", http_status: 401 });
    expect(held!.message).toContain("invalid_client");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM deliveries WHERE state = 'queued'").first("n")).toBe(2);
    // With the right secret the held delivery goes at its next attempt.
    expect(await run(T0 + 5 * MINUTE)).toMatchObject({ sent: 2 });
  });

  it("that LINE refuses before it expires is dropped, and the next attempt issues another", async () => {
    await upload([reminder("r1", 1, T0), reminder("r2", 2, T0 + MINUTE)]);
    await run(T0);
    await fetch("https://line.test/__revoke", { method: "POST" });
    expect(await run(T0 + MINUTE)).toMatchObject({ attempted: 1, sent: 0 });
    expect((await outcomes()).map((o) => [o.outcome, o.error_code])).toEqual([["sent", null], ["hold", "AUTH_FAILED"]]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM line_token").first("n")).toBe(0);
    expect(await run(T0 + 6 * MINUTE)).toMatchObject({ sent: 1 });
    expect(await issued()).toHaveLength(2);
  });

  it("is not needed while a long-lived token is set", async () => {
    await upload([reminder("r1", 1, T0)]);
    expect(await run(T0, env)).toMatchObject({ sent: 1 });
    expect(await issued()).toEqual([]);
    expect((await pushes())[0]!.authorization).toBe(`Bearer ${env.LINE_CHANNEL_ACCESS_TOKEN}`);
  });

  it("without a token or a channel ID holds the delivery and asks LINE nothing", async () => {
    await upload([reminder("r1", 1, T0)]);
    expect(await run(T0, { ...statelessEnv, LINE_CHANNEL_ID: "" })).toMatchObject({ attempted: 1, sent: 0 });
    expect(await lineLog()).toEqual([]);
    expect((await outcomes()).map((o) => [o.outcome, o.error_code])).toEqual([["hold", "AUTH_FAILED"]]);
  });
});
