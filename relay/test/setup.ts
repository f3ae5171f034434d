// Every test starts from a fresh database at the migrations' head and a LINE stand-in that knows nothing.
import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach } from "vitest";

beforeEach(async () => {
  await reset();
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  await fetch("https://line.test/__reset", { method: "POST" });
});
