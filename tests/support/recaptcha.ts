/**
 * A local stand-in for Google's reCAPTCHA siteverify endpoint, speaking its protocol
 * (form-encoded `secret`, `response`, `remoteip`; JSON `success` and `error-codes`), so
 * the app's real verification code runs without Google. Like Google it accepts each token
 * once: a token starting with "good" passes the first time and answers
 * "timeout-or-duplicate" after; anything else is "invalid-input-response". Tests that
 * need many solved captchas quickly (the concurrency suite, the relay flood) use it
 * instead of solving ALTCHA proofs of work.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export const RECAPTCHA_TEST_SECRET = "test-recaptcha-secret";

export interface RecaptchaStandIn {
  /** The app's configuration pointing at this stand-in. */
  env: Record<string, string>;
  /** How many tokens were accepted. */
  accepted(): number;
  close(): Promise<void>;
}

export async function startRecaptchaStandIn(): Promise<RecaptchaStandIn> {
  const used = new Set<string>();
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const params = new URLSearchParams(body);
      const token = params.get("response") ?? "";
      const secretOk = params.get("secret") === RECAPTCHA_TEST_SECRET;
      let answer: Record<string, unknown>;
      if (!secretOk) answer = { success: false, "error-codes": ["invalid-input-secret"] };
      else if (used.has(token)) answer = { success: false, "error-codes": ["timeout-or-duplicate"] };
      else if (token.startsWith("good")) {
        used.add(token);
        answer = { success: true, hostname: "localhost" };
      } else answer = { success: false, "error-codes": ["invalid-input-response"] };
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    env: {
      CAPTCHA: "recaptcha",
      RECAPTCHA_SITE_KEY: "test-site-key",
      RECAPTCHA_SECRET: RECAPTCHA_TEST_SECRET,
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/recaptcha/api/siteverify`,
    },
    accepted: () => used.size,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
