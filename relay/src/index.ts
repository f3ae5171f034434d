/**
 * Shiftcast's relay: a Cloudflare Worker with one D1 database that stays awake when every PC sleeps. It
 * takes LINE's webhook events and keeps them for the app, answers pairing codes at once, sends the
 * reminders the app handed over when no app sender is awake, and hosts the month's image.
 *
 * The Workers runtime takes every export of the main module for a handler and refuses to start on
 * anything else, so this module exports the handler alone; the rest lives in src/app.ts.
 */

import { route, runCron } from "./app";
import type { Env } from "./env";

export default {
  fetch(request, env, ctx) {
    return route(request, env, ctx, Date.now());
  },
  async scheduled(controller, env) {
    await runCron(env, () => Math.max(Date.now(), controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
