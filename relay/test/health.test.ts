import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as main from "../src/index";
import { RELAY_VERSION, SCHEMA_VERSION } from "../src/version";

describe("GET /health", () => {
  it("answers the relay's version and schema version without the key", async () => {
    const response = await exports.default.fetch("https://relay.test/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ version: RELAY_VERSION, schema_version: SCHEMA_VERSION });
  });
});

describe("the main module", () => {
  it("exports the handler alone: workerd refuses to start a Worker whose main module exports anything else", () => {
    expect(Object.keys(main)).toEqual(["default"]);
  });
});
