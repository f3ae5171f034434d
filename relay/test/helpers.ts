// What the tests share: signed calls the way the app makes them, LINE's webhook signature, the LINE
// stand-in's controls, and a clock the tests set.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { canonical } from "../src/auth";
import { base64url, fromHex, hmac, sha256Hex, utf8 } from "../src/crypto";
import { route } from "../src/app";
import type { PulledOutcome } from "../src/outcomes";

export const BASE = "https://relay.test";
export const LINE = "https://line.test";
let nonces = 0;

export interface Call {
  method?: string;
  body?: unknown; // an object is sent as JSON, a Uint8Array as it is
  now?: number; // the relay's clock
  ts?: number; // the signer's clock, in ms (default: now)
  nonce?: string;
  key?: string;
  base?: string;
  unsigned?: boolean;
  alter?: (header: string) => string;
  environment?: Cloudflare.Env;
}

function bytesOf(body: unknown): Uint8Array {
  if (body === undefined) return new Uint8Array();
  if (body instanceof Uint8Array) return body;
  return utf8(JSON.stringify(body));
}

export async function authorization(method: string, pathAndQuery: string, body: Uint8Array, ts: number, nonce: string, key = env.RELAY_KEY): Promise<string> {
  const seconds = String(Math.floor(ts / 1000));
  const message = canonical(method, pathAndQuery, seconds, nonce, await sha256Hex(body));
  const sig = [...(await hmac(fromHex(key)!, utf8(message)))].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `Shiftcast-HMAC ts=${seconds}, nonce=${nonce}, sig=${sig}`;
}

/** A call to the relay as the app makes it (signed), through the Worker's router with the clock set. */
export async function call(path: string, options: Call = {}): Promise<Response> {
  const method = options.method ?? "GET";
  const now = options.now ?? Date.now();
  const body = bytesOf(options.body);
  const url = new URL(path, options.base ?? BASE);
  const headers = new Headers();
  if (!options.unsigned) {
    const nonce = options.nonce ?? `nonce-${Date.now()}-${(nonces += 1)}-${base64url(crypto.getRandomValues(new Uint8Array(6)))}`;
    let header = await authorization(method, url.pathname + url.search, body, options.ts ?? now, nonce, options.key);
    if (options.alter) header = options.alter(header);
    headers.set("authorization", header);
  }
  const request = new Request(url, { method, headers, body: method === "GET" ? undefined : body });
  return handle(request, now, options.environment);
}

export async function handle(request: Request, now = Date.now(), environment: Cloudflare.Env = env): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await route(request, environment, ctx, now);
  await waitOnExecutionContext(ctx); // work done after answering (pairing replies) is finished too
  return response;
}

export async function lineSignature(body: string, secret = env.LINE_CHANNEL_SECRET): Promise<string> {
  const mac = await hmac(utf8(secret), utf8(body));
  return btoa(String.fromCharCode(...mac));
}

export async function webhook(body: string, signature: string | null, now = Date.now(), environment: Cloudflare.Env = env): Promise<Response> {
  const headers = new Headers({ "content-type": "application/json" });
  if (signature !== null) headers.set("x-line-signature", signature);
  return handle(new Request(`${BASE}/line/webhook`, { method: "POST", headers, body }), now, environment);
}

export interface Received {
  path: string;
  retryKey: string | null;
  authorization: string | null;
  to: string;
  body: Record<string, unknown>;
}

export async function lineLog(): Promise<Received[]> {
  return (await fetch(`${LINE}/__log`)).json();
}

export async function script(to: string, answers: { status: number; message?: string; hangMs?: number }[]): Promise<void> {
  await fetch(`${LINE}/__script`, { method: "POST", body: JSON.stringify({ to, answers }) });
}

export const T0 = Date.parse("2026-12-01T00:00:00Z");
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A clock the test moves; the relay reads it wherever it needs the time. */
export function clock(start: number): { now: () => number; set: (at: number) => void } {
  let at = start;
  return { now: () => at, set: (to: number) => { at = to; } };
}

export const TEACHER = `U${"b".repeat(32)}`;

/** A reminder as the app uploads it: due at T0, its shift starting two hours later. */
export function delivery(id: string, version: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    subject_version: version,
    path: "/v2/bot/message/push",
    body: { to: TEACHER, messages: [{ type: "text", text: `reminder ${id} v${version}` }] },
    retry_key: crypto.randomUUID(),
    due_at: new Date(T0).toISOString(),
    not_after: new Date(T0 + 2 * HOUR).toISOString(),
    ...overrides,
  };
}


/** PUT /api/deliveries as the app does it, an hour before T0. */
export async function upload(deliveries: unknown[], now = T0 - HOUR): Promise<{ id: string; result: string }[]> {
  const response = await call("/api/deliveries", { method: "PUT", body: { deliveries }, now });
  if (response.status !== 200) throw new Error(`upload refused: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { results: { id: string; result: string }[] }).results;
}

export async function outcomes(after = 0): Promise<PulledOutcome[]> {
  return ((await (await call(`/api/outcomes?after=${after}`)).json()) as { outcomes: PulledOutcome[] }).outcomes;
}
