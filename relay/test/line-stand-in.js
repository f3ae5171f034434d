// A stand-in for LINE's Messaging API, run as its own Worker beside the tests: every fetch the relay
// makes goes here (vitest.config.ts routes the runner's outbound requests to it). It remembers accepted
// retry keys as LINE does (a repeat answers 409 with x-line-accepted-request-id), answers in the order a
// test scripts for a recipient, and keeps a log of what it received.
//
//   POST /__script {to, answers: [{status, message?, hangMs?}]}   queue answers for a recipient
//   GET  /__log                                                   what arrived, in order
//   POST /__reset                                                 forget everything

let log = [];
let scripts = new Map();
let accepted = new Map();
let counter = 0;

function answer(status, body, headers = {}) {
  counter += 1;
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-line-request-id": `req-${counter}`, ...headers },
  });
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/__reset") {
      log = [];
      scripts = new Map();
      accepted = new Map();
      return new Response("{}");
    }
    if (url.pathname === "/__log") return new Response(JSON.stringify(log));
    if (url.pathname === "/__script") {
      const { to, answers } = await request.json();
      scripts.set(to, [...(scripts.get(to) ?? []), ...answers]);
      return new Response("{}");
    }
    const text = await request.text();
    let body = {};
    try {
      body = JSON.parse(text);
    } catch {}
    const retryKey = request.headers.get("x-line-retry-key");
    const to = typeof body.to === "string" ? body.to : url.pathname.endsWith("/reply") ? "reply" : "";
    log.push({ path: url.pathname, retryKey, authorization: request.headers.get("authorization"), to, body });
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
