import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runCron } from "../src/app";
import { sha256Hex } from "../src/crypto";
import { MAX_IMAGE_BYTES } from "../src/images";
import { BASE, call, DAY, handle, MINUTE, T0 } from "./helpers";

// The smallest PNG: a 1×1 transparent pixel.
const PNG = Uint8Array.from(atob(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);

async function put(name: string, body: Uint8Array, now?: number): Promise<Response> {
  return call(`/api/images/${name}`, { method: "PUT", body, now });
}

describe("the month's image", () => {
  it("is stored with the key and served without it, with its type and caching headers", async () => {
    const stored = await put("2026-12.png", PNG);
    expect(stored.status).toBe(200);
    const { path, content_type, bytes } = (await stored.json()) as { path: string; content_type: string; bytes: number };
    expect(content_type).toBe("image/png");
    expect(bytes).toBe(PNG.length);
    expect(path).toMatch(/^\/i\/[A-Za-z0-9_-]{22}$/);
    const served = await handle(new Request(BASE + path));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toBe("public, max-age=604800, immutable");
    expect(served.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    const head = await handle(new Request(BASE + path, { method: "HEAD" }));
    expect([head.status, head.headers.get("content-type"), head.headers.get("content-length")]).toEqual([200, "image/png", String(PNG.length)]);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("gets a new address when it is replaced; the old one is gone", async () => {
    const first = ((await (await put("month", PNG)).json()) as { path: string }).path;
    const second = await put("month", JPEG);
    const { path, content_type } = (await second.json()) as { path: string; content_type: string };
    expect(content_type).toBe("image/jpeg");
    expect(path).not.toBe(first);
    expect((await handle(new Request(BASE + first))).status).toBe(404);
    expect((await handle(new Request(BASE + path))).headers.get("content-type")).toBe("image/jpeg");
  });

  it("keeps its address when the same bytes are put again under its name, and counts from then", async () => {
    const first = ((await (await put("p-abc.png", PNG, T0)).json()) as { path: string }).path;
    const again = ((await (await put("p-abc.png", PNG, T0 + 3 * DAY)).json()) as { path: string }).path;
    expect(again).toBe(first);
    await runCron(env, () => T0 + 7 * DAY + MINUTE, () => 0.5); // 7 days after the first upload, 4 after the second
    const served = await handle(new Request(BASE + first));
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    const other = ((await (await put("p-other.png", PNG)).json()) as { path: string }).path;
    expect(other).not.toBe(first); // another name, another address, even for the same bytes
  });

  it("answers 404 to an unknown or malformed address", async () => {
    expect((await handle(new Request(`${BASE}/i/AAAAAAAAAAAAAAAAAAAAAA`))).status).toBe(404);
    expect((await handle(new Request(`${BASE}/i/..%2Fapi`))).status).toBe(404);
  });

  it("is refused without the key, when it is not a PNG or JPEG, or when it is too large", async () => {
    expect((await call("/api/images/month", { method: "PUT", body: PNG, unsigned: true })).status).toBe(401);
    expect((await put("month", new TextEncoder().encode("<svg/>"))).status).toBe(415);
    const large = new Uint8Array(MAX_IMAGE_BYTES + 1);
    large.set(PNG.slice(0, 8));
    expect((await put("month", large)).status).toBe(413);
    expect((await put("a/b", PNG)).status).toBe(400);
    expect((await put("%E0%A4%A", PNG)).status).toBe(400); // not even valid percent-encoding
  });

  it("of a realistic size (500 KB) comes back byte for byte", async () => {
    const big = new Uint8Array(500_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251;
    big.set(PNG.slice(0, 8));
    const { path } = (await (await put("big", big)).json()) as { path: string };
    const served = new Uint8Array(await (await handle(new Request(BASE + path))).arrayBuffer());
    expect(served.length).toBe(big.length);
    expect(await sha256Hex(served)).toBe(await sha256Hex(big));
  });
});
