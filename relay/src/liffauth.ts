/**
 * Who is asking on the teachers' page: every /liff/api/ call carries `Authorization: Bearer <LIFF ID
 * token>`, which the relay has LINE Login verify (POST /oauth2/v2.1/verify, form id_token and client_id
 * = the LINE Login channel the app handed over in page_settings). LINE checks the signature, the expiry
 * and the audience; the relay trusts its 200 alone and reads `sub`, the viewer's LINE user ID. Anything
 * else is a 401 (`www-authenticate: Bearer`): no or malformed header, no page settings, LINE's refusal,
 * or no answer from LINE in time. A verified user the app has handed no person document for is not
 * paired: 403.
 */

import type { Env, Settings } from "./env";
import { problem } from "./http";
import { request as lineRequest } from "./line";

export const VERIFY_PATH = "/oauth2/v2.1/verify";
// A JWT: three base64url parts. LINE's ID tokens are under 2 KB; the bound keeps a junk header cheap.
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;
const MAX_TOKEN_CHARS = 8_000;

export interface Viewer {
  userId: string;
  person: string; // the person document, as the app handed it over (JSON text)
}

export function unauthorized(message: string, headers: Record<string, string>): Response {
  return problem(401, "unauthorized", message, { ...headers, "www-authenticate": "Bearer" });
}

/** The LINE user ID LINE vouches for, or why not (words for the log and the page). */
async function verify(config: Settings, token: string, clientId: string): Promise<{ userId: string } | { refused: string }> {
  const { answer, text } = await lineRequest(config, VERIFY_PATH, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ id_token: token, client_id: clientId }).toString(),
  });
  if (answer.status === null) return { refused: `LINE did not answer the sign-in check (${answer.transport})` };
  let claims: { sub?: unknown; error_description?: unknown } = {};
  try {
    claims = JSON.parse(text) as typeof claims;
  } catch {
    // not JSON: judged by the status alone
  }
  if (answer.status === 200 && typeof claims.sub === "string" && claims.sub !== "") return { userId: claims.sub };
  const said = typeof claims.error_description === "string" ? `: ${claims.error_description}` : "";
  return { refused: `LINE did not confirm the sign-in (HTTP ${answer.status}${said})` };
}

/**
 * The viewer of a /liff/api/ call with their person document, or the refusal to answer. D1: one query
 * (the settings) before LINE's check and one after (the person document, with `more` in its batch).
 */
export async function viewer<T = never>(
  request: Request, env: Env, config: Settings, headers: Record<string, string>,
  more: (userId: string) => D1PreparedStatement[] = () => [],
): Promise<{ viewer: Viewer; more: D1Result<T>[] } | Response> {
  const header = request.headers.get("authorization") ?? "";
  const token = header.length <= MAX_TOKEN_CHARS ? BEARER.exec(header)?.[1] : undefined;
  if (token === undefined) return unauthorized("the Authorization header must be Bearer <LIFF ID token>", headers);
  const settings = await env.DB.prepare("SELECT login_channel_id FROM page_settings WHERE id = 1").first<{ login_channel_id: string }>();
  if (settings === null) return unauthorized("the teachers' page is not set up on this relay", headers);
  const checked = await verify(config, token, settings.login_channel_id);
  if ("refused" in checked) return unauthorized(checked.refused, headers);
  const [person, ...rest] = await env.DB.batch<unknown>([
    env.DB.prepare("SELECT body FROM pages WHERE kind = 'person' AND key = ?").bind(checked.userId),
    ...more(checked.userId),
  ]);
  const body = (person!.results[0] as { body: string } | undefined)?.body;
  if (body === undefined) return problem(403, "not_paired", "this LINE account is not paired with a teacher of the classroom", headers);
  return { viewer: { userId: checked.userId, person: body }, more: rest as D1Result<T>[] };
}
