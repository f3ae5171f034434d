// A stand-in for LINE's Messaging API, run as its own Worker beside the tests: every fetch the relay
// makes goes here (vitest.config.ts routes the runner's outbound requests to it). It remembers accepted
// retry keys as LINE does (a repeat answers 409 with x-line-accepted-request-id), answers in the order a
// test scripts for a recipient, and keeps a log of what it received.
//
// It issues stateless channel access tokens as LINE does (POST /oauth2/v3/token, client_credentials with
// the channel ID and secret of its bindings; invalid_client otherwise) and takes, on every other call,
// only the long-lived token of its bindings or a token it issued: anything else answers 401.
//
//   POST /__script {to, answers: [{status, message?, hangMs?}]}   queue answers for a recipient
//   GET  /__log                                                   what arrived, in order
//   POST /__revoke                                                refuse every token issued so far
//   POST /__reset                                                 forget everything

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
    const text = await request.text();
    const authorization = request.headers.get("authorization");
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
