import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// Test-only values: the real ones are Worker secrets.
export const TEST_SECRETS = {
  LINE_CHANNEL_SECRET: "test-channel-secret",
  LINE_CHANNEL_ACCESS_TOKEN: "test-access-token",
  LINE_CHANNEL_ID: "1234567890",
  RELAY_KEY: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
};

export default defineConfig(async () => {
  const migrations = await readD1Migrations("migrations");
  return {
    plugins: [
      cloudflareTest({
        main: "./src/index.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: { ...TEST_SECRETS, TEST_MIGRATIONS: migrations, LINE_API_BASE: "https://line.test",
                      LIFF_SDK_URL: "https://line.test/liff/sdk.js" },
          // The teachers' page (page/) is imported as text, as wrangler.toml's [[rules]] bundle it.
          modulesRules: [{ type: "Text", include: ["**/page/*.html", "**/page/*.js", "**/page/*.css"] }],
          workers: [{
            name: "line-stand-in", modules: true, scriptPath: "./test/line-stand-in.js", compatibilityDate: "2026-04-01",
            // The channel the stand-in answers for: the relay's test credentials.
            bindings: { CHANNEL_ID: TEST_SECRETS.LINE_CHANNEL_ID, CHANNEL_SECRET: TEST_SECRETS.LINE_CHANNEL_SECRET,
                        ACCESS_TOKEN: TEST_SECRETS.LINE_CHANNEL_ACCESS_TOKEN, ID_TOKEN_SECRET: "test-id-token-secret" },
          }],
          // Every request the relay makes reaches the stand-in, never the internet.
          outboundService: "line-stand-in",
        },
      }),
    ],
    // The Worker's own log lines are shown for failed tests only.
    test: { setupFiles: ["./test/setup.ts"], testTimeout: 60_000, silent: "passed-only" as const },
  };
});
