import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, parseConfig, parseDatabaseConfig } from "./config.server";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "hittad-config-"));

describe("configuration", () => {
  it("works with no variables at all: SQLite in ./data, port 3000, generated secret kept", () => {
    const cwd = tmp();
    const c = parseConfig({}, cwd);
    expect(c.port).toBe(3000);
    expect(c.baseUrl.origin).toBe("http://localhost:3000");
    expect(c.database).toEqual({
      kind: "sqlite",
      file: path.join(cwd, "data/hittad.sqlite"),
      url: "file:./data/hittad.sqlite",
    });
    expect(c.authSecretGenerated).toBe(true);
    expect(parseConfig({}, cwd).authSecret).toBe(c.authSecret);
    expect(c.payments).toBe("test");
    expect(c.captcha).toBe("altcha");
  });

  it("selects PostgreSQL from a postgres:// URL and then requires AUTH_SECRET", () => {
    expect(() => parseConfig({ DATABASE_URL: "postgres://u@h/db" }, tmp())).toThrow(/AUTH_SECRET/);
    const c = parseConfig({ DATABASE_URL: "postgres://u@h/db", AUTH_SECRET: "x".repeat(32) }, tmp());
    expect(c.database.kind).toBe("postgres");
  });

  it("accepts absolute and relative file: URLs", () => {
    const cwd = tmp();
    expect(parseConfig({ DATABASE_URL: "file:/var/x.sqlite" }, cwd).database).toMatchObject({ file: "/var/x.sqlite" });
    expect(parseConfig({ DATABASE_URL: "file:db/x.sqlite" }, cwd).database).toMatchObject({
      file: path.join(cwd, "db/x.sqlite"),
    });
  });

  it("migrations need only DATABASE_URL, with the same default as the server", () => {
    const cwd = tmp();
    expect(parseDatabaseConfig({}, cwd)).toEqual(parseConfig({}, cwd).database);
    expect(parseDatabaseConfig({ DATABASE_URL: "postgres://u@h/db" }, cwd)).toEqual({
      kind: "postgres",
      url: "postgres://u@h/db",
    });
    expect(() => parseDatabaseConfig({ DATABASE_URL: "mysql://x" }, cwd)).toThrow(/DATABASE_URL/);
  });

  it("names the bad variable", () => {
    expect(() => parseConfig({ PORT: "eighty" }, tmp())).toThrow(/PORT/);
    expect(() => parseConfig({ DATABASE_URL: "mysql://x" }, tmp())).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ BASE_URL: "not a url" }, tmp())).toThrow(/BASE_URL/);
    expect(() => parseConfig({ AUTH_SECRET: "short" }, tmp())).toThrow(/AUTH_SECRET/);
    expect(() => parseConfig({ ADMIN_EMAILS: "a@b.se, nope" }, tmp())).toThrow(/ADMIN_EMAILS/);
  });

  it("BASE_URL defaults to the port", () => {
    expect(parseConfig({ PORT: "8080" }, tmp()).baseUrl.origin).toBe("http://localhost:8080");
  });

  it("refuses test payments with a live Stripe key, and stripe without its secrets", () => {
    expect(() => parseConfig({ PAYMENTS: "test", STRIPE_SECRET_KEY: "sk_live_abc" }, tmp())).toThrow(/live/);
    expect(() => parseConfig({ PAYMENTS: "stripe" }, tmp())).toThrow(/STRIPE_SECRET_KEY/);
    expect(parseConfig({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1" }, tmp()).payments).toBe(
      "stripe",
    );
  });

  it("parses the admin list case-insensitively", () => {
    expect(parseConfig({ ADMIN_EMAILS: " A@B.se ,c@d.se" }, tmp()).adminEmails).toEqual(["a@b.se", "c@d.se"]);
  });
});

describe("documentation of the configuration", () => {
  const root = path.resolve(import.meta.dirname, "../..");
  // Read outside the schema: server.js (TRUST_PROXY) and the production guard (HITTAD_TEST_RUN).
  const variables = [...CONFIG_VARIABLES, "TRUST_PROXY", "HITTAD_TEST_RUN"];

  it("lists every variable in .env.example, and nothing else", () => {
    const example = fs.readFileSync(path.join(root, ".env.example"), "utf8");
    const listed = [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect([...listed].sort()).toEqual([...variables].sort());
  });

  it("documents every variable in the README", () => {
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    expect(variables.filter((v) => !readme.includes(`\`${v}\``))).toEqual([]);
  });
});
