/**
 * The one HTTP client of the integration tests (decision 011): fetch against a running
 * test server with the headers a browser of ours would send. Redirects are not followed
 * (tests look at them), a POST carries our Origin unless told otherwise, and the language
 * is chosen per request.
 */
export interface RequestOptions {
  /** A Cookie header value ("a=1; b=2"). */
  cookie?: string;
  /** The browser's language (Accept-Language); default English. */
  lang?: "en" | "sv";
  /** Origin of a POST: default our own; null sends none (a non-browser client). */
  origin?: string | null;
  /** A client IP (X-Forwarded-For; the server must run with TRUST_PROXY=1). */
  ip?: string;
  headers?: Record<string, string>;
  /** Follow redirects (default: manual). */
  follow?: boolean;
}

export type FormFields = Record<string, string> | Array<[string, string]>;

export interface HttpClient {
  url(path: string): string;
  get(path: string, opts?: RequestOptions): Promise<Response>;
  /** A form post (application/x-www-form-urlencoded), as a page's <form> sends it. */
  post(path: string, fields: FormFields, opts?: RequestOptions): Promise<Response>;
  /** A JSON post; a string body is sent as it is (for malformed JSON). */
  postJson(path: string, body: unknown, opts?: RequestOptions): Promise<Response>;
  /** Anything else: method, body and headers as given, plus the options' headers. */
  request(path: string, init: RequestInit, opts?: RequestOptions): Promise<Response>;
}

const ACCEPT_LANGUAGE = { en: "en-US,en;q=0.9", sv: "sv-SE,sv;q=0.9" } as const;

export function httpClient(base: string | (() => string)): HttpClient {
  const root = () => (typeof base === "string" ? base : base());
  const headersOf = (opts: RequestOptions, post: boolean): Record<string, string> => {
    const h: Record<string, string> = { "Accept-Language": ACCEPT_LANGUAGE[opts.lang ?? "en"] };
    if (opts.cookie) h.Cookie = opts.cookie;
    if (opts.ip) h["X-Forwarded-For"] = opts.ip;
    if (post && opts.origin !== null) h.Origin = opts.origin ?? new URL(root()).origin;
    return { ...h, ...opts.headers };
  };
  const request = (path: string, init: RequestInit, opts: RequestOptions = {}) => {
    const method = (init.method ?? "GET").toUpperCase();
    const post = method !== "GET" && method !== "HEAD";
    return fetch(root() + path, {
      redirect: opts.follow ? "follow" : "manual",
      ...init,
      headers: { ...headersOf(opts, post), ...(init.headers as Record<string, string> | undefined) },
    });
  };
  return {
    url: (path) => root() + path,
    request,
    get: (path, opts) => request(path, { method: "GET" }, opts),
    post: (path, fields, opts) =>
      request(
        path,
        {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(fields),
        },
        opts,
      ),
    postJson: (path, body, opts) =>
      request(
        path,
        {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: typeof body === "string" ? body : JSON.stringify(body),
        },
        opts,
      ),
  };
}

/** The session cookie a response sets ("hittad.session_token=…"), unless it clears it. */
export function sessionCookieOf(res: Response): string | undefined {
  const c = res.headers
    .getSetCookie()
    .find((s) => /^(__Secure-)?hittad\.session_token=/.test(s) && !/Max-Age=0/i.test(s));
  return c?.split(";")[0];
}
