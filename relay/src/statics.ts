/**
 * The teachers' page itself (relay/page/, bundled into the Worker as text): GET /liff/ (and
 * /liff/index.html), /liff/app.js, /liff/app.css, and /liff/config, the LIFF ID the app handed over.
 * No token: the page signs in with LIFF once it runs. The HTML loads the LIFF SDK from the LIFF_SDK_URL
 * var (LINE's CDN; the LINE emulator's stand-in in local runs and tests), written over the placeholder
 * {{LIFF_SDK_URL}}, and every /liff/ answer carries the same security headers: the page runs only its
 * own script and the SDK, talks only to the relay and the SDK's origin (and LINE's own hosts with LINE's SDK), and is framed by no one.
 */

import html from "../page/index.html";
import script from "../page/app.js";
import style from "../page/app.css";
import type { Env, Settings } from "./env";
import { json, problem } from "./http";

const PLACEHOLDER = "{{LIFF_SDK_URL}}";
const STATIC_CACHE = "public, max-age=300";
const HTML = "text/html; charset=utf-8";
const FILES: Record<string, { type: string; text: string } | undefined> = {
  "/liff/": { type: HTML, text: html },
  "/liff/index.html": { type: HTML, text: html },
  "/liff/app.js": { type: "text/javascript; charset=utf-8", text: script },
  "/liff/app.css": { type: "text/css; charset=utf-8", text: style },
};

// LINE's own SDK talks to LINE's API and login hosts and loads its modules from its CDN: with it, the
// page may reach those (LINE's, like the SDK itself) and nothing else but the relay.
const LINE_SDK_HOSTS = "https://api.line.me https://access.line.me https://liffsdk.line-scdn.net";

/** The headers of every /liff/ answer but its cache-control. */
export function securityHeaders(config: Settings): Record<string, string> {
  const sdk = new URL(config.liffSdkUrl);
  const lines = sdk.protocol === "https:" && sdk.hostname.endsWith(".line-scdn.net");
  const connect = lines ? `${sdk.origin} ${LINE_SDK_HOSTS}` : sdk.origin;
  return {
    "content-security-policy": `default-src 'none'; script-src 'self' ${sdk.origin}; style-src 'self'; img-src 'self' data:; ` +
      `connect-src 'self' ${connect}; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  };
}

/** The headers of a /liff/api/ (or /liff/config) answer: never kept by a cache. */
export function apiHeaders(config: Settings): Record<string, string> {
  return { ...securityHeaders(config), "cache-control": "no-store" };
}

function attribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** GET or HEAD of a /liff/ path that is not the API. */
export async function serve(request: Request, url: URL, env: Env, config: Settings): Promise<Response> {
  const headers = apiHeaders(config);
  if (request.method !== "GET" && request.method !== "HEAD") return problem(405, "method_not_allowed", "only GET", { ...headers, allow: "GET, HEAD" });
  if (url.pathname === "/liff/config") {
    const row = await env.DB.prepare("SELECT liff_id FROM page_settings WHERE id = 1").first<{ liff_id: string }>();
    if (row === null) return problem(404, "not_found", "the app has not handed over the page's LIFF ID", headers);
    return json({ liff_id: row.liff_id }, 200, headers);
  }
  const file = FILES[url.pathname];
  if (file === undefined) return problem(404, "not_found", "no such file", headers);
  const text = file.type === HTML ? file.text.replaceAll(PLACEHOLDER, attribute(config.liffSdkUrl)) : file.text;
  return new Response(request.method === "HEAD" ? null : text, {
    headers: { ...securityHeaders(config), "content-type": file.type, "cache-control": STATIC_CACHE },
  });
}
