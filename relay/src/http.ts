/**
 * Small helpers for answers: JSON bodies and the error shape every route shares.
 */

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/** An error the app can act on: a stable `error` code, and words for a log. */
export function problem(status: number, error: string, message: string, headers: Record<string, string> = {}): Response {
  return json({ error, message }, status, headers);
}

export class BadRequest extends Error {}

/** The request's body as a JSON object, or a BadRequest. */
export function parseObject(raw: Uint8Array): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new BadRequest("the body is not JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new BadRequest("the body is not a JSON object");
  return value as Record<string, unknown>;
}

/** An instant given as ISO 8601 with a zone, in milliseconds since the epoch. */
export function instant(value: unknown, field: string): number {
  if (typeof value !== "string" || !/(Z|[+-]\d\d:\d\d)$/.test(value)) throw new BadRequest(`${field} must be an ISO 8601 time with its zone`);
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new BadRequest(`${field} is not a time`);
  return ms;
}

export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** A non-negative integer cursor from the query string (0 when absent). */
export function cursor(url: URL): number {
  const raw = url.searchParams.get("after") ?? "0";
  if (!/^\d{1,15}$/.test(raw)) throw new BadRequest("after must be a cursor from an earlier answer");
  return Number(raw);
}

/** The cursor an ack names: {"through": CURSOR}. */
export function through(body: Record<string, unknown>): number {
  const value = body.through;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new BadRequest("through must be a cursor");
  return value;
}
