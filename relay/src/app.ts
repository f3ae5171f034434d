/**
 * The relay's routes and its cron run, with the clock passed in (src/index.ts hands them the runtime's;
 * tests set their own). docs/relay.md describes every route.
 */

import { refusal } from "./auth";
import * as deliveries from "./deliveries";
import { type Env, settings } from "./env";
import * as events from "./events";
import { BadRequest, cursor, json, parseObject, problem, through } from "./http";
import { feed } from "./ics";
import * as images from "./images";
import { liffApi } from "./liffapi";
import * as outcomes from "./outcomes";
import * as pages from "./pages";
import * as pairing from "./pairing";
import { purge } from "./retention";
import { send, type RunSummary } from "./sending";
import { serve } from "./statics";
import { RELAY_VERSION } from "./version";
import { receive } from "./webhook";

const MAX_BODY_BYTES = 2_000_000;
const REFUSALS: Record<string, string> = {
  missing: "the Authorization header is missing",
  malformed: "the Authorization header is not Shiftcast-HMAC ts=…, nonce=…, sig=…",
  stale: "the timestamp is more than 5 minutes off the relay's clock",
  signature: "the signature does not match",
  replayed: "this nonce was used before",
};

async function schemaVersion(db: D1Database): Promise<number | null> {
  try {
    const row = await db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").first<{ value: string }>();
    return row === null ? null : Number(row.value);
  } catch {
    return null; // no migrations applied yet
  }
}

async function api(request: Request, url: URL, body: Uint8Array, env: Env, now: number): Promise<Response> {
  const { method } = request;
  const path = url.pathname;
  if (method === "PUT" && path.startsWith("/api/images/")) return images.put(env.DB, path.slice("/api/images/".length), body, now);
  if (method === "GET" && path === "/api/events") return json(await events.pull(env.DB, cursor(url)));
  if (method === "POST" && path === "/api/events/ack") return json(await events.ack(env.DB, through(parseObject(body))));
  if (method === "GET" && path === "/api/outcomes") return json(await outcomes.pull(env.DB, cursor(url)));
  if (method === "POST" && path === "/api/outcomes/ack") return json(await outcomes.ack(env.DB, through(parseObject(body))));
  if (method === "PUT" && path === "/api/deliveries") return json(await deliveries.upload(env.DB, parseObject(body), now));
  if (method === "PUT" && path === "/api/pages") return json(await pages.upload(env.DB, parseObject(body), now));
  if (method === "DELETE" && path === "/api/pages") return json(await pages.removeAll(env.DB));
  if (method === "PUT" && path === "/api/pairing-codes") return json(await pairing.upload(env.DB, parseObject(body)));
  if (method === "POST" && path === "/api/heartbeat") {
    const sender = parseObject(body).sender;
    if (typeof sender !== "string" || sender.length === 0 || sender.length > 100) throw new BadRequest("sender must name the app sender (1–100 characters)");
    await env.DB.prepare("INSERT INTO heartbeats (sender, at) VALUES (?, ?) ON CONFLICT (sender) DO UPDATE SET at = excluded.at").bind(sender, now).run();
    return json({ at: new Date(now).toISOString() });
  }
  return problem(404, "not_found", "no such route");
}

/** Every request, with the time passed in (tests set it). */
export async function route(request: Request, env: Env, ctx: ExecutionContext, now: number): Promise<Response> {
  const url = new URL(request.url);
  const config = settings(env);
  if (url.protocol !== "https:" && !config.allowHttp) return problem(403, "https_only", "the relay answers only over HTTPS");
  if (request.method === "GET" && url.pathname === "/health") {
    return json({ version: RELAY_VERSION, schema_version: await schemaVersion(env.DB) });
  }
  if ((request.method === "GET" || request.method === "HEAD") && url.pathname.startsWith("/i/")) {
    return images.get(env.DB, url.pathname.slice(3), request.method === "HEAD");
  }
  // The teachers' page: its own sign-in (LIFF), size limit and headers.
  if (url.pathname.startsWith("/liff/api/")) return liffApi(request, url, env, config, now);
  if (url.pathname.startsWith("/liff/")) return serve(request, url, env, config);
  if (url.pathname === "/liff") return Response.redirect(`${url.origin}/liff/${url.search}`, 308);
  if ((request.method === "GET" || request.method === "HEAD") && url.pathname.startsWith("/ics/")) {
    return feed(env.DB, url.pathname, request.method === "HEAD");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return problem(413, "too_large", "the body is too large");
  const body = new Uint8Array(await request.arrayBuffer());
  if (body.length > MAX_BODY_BYTES) return problem(413, "too_large", "the body is too large");
  if (request.method === "POST" && url.pathname === "/line/webhook") return receive(request, body, env, config, ctx, now);
  if (!url.pathname.startsWith("/api/")) return problem(404, "not_found", "no such route");
  const refused = await refusal(request, url, body, env, now);
  if (refused === "not_configured") return problem(503, "not_configured", "the relay key is not set");
  if (refused !== null) return problem(401, refused, REFUSALS[refused]!, { "www-authenticate": "Shiftcast-HMAC" });
  try {
    return await api(request, url, body, env, now);
  } catch (error) {
    if (error instanceof BadRequest) return problem(400, "bad_request", error.message);
    throw error;
  }
}

/** One cron run at `clock()`: send what is due (unless an app sender is awake), then purge. */
export async function runCron(env: Env, clock: () => number, random: () => number = Math.random): Promise<RunSummary> {
  const summary = await send(env, settings(env), clock, random);
  await purge(env.DB, clock());
  console.log(`relay run: ${summary.attempted} attempted, ${summary.sent} sent, ${summary.expired} expired${summary.senderAwake ? ", an app sender is awake" : ""}`);
  return summary;
}
