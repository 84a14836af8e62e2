import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import webPush from "web-push";
import { CONFIG_VARIABLES, EXAMPLE_SELLER, parseConfig, parseDatabaseConfig, parseLogLevel } from "./config.server";

/** Test payments as npm start allows them (production refuses them otherwise, decision 012). */
const demo = { ALLOW_TEST_PAYMENTS: "1" } as const;
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "hittad-config-"));

describe("configuration", () => {
  it("works with no variables at all but the demo's test payments: SQLite in ./data, port 3000, generated secret kept", () => {
    const cwd = tmp();
    // npm start sets ALLOW_TEST_PAYMENTS=1 when nothing about payments is configured.
    const c = parseConfig(demo, cwd);
    expect(c.port).toBe(3000);
    expect(c.baseUrl.origin).toBe("http://localhost:3000");
    expect(c.database).toEqual({
      kind: "sqlite",
      file: path.join(cwd, "data/hittad.sqlite"),
      url: "file:./data/hittad.sqlite",
    });
    expect(c.authSecretGenerated).toBe(true);
    expect(parseConfig(demo, cwd).authSecret).toBe(c.authSecret);
    expect(c.payments).toBe("test");
    expect(c.captcha).toBe("altcha");
  });

  it("SMS go to Sweden, Norway, Denmark and Finland within a day's budget unless the operator says otherwise (decision 046)", () => {
    expect(parseConfig(demo, tmp()).sms).toMatchObject({ countries: ["+46", "+47", "+45", "+358"], dailyBudget: 1000 });
    const c = parseConfig({ ...demo, SMS_COUNTRIES: "+46, +49,+46", SMS_DAILY_BUDGET: "50" }, tmp());
    expect(c.sms).toMatchObject({ countries: ["+46", "+49"], dailyBudget: 50 });
    for (const bad of ["46", "+0", "+4612", "+46,,+47", "sweden"]) {
      expect(() => parseConfig({ ...demo, SMS_COUNTRIES: bad }, tmp()), bad).toThrow(/SMS_COUNTRIES/);
    }
    expect(() => parseConfig({ ...demo, SMS_DAILY_BUDGET: "-1" }, tmp())).toThrow(/SMS_DAILY_BUDGET/);
  });

  it("backups go to ./data/backups unencrypted and unscheduled unless BACKUP_* say otherwise; a short passphrase or interval stops the start (decision 048)", () => {
    const cwd = tmp();
    expect(parseConfig(demo, cwd).operations.backups).toEqual({
      dir: path.join(cwd, "data/backups"),
      passphrase: undefined,
      everyMs: undefined,
    });
    const c = parseConfig(
      { ...demo, BACKUP_DIR: "/srv/backups", BACKUP_PASSPHRASE: "correct horse battery", BACKUP_EVERY: "6h" },
      cwd,
    );
    expect(c.operations.backups).toEqual({
      dir: "/srv/backups",
      passphrase: "correct horse battery",
      everyMs: 6 * 3_600_000,
    });
    expect(parseConfig({ ...demo, BACKUP_EVERY: "15m" }, cwd).operations.backups.everyMs).toBe(15 * 60_000);
    expect(parseConfig({ ...demo, BACKUP_EVERY: "1d" }, cwd).operations.backups.everyMs).toBe(86_400_000);
    for (const bad of ["14m", "6", "6 hours", "0h", "-1d", "h"]) {
      expect(() => parseConfig({ ...demo, BACKUP_EVERY: bad }, cwd), bad).toThrow(/BACKUP_EVERY/);
    }
    expect(() => parseConfig({ ...demo, BACKUP_PASSPHRASE: "short" }, cwd)).toThrow(/BACKUP_PASSPHRASE/);
  });

  it("STRIPE_ONE_TIME_METHODS: Swish by default, a list of known methods, none for the card only (decision 056)", () => {
    expect(parseConfig(demo, tmp()).oneTimeMethods).toEqual(["swish"]);
    expect(parseConfig({ ...demo, STRIPE_ONE_TIME_METHODS: "" }, tmp()).oneTimeMethods).toEqual(["swish"]);
    expect(parseConfig({ ...demo, STRIPE_ONE_TIME_METHODS: " Klarna, swish,klarna" }, tmp()).oneTimeMethods).toEqual([
      "klarna",
      "swish",
    ]);
    expect(parseConfig({ ...demo, STRIPE_ONE_TIME_METHODS: "none" }, tmp()).oneTimeMethods).toEqual([]);
    for (const bad of ["card", "swish,paypal", "none,swish"]) {
      expect(() => parseConfig({ ...demo, STRIPE_ONE_TIME_METHODS: bad }, tmp()), bad).toThrow(
        /STRIPE_ONE_TIME_METHODS/,
      );
    }
  });

  it("selects PostgreSQL from a postgres:// URL and then requires AUTH_SECRET", () => {
    expect(() => parseConfig({ DATABASE_URL: "postgres://u@h/db" }, tmp())).toThrow(/AUTH_SECRET/);
    const c = parseConfig({ ...demo, DATABASE_URL: "postgres://u@h/db", AUTH_SECRET: "x".repeat(32) }, tmp());
    expect(c.database.kind).toBe("postgres");
  });

  it("accepts absolute and relative file: URLs", () => {
    const cwd = tmp();
    expect(parseConfig({ ...demo, DATABASE_URL: "file:/var/x.sqlite" }, cwd).database).toMatchObject({
      file: "/var/x.sqlite",
    });
    expect(parseConfig({ ...demo, DATABASE_URL: "file:db/x.sqlite" }, cwd).database).toMatchObject({
      file: path.join(cwd, "db/x.sqlite"),
    });
  });

  it("migrations need only DATABASE_URL, with the same default as the server", () => {
    const cwd = tmp();
    expect(parseDatabaseConfig({}, cwd)).toEqual(parseConfig(demo, cwd).database);
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
    expect(() => parseConfig({ INVOICE_CREDIT_ITEMS: "0" }, tmp())).toThrow(/INVOICE_CREDIT_ITEMS/);
    expect(() => parseConfig({ INVOICE_CREDIT_ITEMS: "many" }, tmp())).toThrow(/INVOICE_CREDIT_ITEMS/);
  });

  it("INVOICE_CREDIT_ITEMS: 25 items on credit by default (decision 028)", () => {
    expect(parseConfig(demo, tmp()).invoiceCreditItems).toBe(25);
    expect(parseConfig({ ...demo, INVOICE_CREDIT_ITEMS: "100" }, tmp()).invoiceCreditItems).toBe(100);
  });

  it("BASE_URL defaults to the port", () => {
    expect(parseConfig({ ...demo, PORT: "8080" }, tmp()).baseUrl.origin).toBe("http://localhost:8080");
  });

  it("refuses test payments with a live Stripe key, and stripe without its secrets", () => {
    expect(() => parseConfig({ PAYMENTS: "test", STRIPE_SECRET_KEY: "sk_live_abc" }, tmp())).toThrow(/live/);
    expect(() => parseConfig({ PAYMENTS: "stripe" }, tmp())).toThrow(/STRIPE_SECRET_KEY/);
    expect(
      parseConfig({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1", NODE_ENV: "development" }, tmp())
        .payments,
    ).toBe("stripe");
  });

  it("refuses test payments in production unless ALLOW_TEST_PAYMENTS=1 is set explicitly", () => {
    expect(() => parseConfig({}, tmp())).toThrow(/ALLOW_TEST_PAYMENTS/);
    expect(() => parseConfig({ NODE_ENV: "production", PAYMENTS: "test" }, tmp())).toThrow(/ALLOW_TEST_PAYMENTS/);
    expect(() => parseConfig({ PAYMENTS: "test", ALLOW_TEST_PAYMENTS: "0" }, tmp())).toThrow(/ALLOW_TEST_PAYMENTS/);
    // The test suites' servers run as production too: HITTAD_TEST_RUN does not lift it.
    expect(() => parseConfig({ HITTAD_TEST_RUN: "1" }, tmp())).toThrow(/ALLOW_TEST_PAYMENTS/);
    expect(parseConfig({ PAYMENTS: "test", ALLOW_TEST_PAYMENTS: "1" }, tmp()).payments).toBe("test");
    expect(parseConfig({ NODE_ENV: "development" }, tmp()).payments).toBe("test");
    expect(parseConfig({ NODE_ENV: "test" }, tmp()).payments).toBe("test");
  });

  it("decides Secure cookies once, from BASE_URL's scheme", () => {
    expect(parseConfig({ ALLOW_TEST_PAYMENTS: "1", BASE_URL: "https://hittad.se" }, tmp()).secureCookies).toBe(true);
    expect(parseConfig({ ALLOW_TEST_PAYMENTS: "1", BASE_URL: "http://localhost:3000" }, tmp()).secureCookies).toBe(
      false,
    );
  });

  it("reads TRUST_PROXY and LOG_LEVEL through the schema", () => {
    expect(parseConfig({ ALLOW_TEST_PAYMENTS: "1", TRUST_PROXY: "1" }, tmp()).trustProxy).toBe(true);
    expect(parseConfig({ ALLOW_TEST_PAYMENTS: "1" }, tmp()).trustProxy).toBe(false);
    expect(() => parseConfig({ TRUST_PROXY: "yes" }, tmp())).toThrow(/TRUST_PROXY/);
    expect(parseLogLevel({ LOG_LEVEL: "warn" })).toBe("warn");
    expect(parseLogLevel({ LOG_LEVEL: "loud" })).toBe("info");
  });

  it("takes a VAPID key pair only whole and matching, and push allow-hosts as host:port", () => {
    const a = webPush.generateVAPIDKeys();
    const b = webPush.generateVAPIDKeys();
    const c = parseConfig({ ...demo, VAPID_PUBLIC_KEY: a.publicKey, VAPID_PRIVATE_KEY: a.privateKey }, tmp());
    expect(c.push.vapid).toEqual(a);
    expect(c.push.subject).toBe("mailto:support@hittad.se");
    expect(parseConfig(demo, tmp()).push.vapid).toBeUndefined();
    expect(() => parseConfig({ ...demo, VAPID_PUBLIC_KEY: a.publicKey }, tmp())).toThrow(/VAPID_PRIVATE_KEY/);
    expect(() =>
      parseConfig({ ...demo, VAPID_PUBLIC_KEY: a.publicKey, VAPID_PRIVATE_KEY: b.privateKey }, tmp()),
    ).toThrow(/does not belong/);
    expect(() => parseConfig({ ...demo, VAPID_PUBLIC_KEY: "abc", VAPID_PRIVATE_KEY: a.privateKey }, tmp())).toThrow(
      /VAPID_PUBLIC_KEY/,
    );
    expect(() => parseConfig({ ...demo, VAPID_SUBJECT: "support@hittad.se" }, tmp())).toThrow(/VAPID_SUBJECT/);
    expect(parseConfig({ ...demo, VAPID_SUBJECT: "https://hittad.se/contact" }, tmp()).push.subject).toBe(
      "https://hittad.se/contact",
    );
    expect(
      parseConfig({ ...demo, PUSH_ALLOW_HOSTS: " 127.0.0.1:8443, Push.Test:443 " }, tmp()).push.allowHosts,
    ).toEqual(["127.0.0.1:8443", "push.test:443"]);
    expect(() => parseConfig({ ...demo, PUSH_ALLOW_HOSTS: "127.0.0.1" }, tmp())).toThrow(/PUSH_ALLOW_HOSTS/);
  });

  describe("the seller (issue #31 point 2)", () => {
    const stripe = {
      PAYMENTS: "stripe",
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      NODE_ENV: "production",
    } as const;
    const seller = {
      COMPANY_NAME: "Hittad Sverige AB",
      COMPANY_ORG_NR: "559123-4567",
      COMPANY_ADDRESS: "Kungsgatan 1\\n111 43 Stockholm",
      COMPANY_EMAIL: "info@hittad.se",
    } as const;

    it("production with Stripe refuses to start without the seller's name, org. no., address and email, naming each missing one", () => {
      expect(() => parseConfig(stripe, tmp())).toThrow(
        /COMPANY_NAME, COMPANY_ORG_NR, COMPANY_ADDRESS, COMPANY_EMAIL: required with PAYMENTS=stripe in production/,
      );
      for (const name of Object.keys(seller) as Array<keyof typeof seller>) {
        const { [name]: _left, ...rest } = seller;
        expect(() => parseConfig({ ...stripe, ...rest }, tmp())).toThrow(new RegExp(`\\n  ${name}: required`));
      }
    });

    it("production with Stripe refuses to start without the VAT number of a seller that charges VAT (issue #46 point 7)", () => {
      expect(() => parseConfig({ ...stripe, ...seller }, tmp())).toThrow(
        /COMPANY_VAT_NR: required with PAYMENTS=stripe/,
      );
      expect(parseConfig({ ...stripe, ...seller, COMPANY_VAT_NR: "SE559123456701" }, tmp()).company.vatNr).toBe(
        "SE559123456701",
      );
    });

    it("a seller below the VAT threshold (COMPANY_VAT_EXEMPT=1) starts without a VAT number, and nothing is an example", () => {
      const c = parseConfig({ ...stripe, ...seller, COMPANY_VAT_EXEMPT: "1" }, tmp());
      expect(c.company).toEqual({
        name: "Hittad Sverige AB",
        orgNr: "559123-4567",
        vatNr: undefined,
        vatExempt: true,
        address: "Kungsgatan 1\n111 43 Stockholm",
        email: "info@hittad.se",
        example: false,
      });
      expect(parseConfig({ ...stripe, ...seller, COMPANY_VAT_NR: "SE559123456701" }, tmp()).company.vatNr).toBe(
        "SE559123456701",
      );
    });

    it("the demo and test payments start without them and show example values, marked as examples", () => {
      const c = parseConfig(demo, tmp());
      expect(c.company).toMatchObject({ name: EXAMPLE_SELLER.name, email: EXAMPLE_SELLER.email, example: true });
      expect(parseConfig({ ...demo, ...seller }, tmp()).company.example).toBe(false);
      // Stripe outside production (development, tests) starts too, with examples.
      expect(parseConfig({ ...stripe, NODE_ENV: "development" }, tmp()).company.example).toBe(true);
    });

    it("COMPANY_EMAIL must be an email address", () => {
      expect(() => parseConfig({ ...demo, COMPANY_EMAIL: "nope" }, tmp())).toThrow(/COMPANY_EMAIL/);
    });
  });

  it("parses the admin list case-insensitively", () => {
    expect(parseConfig({ ...demo, ADMIN_EMAILS: " A@B.se ,c@d.se" }, tmp()).adminEmails).toEqual(["a@b.se", "c@d.se"]);
  });
});

describe("documentation of the configuration", () => {
  const root = path.resolve(import.meta.dirname, "../..");
  // Read outside the schema: the production guard (HITTAD_TEST_RUN).
  const variables = [...CONFIG_VARIABLES, "HITTAD_TEST_RUN"];

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
