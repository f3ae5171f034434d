/**
 * The teachers' page's calls, each for the signed-in viewer only (src/liffauth.ts):
 *
 *     GET  /liff/api/me                              their person document and their answers not yet taken in
 *     GET  /liff/api/classroom?key=c3&month=2026-12  a month of a classroom their document lists
 *     POST /liff/api/answers                         one answer (src/answers.ts), 202
 *
 * An accepted answer becomes an event of type "page" in `events`, pulled by the app through
 * /api/events like LINE's, and replaces the viewer's earlier answer to the same thing in page_answers
 * (shown on the page until the app's next put says it has taken the event in), both in one D1 batch;
 * the same answer again while that one waits makes no second event.
 * Per call: one LINE call (the token's check) and two D1 calls (three for an answer).
 */

import { accept } from "./answers";
import { hex } from "./crypto";
import type { Env, Settings } from "./env";
import { BadRequest, json, problem } from "./http";
import { viewer } from "./liffauth";
import { apiHeaders } from "./statics";

export const MAX_ANSWER_BYTES = 20_000;
const CLASSROOM = /^[A-Za-z0-9_-]{1,50}$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

function documentOf(text: string): Record<string, unknown> {
  const value = JSON.parse(text) as unknown;
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {};
}

/** A JSON answer made of texts already JSON (documents are handed on as the app wrote them). */
function jsonText(text: string, headers: Record<string, string>): Response {
  return new Response(text, { headers: { ...headers, "content-type": "application/json; charset=utf-8" } });
}

async function me(request: Request, env: Env, config: Settings, headers: Record<string, string>): Promise<Response> {
  const found = await viewer<{ body: string }>(request, env, config, headers, (userId) => [
    env.DB.prepare("SELECT body FROM page_answers WHERE user_id = ? ORDER BY at").bind(userId),
  ]);
  if (found instanceof Response) return found;
  const answers = found.more[0]!.results.map((r) => r.body);
  return jsonText(`{"person":${found.viewer.person},"answers":[${answers.join(",")}]}`, headers);
}

async function classroom(request: Request, url: URL, env: Env, config: Settings, headers: Record<string, string>): Promise<Response> {
  const key = url.searchParams.get("key") ?? "";
  const month = url.searchParams.get("month") ?? "";
  if (!CLASSROOM.test(key) || !MONTH.test(month)) throw new BadRequest("key must name a classroom and month be YYYY-MM");
  const found = await viewer<{ body: string }>(request, env, config, headers, () => [
    env.DB.prepare("SELECT body FROM pages WHERE kind = 'classroom' AND key = ?").bind(`${key}/${month}`),
  ]);
  if (found instanceof Response) return found;
  const classrooms = documentOf(found.viewer.person).classrooms;
  const member = Array.isArray(classrooms) && classrooms.some((c: { key?: unknown } | null) => c?.key === key);
  if (!member) return problem(403, "not_member", "this classroom is not one of yours", headers);
  const body = found.more[0]!.results[0]?.body;
  if (body === undefined) return problem(404, "not_found", "this month of the classroom is not published", headers);
  return jsonText(body, headers);
}

async function answer(request: Request, env: Env, config: Settings, headers: Record<string, string>, now: number): Promise<Response> {
  const tooLarge = () => problem(413, "too_large", `an answer is at most ${MAX_ANSWER_BYTES} bytes`, headers);
  if (Number(request.headers.get("content-length") ?? "0") > MAX_ANSWER_BYTES) return tooLarge();
  const raw = new Uint8Array(await request.arrayBuffer());
  if (raw.length > MAX_ANSWER_BYTES) return tooLarge();
  const found = await viewer(request, env, config, headers);
  if (found instanceof Response) return found;
  let posted: unknown;
  try {
    posted = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new BadRequest("the body is not JSON");
  }
  const { page, target } = accept(posted, documentOf(found.viewer.person));
  const id = `page-${hex(crypto.getRandomValues(new Uint8Array(16)))}`;
  const event = { type: "page", webhookEventId: id, timestamp: now, mode: "active", source: { type: "user", userId: found.viewer.userId }, page };
  const body = JSON.stringify(page);
  // The same answer again while the app has not yet taken the first in (a second tap, a replayed
  // request) makes no second event: a manager's Remind would otherwise reach the teacher twice.
  const [stored] = await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO events (webhook_event_id, body, received_at) SELECT ?, ?, ? " +
        "WHERE NOT EXISTS (SELECT 1 FROM page_answers WHERE user_id = ? AND target = ? AND body = ?)",
    ).bind(id, JSON.stringify(event), now, found.viewer.userId, target, body),
    env.DB.prepare(
      "INSERT INTO page_answers (user_id, target, body, event_seq, at) SELECT ?, ?, ?, seq, ? FROM events WHERE webhook_event_id = ? " +
        "ON CONFLICT (user_id, target) DO UPDATE SET body = excluded.body, event_seq = excluded.event_seq, at = excluded.at",
    ).bind(found.viewer.userId, target, body, now, id),
  ]);
  return json({ accepted: true, repeated: stored!.meta.changes === 0 }, 202, headers);
}

/** A /liff/api/ call. */
export async function liffApi(request: Request, url: URL, env: Env, config: Settings, now: number): Promise<Response> {
  const headers = apiHeaders(config);
  const { method } = request;
  const path = url.pathname;
  try {
    if (method === "GET" && path === "/liff/api/me") return await me(request, env, config, headers);
    if (method === "GET" && path === "/liff/api/classroom") return await classroom(request, url, env, config, headers);
    if (method === "POST" && path === "/liff/api/answers") return await answer(request, env, config, headers, now);
  } catch (error) {
    if (error instanceof BadRequest) return problem(400, "bad_request", error.message, headers);
    throw error;
  }
  return problem(404, "not_found", "no such route", headers);
}
