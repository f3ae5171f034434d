/**
 * Calls to LINE's APIs, at the base the LINE_API_BASE var names (a stand-in in tests and local runs),
 * with a deadline: a call that has not answered in time is abandoned and counts as a timeout.
 */

import type { Settings } from "./env";

export interface LineAnswer {
  status: number | null; // null: no answer (timeout or network)
  transport: "timeout" | "connection" | null;
  requestId: string | null;
  acceptedRequestId: string | null;
  message: string | null; // LINE's own words, from the error body
  durationMs: number;
}

/** One request to LINE: its answer as the policy reads it, and the body as text (empty without one). */
export async function request(config: Settings, path: string, init: RequestInit): Promise<{ answer: LineAnswer; text: string }> {
  const started = Date.now();
  try {
    const response = await fetch(config.lineApiBase + path, { ...init, signal: AbortSignal.timeout(config.lineTimeoutMs) });
    const text = await response.text();
    let message: string | null = null;
    if (!response.ok) {
      try {
        const parsed = JSON.parse(text) as { message?: unknown };
        message = typeof parsed.message === "string" ? parsed.message : null;
      } catch {
        message = text.slice(0, 500) || null;
      }
    }
    return {
      answer: {
        status: response.status,
        transport: null,
        requestId: response.headers.get("x-line-request-id"),
        acceptedRequestId: response.headers.get("x-line-accepted-request-id"),
        message,
        durationMs: Date.now() - started,
      },
      text,
    };
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    return {
      answer: {
        status: null,
        transport: name === "TimeoutError" || name === "AbortError" ? "timeout" : "connection",
        requestId: null,
        acceptedRequestId: null,
        message: error instanceof Error ? error.message.slice(0, 500) : null,
        durationMs: Date.now() - started,
      },
      text: "",
    };
  }
}

/** A Messaging API call with a JSON body and the channel access token. */
export async function call(
  config: Settings,
  token: string,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<LineAnswer> {
  const sent = await request(config, path, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body,
  });
  return sent.answer;
}
