// What the teachers' page tests share: the app's hand-over (PUT /api/pages), ID tokens the LINE stand-in
// issues and verifies, the page's calls with one, and person and classroom documents as the app builds them.
import { env } from "cloudflare:workers";
import { BASE, call, DAY, handle, LINE, T0 } from "./helpers";

export const LOGIN_CHANNEL = "2000000001";
export const LIFF_ID = "2000000001-AbCdEfGh";
export const TEACHER_ID = `U${"1".repeat(32)}`;
export const OTHER_ID = `U${"2".repeat(32)}`;
export const MANAGER_ID = `U${"3".repeat(32)}`;
export const ACK = "ack=123:4";
export const PURGE = new Date(T0 + 40 * DAY).toISOString();

type Doc = Record<string, unknown>;

export function person(overrides: Doc = {}): Doc {
  return {
    v: 1, role: "teacher", name: "佐藤 花子", language: "ja", built_at: "2026-12-01T00:00:00Z",
    classrooms: [{ key: "c3", name: "本町教室", time_zone: "Asia/Tokyo", months: ["2026-12", "2027-01"] }],
    shifts: [{ id: 123, classroom: "c3", date: "2026-12-07", start: "16:00", end: "20:00", note: "", change: null, acked: false, ack: ACK },
      { id: 124, classroom: "c3", date: "2026-12-08", start: "16:00", end: "20:00", note: "", change: null, acked: true, ack: null }],
    availability: [{ request: 5, classroom: "c3", month: "2027-01", deadline: "2026-12-20", late: false, closed_days: ["2027-01-01"], answers: [] }],
    covers: [{ call: 9, classroom: "c3", date: "2026-12-10", start: "16:00", end: "20:00", asked_by: "田中 一郎", offered: false }],
    calendar_url: null,
    manager: null,
    ...overrides,
  };
}

export function manager(): Doc {
  return person({
    role: "manager", name: "山田 太郎", shifts: [], availability: [], covers: [],
    manager: { days: [{ date: "2026-12-01", classrooms: [{ key: "c3", name: "本町教室", shifts: [], covers: [],
      unanswered: [{ request: 5, month: "2027-01", teacher: 12, name: "鈴木 次郎", reminded: false }] }] }] },
  });
}

export function classroom(key: string, month: string): Doc {
  return { v: 1, classroom: key, name: "本町教室", month, built_at: "2026-12-01T00:00:00Z",
    days: [{ date: `${month}-01`, closed: false, holiday: null, shifts: [{ teacher: "佐藤 花子", start: "16:00", end: "20:00" }] }] };
}

export function entry(kind: string, key: string, body: Doc | string, purgeAfter = PURGE): Doc {
  return { kind, key, body: typeof body === "string" ? body : JSON.stringify(body), purge_after: purgeAfter };
}

/** PUT /api/pages as the app does it. */
export async function putPages(body: Doc, now?: number): Promise<Response> {
  return call("/api/pages", { method: "PUT", body, now });
}

/** The page set up: its settings, a teacher (another classroom's one too) and the manager, and c3's month. */
export async function handOver(): Promise<void> {
  const response = await putPages({
    settings: { login_channel_id: LOGIN_CHANNEL, liff_id: LIFF_ID },
    put: [
      entry("person", TEACHER_ID, person()),
      entry("person", OTHER_ID, person({ name: "高橋 三郎", classrooms: [{ key: "c4", name: "駅前教室", time_zone: "Asia/Tokyo", months: ["2026-12"] }] })),
      entry("person", MANAGER_ID, manager()),
      entry("classroom", "c3/2026-12", classroom("c3", "2026-12")),
      entry("classroom", "c4/2026-12", classroom("c4", "2026-12")),
    ],
  });
  if (response.status !== 200) throw new Error(`hand-over refused: ${response.status} ${await response.text()}`);
}

/** A LIFF ID token the LINE stand-in issued (and will verify) for this user and channel. */
export async function idToken(userId: string, options: { channel?: string; expiresIn?: number } = {}): Promise<string> {
  const response = await fetch(`${LINE}/__id-token`, {
    method: "POST",
    body: JSON.stringify({ user_id: userId, channel_id: options.channel ?? LOGIN_CHANNEL, expires_in: options.expiresIn ?? 3600 }),
  });
  return ((await response.json()) as { id_token: string }).id_token;
}

/** A call of the page, with `Bearer <token>` when one is given. */
export async function liff(path: string, options: { token?: string | null; method?: string; body?: unknown; raw?: string; now?: number; environment?: Cloudflare.Env } = {}): Promise<Response> {
  const headers = new Headers();
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers.set("content-type", "application/json");
  return handle(new Request(BASE + path, { method: options.method ?? (body === undefined ? "GET" : "POST"), headers, body }), options.now, options.environment ?? env);
}

export async function signedIn(userId = TEACHER_ID): Promise<(path: string, options?: { body?: unknown; raw?: string; now?: number }) => Promise<Response>> {
  const token = await idToken(userId);
  return (path, options = {}) => liff(path, { ...options, token });
}

export async function pulledEvents(): Promise<{ cursor: number; webhook_event_id: string; event: Record<string, unknown> }[]> {
  return ((await (await call("/api/events")).json()) as { events: { cursor: number; webhook_event_id: string; event: Record<string, unknown> }[] }).events;
}
