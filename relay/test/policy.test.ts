// The pure rules, without the runtime's I/O.
import { describe, expect, it } from "vitest";
import { type Env, MAX_SENDS_CEILING, settings } from "../src/env";
import { asCode } from "../src/pairing";
import { backoff, classify, decide, retryKeyUsable } from "../src/policy";

const MINUTE = 60_000;
const answer = (status: number | null, extra: Partial<Parameters<typeof classify>[0]> = {}) =>
  classify({ status, transport: status === null ? "timeout" : null, acceptedRequestId: null, message: null, ...extra });

describe("classify", () => {
  it("follows the app's outcome rules", () => {
    expect(answer(200).outcome).toBe("sent");
    expect(answer(409, { acceptedRequestId: "abc" }).outcome).toBe("sent");
    expect(answer(409)).toMatchObject({ outcome: "failed", code: "LINE_4XX" });
    expect(answer(500)).toMatchObject({ outcome: "retry", code: "LINE_5XX" });
    expect(answer(null)).toMatchObject({ outcome: "retry", code: "TIMEOUT" });
    expect(answer(null, { transport: "connection" })).toMatchObject({ outcome: "retry", code: "CONNECTION_ERROR" });
    expect(answer(429, { message: "You have reached your monthly limit." })).toMatchObject({ outcome: "failed", code: "QUOTA_EXHAUSTED", stopRun: true });
    expect(answer(429, { message: "The API rate limit has been exceeded. Try again later." })).toMatchObject({ outcome: "throttled", stopRun: true });
    expect(answer(401)).toMatchObject({ outcome: "hold", stopRun: true });
    expect(answer(400)).toMatchObject({ outcome: "failed", code: "LINE_400", stopRun: false });
    expect(answer(404)).toMatchObject({ outcome: "failed", code: "LINE_404" });
  });
});

describe("backoff", () => {
  it("is 2, 4, 8, 16, 32 minutes, spread by at most ±10 %", () => {
    expect([1, 2, 3, 4, 5].map((n) => backoff(n, 0.5) / MINUTE)).toEqual([2, 4, 8, 16, 32]);
    expect(backoff(1, 0) / MINUTE).toBeCloseTo(1.8);
    expect(backoff(1, 0.999999) / MINUTE).toBeCloseTo(2.2);
  });

  it("runs out after 5 retries", () => {
    const retry = answer(503);
    expect(decide(retry, 6, 0, 0.5).outcome).toBe("dead");
    expect(decide(retry, 5, 0, 0.5)).toMatchObject({ outcome: "retry", nextAttemptAt: 32 * MINUTE });
  });
});

describe("retry keys", () => {
  it("are not used within 10 minutes of LINE's 24 hours", () => {
    expect(retryKeyUsable(0, 23 * 60 * MINUTE + 49 * MINUTE)).toBe(true);
    expect(retryKeyUsable(0, 23 * 60 * MINUTE + 50 * MINUTE)).toBe(false);
  });
});

describe("pairing codes in messages", () => {
  it("are read as the app reads them", () => {
    expect(asCode("AB3-DE5-FG7")).toBe("AB3DE5FG7");
    expect(asCode(" ab3 de5 fg7 ")).toBe("AB3DE5FG7");
    expect(asCode("ＡＢ３ーＤＥ５ーＦＧ７")).toBe("AB3DE5FG7");
    expect(asCode("WONDERFUL")).toBeNull(); // no digit
    expect(asCode("123456789")).toBeNull(); // no letter
    expect(asCode("AB3DE5")).toBe("AB3DE5"); // the older length
    expect(asCode("AB3DE5FG7X")).toBeNull();
    expect(asCode("AB3-DE5-FG7 please, thank you very much!!")).toBeNull();
  });
});

describe("settings", () => {
  it("default as wrangler.toml says, and never allow more sends per run than the free plan bears", () => {
    const base = { DB: {} as D1Database, LINE_CHANNEL_SECRET: "", LINE_CHANNEL_ACCESS_TOKEN: "", RELAY_KEY: "" } satisfies Env;
    expect(settings(base)).toEqual({ lineApiBase: "https://api.line.me", allowHttp: false, senderQuietMs: 5 * MINUTE, maxSendsPerRun: 10, lineTimeoutMs: 10_000,
      liffSdkUrl: "https://static.line-scdn.net/liff/edge/2/sdk.js" });
    expect(settings({ ...base, LIFF_SDK_URL: "javascript:alert(1)" }).liffSdkUrl).toBe("https://static.line-scdn.net/liff/edge/2/sdk.js");
    expect(settings({ ...base, MAX_SENDS_PER_RUN: "1000" }).maxSendsPerRun).toBe(MAX_SENDS_CEILING);
    expect(settings({ ...base, SENDER_QUIET_MINUTES: "nonsense" }).senderQuietMs).toBe(5 * MINUTE);
  });
});
