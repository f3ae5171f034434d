/**
 * The Worker's bindings (wrangler.toml) and the settings read from its vars, with their defaults.
 */

export interface Env {
  DB: D1Database;
  // Secrets (wrangler secret put): never in wrangler.toml.
  LINE_CHANNEL_SECRET: string;
  // A long-lived channel access token; without one, the relay issues its own from the channel ID and
  // secret (src/token.ts).
  LINE_CHANNEL_ACCESS_TOKEN?: string;
  LINE_CHANNEL_ID?: string;
  RELAY_KEY: string;
  // Vars.
  LINE_API_BASE?: string;
  ALLOW_HTTP?: string;
  SENDER_QUIET_MINUTES?: string;
  MAX_SENDS_PER_RUN?: string;
  LINE_TIMEOUT_MS?: string;
  LIFF_SDK_URL?: string;
}

export interface Settings {
  lineApiBase: string;
  allowHttp: boolean;
  senderQuietMs: number;
  maxSendsPerRun: number;
  lineTimeoutMs: number;
  liffSdkUrl: string;
}

// Free plan: 50 subrequests and 50 D1 queries per invocation. A cron run spends one fetch and one D1
// batch per send and six queries besides (docs/relay.md): 20 sends make 46 even if D1 calls counted
// as subrequests too.
export const MAX_SENDS_CEILING = 20;
export const DEFAULT_LIFF_SDK_URL = "https://static.line-scdn.net/liff/edge/2/sdk.js";

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== "" && Number.isFinite(n) && n > 0 ? n : fallback;
}

/** The LIFF SDK's address: the var when it is an http(s) URL, else LINE's. */
function sdkUrl(value: string | undefined): string {
  try {
    const url = new URL(value ?? "");
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : DEFAULT_LIFF_SDK_URL;
  } catch {
    return DEFAULT_LIFF_SDK_URL;
  }
}

export function settings(env: Env): Settings {
  return {
    lineApiBase: (env.LINE_API_BASE || "https://api.line.me").replace(/\/+$/, ""),
    allowHttp: env.ALLOW_HTTP === "1",
    senderQuietMs: positive(env.SENDER_QUIET_MINUTES, 5) * 60_000,
    maxSendsPerRun: Math.min(Math.floor(positive(env.MAX_SENDS_PER_RUN, 10)), MAX_SENDS_CEILING),
    lineTimeoutMs: positive(env.LINE_TIMEOUT_MS, 10_000),
    liffSdkUrl: sdkUrl(env.LIFF_SDK_URL),
  };
}

/** The longest a cron run can take: every send waiting out its deadline, and a minute besides. A run's
 * rows are leased this long, and a token it starts with must live longer than this. */
export function longestRunMs(config: Settings): number {
  return config.maxSendsPerRun * config.lineTimeoutMs + 60_000;
}
