import { betterAuth } from "better-auth";
import type { Config } from "../config.server";
import type { DatabaseHandle } from "../db/db.server";

/**
 * The better-auth instance. Sessions live in our database (table session), cookies
 * are HttpOnly. Built once per process by the runtime.
 */
export function createAuth(config: Config, handle: DatabaseHandle) {
  return betterAuth({
    appName: "Hittad",
    baseURL: config.baseUrl.origin,
    basePath: "/api/auth",
    secret: config.authSecret,
    database: { db: handle.db, type: handle.dialect === "postgres" ? "postgres" : "sqlite" },
    emailAndPassword: { enabled: true, minPasswordLength: 8, maxPasswordLength: 128 },
    user: {
      additionalFields: {
        language: { type: "string", required: false, input: true },
        adress: { type: "string", required: false, input: false },
      },
    },
    advanced: {
      useSecureCookies: config.baseUrl.protocol === "https:",
      cookiePrefix: "hittad",
    },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
