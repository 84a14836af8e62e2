/**
 * Every URL that carries a secret (decision 029): the one list the request-log
 * redactor (`redactUrl`, logger.server.ts) is built from, and that
 * tests/integration/log-redaction.test.ts visits, scanning the server's log for each
 * secret. A new route or mail link with a token in its path or query joins this list;
 * the test then proves it never reaches the log.
 */
export interface SecretUrl {
  /**
   * The path as routed (app/routes.ts, server/app.ts, better-auth under /api/auth):
   * a `:name` segment is a secret in the path.
   */
  route: string;
  /** Query parameters that carry a secret on this route. */
  query?: readonly string[];
  /** What the secret is, for the reader. */
  what: string;
}

export const SECRET_URLS: readonly SecretUrl[] = [
  { route: "/invite/:token", what: "organisation invite link (decision 022; only its hash is stored)" },
  {
    route: "/m/:token",
    query: ["c"],
    what: "the finder's private conversation link (decision 013) and its first mail's code (decision 058)",
  },
  { route: "/t/c/:token", what: "a trusted contact's confirmation link (decision 040; only its hash is stored)" },
  { route: "/t/s/:token", what: "a trusted contact's stop link (decision 040; an HMAC)" },
  { route: "/t/r/:token", what: "a trusted contact's private reply link (decision 040; an HMAC)" },
  { route: "/t/n/:token", what: "a 'never contact me again' link (decision 046; only its hash is stored)" },
  { route: "/api/sms/report/:token", what: "an SMS's delivery-report secret (46elks' whendelivered, decision 033)" },
  { route: "/webhooks/46elks/sms", query: ["secret"], what: "46elks' incoming-SMS webhook secret (decision 055)" },
  {
    route: "/organisations/billing-email/:token",
    what: "an organisation's billing-email confirmation link (decision 028; only its hash is stored)",
  },
  { route: "/user/verify-email", query: ["token"], what: "email verification and email change link" },
  { route: "/resetpassword/new", query: ["token"], what: "password reset link" },
  {
    route: "/api/auth/reset-password/:token",
    query: ["callbackURL"],
    what: "better-auth's own reset link (not public here, but requests to it are logged)",
  },
  { route: "/api/auth/verify-email", query: ["token", "callbackURL"], what: "better-auth's own verification link" },
  {
    route: "/api/auth/callback/:provider",
    query: ["code", "state", "id_token", "access_token"],
    what: "OAuth authorization codes and state (social sign-in)",
  },
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The path prefixes whose next segment is a secret, as one regular expression. */
function secretSegments(urls: readonly SecretUrl[]): RegExp {
  const heads: string[] = [];
  for (const { route } of urls) {
    const parts = route.split("/");
    const at = parts.findIndex((p) => p.startsWith(":"));
    // A parameter that is no secret (the provider's name) keeps its segment.
    if (at === -1 || !/^:(token|secret)/.test(parts[at]!)) continue;
    heads.push(
      parts
        .slice(0, at)
        .map((p) => (p.startsWith(":") ? "[^/?#]+" : escape(p)))
        .join("/") + "/",
    );
  }
  // Group 2: the secret segment (with React Router's `.data` when it is a data request).
  return new RegExp(`^(${heads.join("|")})([^/?#]+)`);
}

const SECRET_PATH = secretSegments(SECRET_URLS);

/** The path with its secret segment, if any, replaced (a `.data` suffix is kept). */
export function redactPath(path: string): string {
  return path.replace(SECRET_PATH, (_all, head: string, segment: string) =>
    segment.endsWith(".data") ? `${head}[redacted].data` : `${head}[redacted]`,
  );
}
/** Query parameters replaced on every path (a token is a secret wherever it is sent). */
export const SECRET_QUERY_PARAMS: ReadonlySet<string> = new Set(
  SECRET_URLS.flatMap((u) => u.query ?? []).map((q) => q.toLowerCase()),
);
