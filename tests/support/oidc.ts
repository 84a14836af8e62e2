/**
 * A real OpenID Connect provider (oidc-provider) standing in for Google and Facebook
 * in tests. The app is started with OAUTH_TEST_ISSUER=<issuer> and registers it under
 * the provider ids "google" and "facebook" (app/server/auth/auth.server.ts). Its sign-in
 * page asks only for an email: the account's subject and email are that value, reported
 * as verified unless its local part starts with "unverified" (as Facebook may answer).
 */
import http from "node:http";
import { Provider, type ClientMetadata } from "oidc-provider";
import { freePort } from "./server";

export interface TestOidcProvider {
  issuer: string;
  close(): Promise<void>;
}

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head><body><main>${body}</main></body></html>`;

export async function startOidcProvider(appOrigin: string): Promise<TestOidcProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const client = (id: string): ClientMetadata => ({
    client_id: `hittad-${id}`,
    client_secret: "hittad-test-secret",
    redirect_uris: [`${appOrigin}/api/auth/callback/${id}`],
    grant_types: ["authorization_code"],
    response_types: ["code"],
    token_endpoint_auth_method: "client_secret_post",
  });
  const provider = new Provider(issuer, {
    clients: [client("google"), client("facebook")],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({
        sub,
        email: sub,
        email_verified: !sub.startsWith("unverified"),
        name: `Social ${sub.split("@")[0]}`,
      }),
    }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Consent is implied: tests act as a user who always allows.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    cookies: { keys: ["hittad-test-oidc-cookie-key"] },
    pkce: { required: () => false },
  });
  provider.proxy = false;
  const callback = provider.callback();

  const server = http.createServer(async (req, res) => {
    if (req.url === "/favicon.ico") {
      res.statusCode = 204;
      res.end();
      return;
    }
    const m = /^\/interaction\/([\w-]+)$/.exec(req.url ?? "");
    if (!m) return callback(req, res);
    try {
      if (req.method === "GET") {
        await provider.interactionDetails(req, res);
        res.setHeader("Content-Type", "text/html; charset=utf-8");
        res.end(
          page(
            `<h1>Test identity provider</h1><form method="post" action="/interaction/${m[1]}">` +
              `<label for="email">Email</label> <input id="email" name="email" type="email" required>` +
              ` <button type="submit">Continue</button></form>`,
          ),
        );
        return;
      }
      const body = await new Promise<string>((resolve) => {
        let s = "";
        req.on("data", (c: Buffer) => (s += c.toString()));
        req.on("end", () => resolve(s));
      });
      const email = new URLSearchParams(body).get("email") ?? "";
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: email.toLowerCase() } },
        {
          mergeWithLastSubmission: false,
        },
      );
    } catch (err) {
      res.statusCode = 400;
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    issuer,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
