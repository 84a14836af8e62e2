import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./unavailable.server";

function withCode(message: string, code?: string) {
  return Object.assign(new Error(message), code ? { code } : {});
}

describe("database-unavailable errors", () => {
  it("are recognised for unreachable, refusing or restarting PostgreSQL", () => {
    expect(isDatabaseUnavailable(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnavailable(withCode('database "x" is not currently accepting connections', "55000"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("terminating connection due to administrator command", "57P01"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("connection failure", "08006"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode("x", "ECONNREFUSED")]))).toBe(true);
  });
  it("are recognised when wrapped in another error's cause", () => {
    expect(isDatabaseUnavailable(new Error("Failed to get session", { cause: withCode("x", "ECONNREFUSED") }))).toBe(
      true,
    );
  });
  it("are not confused with bugs or bad queries", () => {
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
    expect(isDatabaseUnavailable(withCode('relation "nope" does not exist', "42P01"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("UNIQUE constraint failed", "SQLITE_CONSTRAINT_UNIQUE"))).toBe(false);
    expect(isDatabaseUnavailable("a string")).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
