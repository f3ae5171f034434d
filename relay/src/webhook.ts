/**
 * The LINE webhook: POST /line/webhook. The signature (x-line-signature = base64 HMAC-SHA256 of the raw
 * body with the channel secret) is checked in constant time before the body is parsed; each event is
 * stored once by its webhookEventId and waits for the app to pull it; LINE gets its 200 as soon as the
 * events are stored, and the replies to pairing codes go out after it.
 */

import { fromBase64, hmacVerify, utf8 } from "./crypto";
import type { Env, Settings } from "./env";
import { problem, json } from "./http";
import { call } from "./line";
import { asCode, replyFor } from "./pairing";
import { accessToken, dropToken } from "./token";

interface LineEvent {
  webhookEventId?: unknown;
  type?: unknown;
  replyToken?: unknown;
  source?: { type?: unknown; userId?: unknown };
  message?: { type?: unknown; text?: unknown };
  deliveryContext?: { isRedelivery?: unknown };
}

export async function signatureValid(secret: string, body: Uint8Array, header: string | null): Promise<boolean> {
  if (!secret || !header) return false;
  const signature = fromBase64(header.trim());
  if (signature === null || signature.length !== 32) return false;
  return hmacVerify(utf8(secret), signature, body);
}

/** A pairing code in a user's text message that can still be answered, or null. */
function pairingAttempt(event: LineEvent): { userId: string; code: string; replyToken: string } | null {
  const { source, message, replyToken } = event;
  if (event.type !== "message" || source?.type !== "user" || typeof source.userId !== "string") return null;
  if (message?.type !== "text" || typeof message.text !== "string" || typeof replyToken !== "string") return null;
  if (event.deliveryContext?.isRedelivery === true) return null; // its reply token is long spent
  const code = asCode(message.text);
  return code === null ? null : { userId: source.userId, code, replyToken };
}

async function answerPairing(env: Env, config: Settings, attempt: { userId: string; code: string; replyToken: string }, now: number): Promise<void> {
  const text = await replyFor(env.DB, attempt.userId, attempt.code, now);
  if (text === null) return;
  const grant = await accessToken(env, config, now);
  const answer = "refused" in grant ? grant.refused : await call(config, grant.token, "/v2/bot/message/reply",
    JSON.stringify({ replyToken: attempt.replyToken, messages: [{ type: "text", text }] }));
  if ("token" in grant && grant.stateless && answer.status === 401) await dropToken(env.DB, grant.token).run();
  // A reply token is single-use and short-lived: a failed reply is logged, not retried.
  if (answer.status !== 200) console.warn(`a pairing reply was refused: ${answer.status ?? answer.transport} ${answer.message ?? ""}`);
}

export async function receive(request: Request, body: Uint8Array, env: Env, config: Settings, ctx: ExecutionContext, now: number): Promise<Response> {
  if (!(await signatureValid(env.LINE_CHANNEL_SECRET, body, request.headers.get("x-line-signature")))) {
    return problem(401, "bad_signature", "the x-line-signature header does not sign this body");
  }
  let events: LineEvent[];
  try {
    const parsed = JSON.parse(new TextDecoder().decode(body)) as { events?: unknown };
    events = Array.isArray(parsed.events) ? (parsed.events as LineEvent[]) : [];
  } catch {
    return problem(400, "bad_body", "the body is not JSON");
  }
  const stored = events.filter((e) => typeof e === "object" && e !== null && typeof e.webhookEventId === "string");
  if (stored.length > 0) {
    const insert = env.DB.prepare("INSERT INTO events (webhook_event_id, body, received_at) VALUES (?, ?, ?) ON CONFLICT (webhook_event_id) DO NOTHING");
    const results = await env.DB.batch(stored.map((e) => insert.bind(e.webhookEventId as string, JSON.stringify(e), now)));
    // Only events seen for the first time are answered: a redelivered one was answered before.
    stored.forEach((event, i) => {
      const attempt = results[i]!.meta.changes === 1 ? pairingAttempt(event) : null;
      if (attempt !== null) ctx.waitUntil(answerPairing(env, config, attempt, now));
    });
  }
  return json({});
}
