import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../src/crypto";
import { DEFAULT_LIFF_SDK_URL } from "../src/env";
import { BASE, handle } from "./helpers";
import { entry, handOver, idToken, liff, LIFF_ID, putPages, TEACHER_ID } from "./page-helpers";

const CSP = "default-src 'none'; script-src 'self' https://line.test; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self' https://line.test; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function get(path: string, environment: Cloudflare.Env = env): Promise<Response> {
  return handle(new Request(BASE + path), Date.now(), environment);
}

function expectSecurityHeaders(response: Response, csp = CSP): void {
  expect(response.headers.get("content-security-policy")).toBe(csp);
  expect(response.headers.get("x-frame-options")).toBe("DENY");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("referrer-policy")).toBe("no-referrer");
}

describe("the page's files", () => {
  it("are served without a token, with their types, security headers and five minutes of caching", async () => {
    for (const [path, type] of [["/liff/", "text/html"], ["/liff/index.html", "text/html"], ["/liff/app.js", "text/javascript"], ["/liff/app.css", "text/css"]]) {
      const response = await get(path!);
      expect([path, response.status, response.headers.get("content-type")]).toEqual([path, 200, `${type}; charset=utf-8`]);
      expect(response.headers.get("cache-control")).toBe("public, max-age=300");
      expectSecurityHeaders(response);
      expect((await response.text()).length).toBeGreaterThan(0);
    }
  });

  it("load the LIFF SDK from LIFF_SDK_URL: the HTML names it, the policy lets its origin through", async () => {
    const page = await (await get("/liff/")).text();
    expect(page).toContain('<script src="https://line.test/liff/sdk.js"></script>');
    expect(page).not.toContain("{{LIFF_SDK_URL}}");
    const local = { ...env, LIFF_SDK_URL: "http://127.0.0.1:9000/liff/sdk.js" };
    const served = await get("/liff/index.html", local);
    expect(await served.text()).toContain('src="http://127.0.0.1:9000/liff/sdk.js"');
    expect(served.headers.get("content-security-policy")).toContain("script-src 'self' http://127.0.0.1:9000;");
    const deployed = await get("/liff/", { ...env, LIFF_SDK_URL: undefined });
    expect(await deployed.text()).toContain(`src="${DEFAULT_LIFF_SDK_URL}"`);
    expect(deployed.headers.get("content-security-policy")).toContain("connect-src 'self' https://static.line-scdn.net https://api.line.me https://access.line.me https://liffsdk.line-scdn.net;");
  });

  it("answer 404 for anything else under /liff/, with the same headers; /liff goes to /liff/ with its query", async () => {
    const missing = await get("/liff/secrets.txt");
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing);
    const bare = await get("/liff?liff.state=%3Fview%3Dmonth");
    expect([bare.status, bare.headers.get("location")]).toEqual([308, `${BASE}/liff/?liff.state=%3Fview%3Dmonth`]);
  });

  it("put the security headers on every answer of the page's API too, refusals included, and keep none in a cache", async () => {
    await handOver();
    const token = await idToken(TEACHER_ID);
    const answers = [
      await liff("/liff/api/me"), await liff("/liff/api/me", { token }), await liff("/liff/api/nothing", { token }),
      await liff("/liff/api/me", { token: await idToken(`U${"9".repeat(32)}`) }),
      await liff("/liff/api/answers", { token, body: { action: "nothing" } }), await get("/liff/config"),
    ];
    expect(answers.map((r) => r.status)).toEqual([401, 200, 404, 403, 400, 200]);
    for (const response of answers) {
      expectSecurityHeaders(response);
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
  });
});

describe("GET /liff/config", () => {
  it("answers the LIFF ID the app handed over, 404 before", async () => {
    const before = await get("/liff/config");
    expect(before.status).toBe(404);
    expect(await before.json()).toMatchObject({ error: "not_found" });
    await handOver();
    expect(await (await get("/liff/config")).json()).toEqual({ liff_id: LIFF_ID });
  });
});

describe("GET /ics/<token>.ics", () => {
  it("serves the calendar kept under the token's SHA-256 as text/calendar, privately cached", async () => {
    const token = "T".repeat(21) + "-_" + "a".repeat(20);
    const ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n";
    expect((await putPages({ put: [entry("calendar", await sha256Hex(token), ics)] })).status).toBe(200);
    const response = await get(`/ics/${token}.ics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("private, max-age=900");
    expect(await response.text()).toBe(ics);
  });

  it("answers 404 for an unknown token, a malformed one, or the hash itself", async () => {
    const token = "b".repeat(43);
    const hash = await sha256Hex(token);
    await putPages({ put: [entry("calendar", hash, "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")] });
    expect((await get(`/ics/${token}.ics`)).status).toBe(200); // held: only the token itself opens it
    for (const path of [`/ics/${"c".repeat(43)}.ics`, `/ics/${token}`, `/ics/${token.slice(1)}.ics`, `/ics/${hash}.ics`, "/ics/"]) {
      expect([path, (await get(path)).status]).toEqual([path, 404]);
    }
  });
});
