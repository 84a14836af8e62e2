/**
 * Solves the server's ALTCHA challenge in Node the way the widget does in a browser,
 * so API tests send real, valid captcha tokens.
 */
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";

export async function solveAltcha(baseUrl: string): Promise<string> {
  const res = await fetch(new URL("/api/captcha/challenge", baseUrl));
  if (!res.ok) throw new Error(`challenge request failed: ${res.status}`);
  const challenge = (await res.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error("could not solve the ALTCHA challenge");
  const payload = { challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution };
  return Buffer.from(JSON.stringify(payload)).toString("base64");
}
