/**
 * Test users and sessions made through better-auth's own API (the real code path),
 * so tests need not click through sign-in. Only the sign-in tests do that. Users have a
 * verified email unless `verified: false` (as after clicking the mailed link): admin
 * rights need it.
 */
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { Runtime } from "../../app/server/runtime.server";

export interface TestUser {
  id: string;
  name: string;
  email: string;
  password: string;
  /** `name=value` of the session cookie, for a Cookie header. */
  cookie: string;
  /** The session cookie's name and value, for a browser context. */
  sessionCookie: { name: string; value: string };
}

export async function createUser(
  rt: Runtime,
  input: { name?: string; email?: string; password?: string; language?: "en" | "sv"; verified?: boolean } = {},
): Promise<TestUser> {
  const tag = randomBytes(4).toString("hex");
  const name = input.name ?? `Test User ${tag}`;
  const email = input.email ?? `user-${tag}@example.test`;
  const password = input.password ?? `pw-${tag}-Secret!`;
  // better-auth's sign-up (no mail: registerWithPassword sends the verification link).
  await rt.auth.api.signUpEmail({ body: { name, email, password, language: input.language ?? "en" } });
  if (input.verified !== false) await markVerified(rt, email);
  return { ...(await signIn(rt, email, password)), name, password };
}

export async function signIn(rt: Runtime, email: string, password: string) {
  const res = await rt.auth.api.signInEmail({ body: { email, password }, returnHeaders: true });
  const setCookie = res.headers.getSetCookie().find((c) => c.includes("session_token="));
  if (!setCookie) throw new Error("sign-in did not set a session cookie");
  const pair = setCookie.split(";")[0]!;
  const eq = pair.indexOf("=");
  return {
    id: res.response.user.id,
    email,
    cookie: pair,
    sessionCookie: { name: pair.slice(0, eq), value: pair.slice(eq + 1) },
  };
}

/** What the verification link does: the user's email is proven. */
export async function markVerified(rt: Runtime, email: string): Promise<void> {
  await rt.database.db
    .updateTable("user")
    // TRUE is the literal both SQLite (1) and PostgreSQL (boolean) understand.
    .set({ emailVerified: sql<boolean>`true` })
    .where("email", "=", email.trim().toLowerCase())
    .execute();
}
