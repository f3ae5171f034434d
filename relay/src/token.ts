/**
 * The channel access token the relay calls LINE with.
 *
 * A long-lived token set as LINE_CHANNEL_ACCESS_TOKEN is used as it is. Without one, the relay issues
 * itself a stateless token from LINE_CHANNEL_ID and LINE_CHANNEL_SECRET (POST /oauth2/v3/token,
 * client_credentials; valid 15 minutes, not revocable, no limit on how many are live), as the app does
 * (core/channels/line_token.py). LINE asks that a token is reused rather than issued per call, so the
 * token is kept in D1 (line_token) and used by every run until it would expire within the longest run
 * (`longestRunMs`), then replaced. The row names the credentials it was issued for (a SHA-256 of the ID
 * and secret): after the manager's new secret reaches the relay, a token issued with the old one is
 * never used. A token LINE refuses anyway (401) is dropped, so the next run issues a new one.
 *
 * When no token can be had, the token endpoint's answer stands for the call's, as the policy reads it:
 * refused credentials (LINE's 400 invalid_client, or none set) count as a 401 (the delivery is held,
 * as for a refused token), a 5xx or a timeout as themselves (retried).
 */

import { sha256Hex } from "./crypto";
import { type Env, longestRunMs, type Settings } from "./env";
import { type LineAnswer, request } from "./line";

export const TOKEN_PATH = "/oauth2/v3/token";

export type Grant = { token: string; stateless: boolean } | { refused: LineAnswer };

function refusedAnswer(message: string, from: LineAnswer | null = null): LineAnswer {
  return {
    status: 401,
    transport: null,
    requestId: from?.requestId ?? null,
    acceptedRequestId: null,
    message,
    durationMs: from?.durationMs ?? 0,
  };
}

/** Whether a token that expires at `expiresAt` is still worth using at `now`: it outlives the longest run. */
export function usable(expiresAt: number, now: number, config: Settings): boolean {
  return now < expiresAt - longestRunMs(config);
}

function credentialsOf(env: Env): Promise<string> {
  return sha256Hex(`${env.LINE_CHANNEL_ID}:${env.LINE_CHANNEL_SECRET}`);
}

async function issue(env: Env, config: Settings, now: number): Promise<{ token: string; expiresAt: number } | LineAnswer> {
  const form = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: env.LINE_CHANNEL_ID ?? "",
    client_secret: env.LINE_CHANNEL_SECRET,
  });
  const { answer, text } = await request(config, TOKEN_PATH, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
  });
  let parsed: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    // not JSON: judged by the status alone
  }
  if (answer.status === 200 && typeof parsed.access_token === "string" && parsed.access_token !== "" &&
      typeof parsed.expires_in === "number" && parsed.expires_in > 0) {
    return { token: parsed.access_token, expiresAt: now + parsed.expires_in * 1000 };
  }
  if (answer.status === 400 || answer.status === 401 || answer.status === 200) {
    // OAuth's error shape: {error, error_description} (channel-access-token.yml's ErrorResponse).
    const said = [parsed.error, parsed.error_description].filter((v) => typeof v === "string").join(": ");
    return refusedAnswer(`LINE issued no token (HTTP ${answer.status}${said ? `: ${said}` : ""})`, answer);
  }
  return answer; // 429, 5xx, timeouts: as a send's answer would be
}

/** The token for LINE calls at `now`, issued (and kept) first when the relay has only the channel ID and secret. */
export async function accessToken(env: Env, config: Settings, now: number): Promise<Grant> {
  if (env.LINE_CHANNEL_ACCESS_TOKEN) return { token: env.LINE_CHANNEL_ACCESS_TOKEN, stateless: false };
  if (!env.LINE_CHANNEL_ID || !env.LINE_CHANNEL_SECRET) {
    return { refused: refusedAnswer("the relay has no channel access token, and no channel ID and secret to issue one") };
  }
  const credentials = await credentialsOf(env);
  const kept = await env.DB.prepare("SELECT token, expires_at FROM line_token WHERE id = 1 AND credentials = ?")
    .bind(credentials)
    .first<{ token: string; expires_at: number }>();
  if (kept !== null && usable(kept.expires_at, now, config)) return { token: kept.token, stateless: true };
  const issued = await issue(env, config, now);
  if (!("token" in issued)) return { refused: issued };
  await env.DB.prepare(
    "INSERT INTO line_token (id, credentials, token, expires_at) VALUES (1, ?, ?, ?) " +
      "ON CONFLICT (id) DO UPDATE SET credentials = excluded.credentials, token = excluded.token, expires_at = excluded.expires_at",
  ).bind(credentials, issued.token, issued.expiresAt).run();
  return { token: issued.token, stateless: true };
}

/** Forget a stateless token LINE refused, unless another run replaced it already. */
export function dropToken(db: D1Database, token: string): D1PreparedStatement {
  return db.prepare("DELETE FROM line_token WHERE id = 1 AND token = ?").bind(token);
}
