/**
 * Captcha on anonymous writes. ALTCHA (default): the server issues proof-of-work
 * challenges signed with a key derived from AUTH_SECRET, valid for 10 minutes; each
 * solved challenge is accepted once (its nonce is stored in captcha_solutions). With
 * CAPTCHA=recaptcha the token is checked at RECAPTCHA_VERIFY_URL (Google's siteverify,
 * or a stand-in in tests); Google itself makes those tokens single-use.
 */
import { createHmac } from "node:crypto";
import { createChallenge, randomInt, verifySolution, type Challenge, type Payload } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import type { Captcha, CaptchaResult, Deps } from "../service-deps.server";
import { systemClock } from "../clock.server";
import { logger } from "../logger.server";

export const CHALLENGE_TTL_MS = 10 * 60_000;
/**
 * Difficulty: PBKDF2 with `COST` iterations per attempt and a counter in this range, so a
 * phone solves it in about a second in a worker and a spammer pays for every message.
 */
const ALGORITHM = "PBKDF2/SHA-256";
const COST = 500;
const COUNTER_MIN = 500;
const COUNTER_MAX = 2_500;

/** Separate keys per purpose, all derived from AUTH_SECRET (never the secret itself). */
function derive(secret: string, purpose: string) {
  return createHmac("sha256", secret).update(`hittad:altcha:${purpose}`).digest("hex");
}

function secrets(config: Pick<Config, "authSecret">) {
  return {
    hmacSignatureSecret: derive(config.authSecret, "challenge"),
    hmacKeySignatureSecret: derive(config.authSecret, "key"),
  };
}

/** A fresh signed ALTCHA challenge for the widget (GET /api/captcha/challenge). */
export async function createAltchaChallenge(
  config: Pick<Config, "authSecret">,
  now = systemClock(),
): Promise<Challenge> {
  return createChallenge({
    algorithm: ALGORITHM,
    cost: COST,
    counter: randomInt(COUNTER_MAX, COUNTER_MIN),
    deriveKey,
    expiresAt: new Date(now + CHALLENGE_TTL_MS),
    ...secrets(config),
  });
}

/** GET /api/captcha/challenge: a fresh challenge, or null when the captcha is not ALTCHA (404). */
export async function altchaChallenge(deps: Pick<Deps, "config" | "clock">): Promise<Challenge | null> {
  if (deps.config.captcha !== "altcha") return null;
  return createAltchaChallenge(deps.config, deps.clock());
}

function parsePayload(token: string): Payload | null {
  try {
    const value = JSON.parse(Buffer.from(token, "base64").toString("utf8")) as Payload;
    if (!value || typeof value !== "object" || !value.challenge?.parameters || !value.solution) return null;
    return value;
  } catch {
    return null;
  }
}

async function verifyAltcha(config: Config, db: DB, token: string, now: number): Promise<CaptchaResult> {
  const payload = parsePayload(token);
  // Every challenge we sign carries an expiry; one without it is not ours.
  if (!payload?.challenge.parameters.expiresAt) return { ok: false, reason: "invalid" };
  let result;
  try {
    result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      ...secrets(config),
    });
  } catch {
    // Malformed parameters (unknown algorithm, bad hex…) are a bad token, not a 500.
    return { ok: false, reason: "invalid" };
  }
  if (result.expired) return { ok: false, reason: "expired" };
  if (!result.verified) return { ok: false, reason: "invalid" };
  // Only a verified (signed, solved, unexpired) payload reaches the store, so nobody can
  // fill it with junk. The primary key makes "accept once" atomic across instances.
  const nonce = payload.challenge.parameters.nonce;
  const expiresAt = payload.challenge.parameters.expiresAt * 1000;
  const inserted = await db
    .insertInto("captcha_solutions")
    .values({ id: nonce, expiresAt })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return { ok: false, reason: "used" };
  // Expired solutions can no longer be replayed (the signature check refuses them): drop them.
  await db
    .deleteFrom("captcha_solutions")
    .where("expiresAt", "<", now - 60_000)
    .execute();
  return { ok: true };
}

async function verifyRecaptcha(config: Config, token: string, ip: string): Promise<CaptchaResult> {
  const body = new URLSearchParams({ secret: config.recaptcha.secret ?? "", response: token });
  if (ip && ip !== "unknown") body.set("remoteip", ip);
  try {
    const res = await fetch(config.recaptcha.verifyUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) throw new Error(`siteverify answered ${res.status}`);
    const json = (await res.json()) as { success?: unknown; "error-codes"?: unknown };
    if (json.success === true) return { ok: true };
    const codes = Array.isArray(json["error-codes"]) ? json["error-codes"] : [];
    return { ok: false, reason: codes.includes("timeout-or-duplicate") ? "used" : "invalid" };
  } catch (err) {
    logger.warn({ err: err instanceof Error ? err.message : String(err) }, "reCAPTCHA verification unavailable");
    return { ok: false, reason: "unavailable" };
  }
}

/**
 * The captcha CAPTCHA names, made once by the runtime and handed to services as
 * `deps.captcha`. `verify` checks a token from a form and consumes it: the same token never
 * passes twice.
 */
export function captchaOf(config: Config, db: DB): Captcha {
  return {
    async verify(token, ip, now): Promise<CaptchaResult> {
      if (!token) return { ok: false, reason: "missing" };
      return config.captcha === "recaptcha" ? verifyRecaptcha(config, token, ip) : verifyAltcha(config, db, token, now);
    },
  };
}
