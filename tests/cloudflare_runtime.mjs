// The Workers runtime behind the Cloudflare stand-in (tests/cloudflare_standin.py): one Miniflare (workerd)
// that runs every Worker script the stand-in was sent, exactly as uploaded, each with its D1 binding, and
// answers the stand-in's D1 queries on the same databases, so the migrations a deploy applies through the
// REST API are the tables the uploaded Worker reads.
//
//   node cloudflare_runtime.mjs <miniflare's index.js> <folder for the D1 files>
//
// Prints "listening <port>" once it serves, on 127.0.0.1 only:
//   POST /state      {databases: [uuid], scripts: [{name, main_module, modules: [{name, base64}],
//                     compatibility_date, text: {NAME: value}, d1: {BINDING: uuid}}]} -> {}
//   POST /d1/query   {database_id, statements: [{sql, params}]} -> [{results, success, meta}]
//   POST /scheduled/<script>                       one cron run -> {outcome}
//   ANY  /w/<script>/<path>                        the script's fetch handler, seen as https://<script>.workers.dev/<path>

import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [miniflarePath, persistDir] = process.argv.slice(2);
const { Miniflare } = await import(pathToFileURL(miniflarePath).href);

let mf = null;
let state = { databases: [], scripts: [] };
const ADMIN = "d1-admin";

function bindingOf(uuid) {
  return "D_" + uuid.replace(/[^A-Za-z0-9]/g, "_");
}

function options() {
  const admin = {
    name: ADMIN,
    modules: true,
    script: "export default { fetch() { return new Response('d1 admin'); } };",
    compatibilityDate: "2026-04-01",
    d1Databases: Object.fromEntries(state.databases.map((uuid) => [bindingOf(uuid), uuid])),
  };
  const scripts = state.scripts.map((s) => ({
    name: s.name,
    modulesRoot: path.join(persistDir, "scripts", s.name),
    modules: s.modules.map((m) => ({
      type: m.name.endsWith(".wasm") ? "CompiledWasm" : "ESModule",
      path: path.join(persistDir, "scripts", s.name, m.name),
      contents: Buffer.from(m.base64, "base64"),
    })),
    compatibilityDate: s.compatibility_date,
    bindings: s.text,
    d1Databases: s.d1,
  }));
  // The main module goes first: Miniflare takes a Worker's first module as its entry point.
  for (const [i, s] of state.scripts.entries()) {
    scripts[i].modules.sort((a, b) => (a.path.endsWith("/" + s.main_module) ? -1 : b.path.endsWith("/" + s.main_module) ? 1 : 0));
  }
  return { d1Persist: path.join(persistDir, "d1"), workers: [admin, ...scripts] };
}

async function apply(next) {
  state = next;
  if (mf === null) {
    mf = new Miniflare(options());
    await mf.ready;
  } else {
    await mf.setOptions(options());
  }
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function answer(res, status, value) {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(status, { "content-type": "application/json", "content-length": body.length });
  res.end(body);
}

async function query(body) {
  if (mf === null || !state.databases.includes(body.database_id)) throw new Error("no such database");
  const db = await mf.getD1Database(bindingOf(body.database_id), ADMIN);
  const statements = body.statements.map((s) => db.prepare(s.sql).bind(...(s.params ?? [])));
  const results = await db.batch(statements);
  return results.map((r) => ({ results: r.results ?? [], success: r.success, meta: r.meta }));
}

async function forward(req, res, script, rest, body) {
  if (mf === null || !state.scripts.some((s) => s.name === script)) {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("There is nothing here yet");
    return;
  }
  const worker = await mf.getWorker(script);
  const headers = Object.entries(req.headers).filter(([k]) => !["host", "connection", "content-length"].includes(k));
  const init = { method: req.method, headers };
  if (!["GET", "HEAD"].includes(req.method)) init.body = body;
  const response = await worker.fetch(`https://${script}.workers.dev/${rest}`, init);
  const payload = Buffer.from(await response.arrayBuffer());
  const out = {};
  response.headers.forEach((v, k) => { if (k !== "content-length" && k !== "transfer-encoding") out[k] = v; });
  out["content-length"] = payload.length;
  res.writeHead(response.status, out);
  res.end(payload);
}

const server = http.createServer(async (req, res) => {
  try {
    const body = await readBody(req);
    const url = new URL(req.url, "http://127.0.0.1");
    const w = url.pathname.match(/^\/w\/([^/]+)\/?(.*)$/);
    if (w) return await forward(req, res, w[1], w[2] + url.search, body);
    if (req.method === "POST" && url.pathname === "/state") {
      await apply(JSON.parse(body.toString("utf8")));
      return answer(res, 200, {});
    }
    if (req.method === "POST" && url.pathname === "/d1/query") return answer(res, 200, await query(JSON.parse(body.toString("utf8"))));
    const cron = url.pathname.match(/^\/scheduled\/([^/]+)$/);
    if (req.method === "POST" && cron) {
      const worker = await mf.getWorker(cron[1]);
      const result = await worker.scheduled({ cron: "* * * * *", scheduledTime: new Date() });
      return answer(res, 200, result);
    }
    answer(res, 404, { error: "no such route" });
  } catch (error) {
    answer(res, 500, { error: String(error && error.message ? error.message : error) });
  }
});

server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});

async function stop() {
  server.close();
  if (mf !== null) await mf.dispose();
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.stdin.on("end", stop); // the stand-in closes our stdin when it stops, or when it dies
process.stdin.resume();
