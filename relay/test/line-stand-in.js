// A stand-in for LINE's Messaging API, run as its own Worker beside the tests: every fetch the relay
// makes goes here (vitest.config.ts routes the runner's outbound requests to it). It remembers accepted
// retry keys as LINE does (a repeat answers 409 with x-line-accepted-request-id), answers in the order a
// test scripts for a recipient, and keeps a log of what it received.
//
// It issues stateless channel access tokens as LINE does (POST /oauth2/v3/token, client_credentials with
// the channel ID and secret of its bindings; invalid_client otherwise) and takes, on every other call,
// only the long-lived token of its bindings or a token it issued: anything else answers 401.
//
// It verifies LIFF ID tokens as LINE Login does (POST /oauth2/v2.1/verify, form id_token and client_id):
// 200 with the claims, or 400 invalid_request "IdToken expired." / "Invalid IdToken." (forged or
// malformed) / "Invalid IdToken Audience." (client_id is not the token's aud). Its tokens are JWTs
// signed with HS256 and the ID_TOKEN_SECRET of its bindings, issued by /__id-token (LINE's are ES256;
// the relay never looks inside a token, so the stand-in's own kind does).
//
//   POST /__script {to, answers: [{status, message?, hangMs?}]}   queue answers for a recipient
//   GET  /__log                                                   what arrived, in order
//   POST /__revoke                                                refuse every token issued so far
//   POST /__reset                                                 forget everything
//   POST /__id-token {user_id, channel_id, expires_in?, name?}    → {id_token}

let log = [];
let scripts = new Map();
let accepted = new Map();
let issued = new Set();
let counter = 0;

function answer(status, body, headers = {}) {
  counter += 1;
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-line-request-id": `req-${counter}`, ...headers },
  });
}

function issue(form, env) {
  if (form.grant_type !== "client_credentials") {
    return answer(400, { error: "unsupported_grant_type", error_description: "grant_type must be client_credentials" });
  }
  if (form.client_id !== env.CHANNEL_ID || form.client_secret !== env.CHANNEL_SECRET) {
    return answer(400, { error: "invalid_client", error_description: "invalid client_id or client_secret" });
  }
  counter += 1;
  const token = `stateless-${counter}`;
  issued.add(token);
  return answer(200, { token_type: "Bearer", access_token: token, expires_in: 899 });
}

const encoder = new TextEncoder();

function base64url(bytes) {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
}

async function signingKey(env) {
  return crypto.subtle.importKey("raw", encoder.encode(env.ID_TOKEN_SECRET), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

async function idToken({ user_id, channel_id, expires_in = 3600, name = "Test User" }, env) {
  const iat = Math.floor(Date.now() / 1000);
  const part = (value) => base64url(encoder.encode(JSON.stringify(value)));
  const unsigned = `${part({ alg: "HS256", typ: "JWT" })}.${part({
    iss: "https://access.line.me", sub: user_id, aud: channel_id, exp: iat + expires_in, iat, amr: ["linesso"], name,
  })}`;
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", await signingKey(env), encoder.encode(unsigned)));
  return `${unsigned}.${base64url(signature)}`;
}

async function verify(form, env) {
  const refuse = (description) => answer(400, { error: "invalid_request", error_description: description });
  const parts = (form.id_token ?? "").split(".");
  let claims;
  try {
    if (parts.length !== 3) throw new Error("not a JWT");
    const signed = await crypto.subtle.verify("HMAC", await signingKey(env), fromBase64url(parts[2]), encoder.encode(`${parts[0]}.${parts[1]}`));
    if (!signed) throw new Error("forged");
    claims = JSON.parse(new TextDecoder().decode(fromBase64url(parts[1])));
  } catch {
    return refuse("Invalid IdToken.");
  }
  if (claims.exp <= Math.floor(Date.now() / 1000)) return refuse("IdToken expired.");
  if (claims.aud !== form.client_id) return refuse("Invalid IdToken Audience.");
  return answer(200, claims);
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/__reset") {
      log = [];
      scripts = new Map();
      accepted = new Map();
      issued = new Set();
      return new Response("{}");
    }
    if (url.pathname === "/__log") return new Response(JSON.stringify(log));
    if (url.pathname === "/__revoke") {
      issued = new Set();
      return new Response("{}");
    }
    if (url.pathname === "/__script") {
      const { to, answers } = await request.json();
      scripts.set(to, [...(scripts.get(to) ?? []), ...answers]);
      return new Response("{}");
    }
    if (url.pathname === "/__id-token") return new Response(JSON.stringify({ id_token: await idToken(await request.json(), env) }));
    // Decoded by hand: request.text() warns about a form body, which LINE's token and verify calls are.
    const text = new TextDecoder().decode(await request.arrayBuffer());
    const authorization = request.headers.get("authorization");
    if (url.pathname === "/oauth2/v2.1/verify") {
      const form = Object.fromEntries(new URLSearchParams(text));
      log.push({ path: url.pathname, retryKey: null, authorization, to: "", body: form });
      return verify(form, env);
    }
    if (url.pathname === "/oauth2/v3/token") {
      const form = Object.fromEntries(new URLSearchParams(text));
      log.push({ path: url.pathname, retryKey: null, authorization, to: "", body: form });
      return issue(form, env);
    }
    let body = {};
    try {
      body = JSON.parse(text);
    } catch {}
    const retryKey = request.headers.get("x-line-retry-key");
    const to = typeof body.to === "string" ? body.to : url.pathname.endsWith("/reply") ? "reply" : "";
    log.push({ path: url.pathname, retryKey, authorization, to, body });
    const token = (authorization ?? "").replace(/^Bearer /, "");
    if (token !== env.ACCESS_TOKEN && !issued.has(token)) {
      return answer(401, { message: "Authentication failed due to the following reason: invalid token. Confirm that the access token in the authorization header is valid." });
    }
    if (retryKey && accepted.has(retryKey)) {
      return answer(409, { message: "The retry key is already accepted", sentMessages: [{ id: "1" }] },
        { "x-line-accepted-request-id": accepted.get(retryKey) });
    }
    const next = (scripts.get(to) ?? []).shift();
    if (next?.hangMs) {
      await new Promise((resolve) => setTimeout(resolve, next.hangMs));
    }
    const status = next?.status ?? 200;
    if (status === 200) {
      const response = answer(200, url.pathname.endsWith("/reply") ? {} : { sentMessages: [{ id: String(counter + 1) }] });
      if (retryKey) accepted.set(retryKey, response.headers.get("x-line-request-id"));
      return response;
    }
    return answer(status, { message: next.message ?? "Internal error" });
  },
};
