// The free plan's figures docs/relay.md states for the teachers' page, measured on the real D1 of the
// tests: per call, the D1 calls and the statements they carry, the rows read and written, the LINE calls.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../src/crypto";
import { BASE, call, handle, lineLog } from "./helpers";
import { type Meter, metered } from "./meter";
import { entry, handOver, idToken, liff, person, TEACHER_ID } from "./page-helpers";

type Figures = [calls: number, statements: number, rowsRead: number, rowsWritten: number, lineCalls: number];

async function measured(run: (environment: Cloudflare.Env) => Promise<Response>, status = 200): Promise<Figures> {
  const before = (await lineLog()).length;
  const meter: Meter = metered(env.DB);
  const response = await run({ ...env, DB: meter.db });
  expect(response.status).toBe(status);
  return [meter.calls, meter.statements, meter.rowsRead, meter.rowsWritten, (await lineLog()).length - before];
}

describe("the teachers' page's cost per call", () => {
  it("the page's files: no D1, no LINE; its config: one query", async () => {
    await handOver();
    expect(await measured((e) => handle(new Request(`${BASE}/liff/`), undefined, e))).toEqual([0, 0, 0, 0, 0]);
    expect(await measured((e) => handle(new Request(`${BASE}/liff/config`), undefined, e))).toEqual([1, 1, 1, 0, 0]);
  });

  it("the viewer's month and a classroom's: one LINE call, two D1 calls", async () => {
    await handOver();
    const token = await idToken(TEACHER_ID);
    expect(await measured((e) => liff("/liff/api/me", { token, environment: e }))).toEqual([2, 3, 3, 0, 1]);
    expect(await measured((e) => liff("/liff/api/classroom?key=c3&month=2026-12", { token, environment: e }))).toEqual([2, 3, 3, 0, 1]);
  });

  it("an answer: one LINE call, three D1 calls, five rows written", async () => {
    await handOver();
    const token = await idToken(TEACHER_ID);
    // Written: the event, its two index entries and its sequence, and the answer (no nonce: LINE signs the page in).
    expect(await measured((e) => liff("/liff/api/answers", { token, body: { action: "cover_offer", call: 9 }, environment: e }), 202))
      .toEqual([3, 4, 4, 5, 1]);
  });

  it("the app's put of 40 documents: the nonce and one batch, two rows written each", async () => {
    const put = Array.from({ length: 40 }, (_, i) => entry("person", `U${i}`, person()));
    const [calls, statements, , written] = await measured((e) => call("/api/pages", { method: "PUT", body: { put, events_through: 1 }, environment: e }));
    expect([calls, statements, written]).toEqual([2, 42, 82]); // each document and its purge index entry; the nonce's two
  });

  it("a calendar feed: one query", async () => {
    const token = "c".repeat(43);
    await call("/api/pages", { method: "PUT", body: { put: [entry("calendar", await sha256Hex(token), "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")] } });
    expect(await measured((e) => handle(new Request(`${BASE}/ics/${token}.ics`), undefined, e))).toEqual([1, 1, 1, 0, 0]);
  });
});
