import { describe, expect, it } from "vitest";
import { may, PERMISSIONS, type Role } from "./permissions";

const ROLES: Role[] = ["owner", "admin", "member", "assignee", "placer", "staff"];

/**
 * The permission table written out by hand, row by row (decision 060): changing who may do
 * something means changing this table too, on purpose. `x` allowed, `.` refused; columns in
 * ROLES order: owner admin member assignee placer staff.
 */
const EXPECTED: Record<string, string> = {
  "item.manage": "x x . x . .",
  "item.assign": ". x . . . .",
  "item.endOthersRenewal": ". x . . . .",
  "order.view": "x x . . x .",
  "order.pay": "x . . . x .",
  "invoice.use": ". x . . . .",
  "organisation.view": ". x x . . .",
  "organisation.manage": ". x . . . .",
  "organisation.invite": ". x . . . .",
  "organisation.csv": ". x . . . .",
  "organisation.trustedContacts": ". x . . . .",
  "organisation.claimStickers": ". x . . . .",
  "organisation.everyConversation": ". x . . . .",
  "organisation.webhooks": ". x . . . .",
  "organisation.apiKeys": ". x . . . .",
  "account.csv": "x . . . . .",
  "staffDesk.use": ". . . . . x",
};

describe("the permission table (role × thing × action)", () => {
  const rows = Object.entries(PERMISSIONS).flatMap(([thing, actions]) =>
    Object.keys(actions).map((action) => `${thing}.${action}`),
  );

  it("has exactly the rows written out here: a new action is decided here too", () => {
    expect(rows.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))("%s is allowed to exactly the roles marked", (row, marks) => {
    const [thing, action] = row.split(".") as [keyof typeof PERMISSIONS, string];
    const got = ROLES.map((role) => (may(role, thing, action as never) ? "x" : ".")).join(" ");
    expect(got).toBe(marks);
  });

  it("refuses everything to someone without a role (an outsider)", () => {
    for (const row of rows) {
      const [thing, action] = row.split(".") as [keyof typeof PERMISSIONS, string];
      expect(may(null, thing, action as never)).toBe(false);
      expect(may(undefined, thing, action as never)).toBe(false);
    }
  });

  it("never lets an organisation's plain member manage the organisation or see every conversation", () => {
    expect(may("member", "organisation", "manage")).toBe(false);
    expect(may("member", "organisation", "everyConversation")).toBe(false);
    expect(may("member", "invoice", "use")).toBe(false);
    expect(may("member", "organisation", "webhooks")).toBe(false);
  });
});
