import { describe, expect, it } from "vitest";
import { offeredOneTimeMethods, oneTimeAllowed, swishNumber, toPaymentKind } from "./one-time-payment";

describe("a year paid at once (decision 056)", () => {
  it("Swish is offered in kronor only; Klarna in kronor and euro; in the operator's order", () => {
    expect(offeredOneTimeMethods(["swish"], "SEK")).toEqual(["swish"]);
    expect(offeredOneTimeMethods(["swish"], "EUR")).toEqual([]);
    expect(offeredOneTimeMethods(["klarna", "swish"], "SEK")).toEqual(["klarna", "swish"]);
    expect(offeredOneTimeMethods(["swish", "klarna"], "EUR")).toEqual(["klarna"]);
    expect(offeredOneTimeMethods([], "SEK")).toEqual([]);
  });

  it("only the yearly plan is paid a year at a time", () => {
    expect(oneTimeAllowed("year")).toBe(true);
    expect(oneTimeAllowed("month")).toBe(false);
  });

  it("a Swedish mobile number as Swish takes it, spaces and dashes allowed", () => {
    expect(swishNumber("070-123 45 67")).toBe("46701234567");
    expect(swishNumber("+46 70 123 45 67")).toBe("46701234567");
    expect(swishNumber("0046701234567")).toBe("46701234567");
    for (const bad of ["", "12345", "08-123 456 78", "070-123 45 6", "+47 70 123 45 67", "0701234567x"]) {
      expect(swishNumber(bad), bad).toBeNull();
    }
  });

  it("a stored payment kind reads back; anything unknown is the card subscription", () => {
    expect(toPaymentKind("swish")).toBe("swish");
    expect(toPaymentKind("klarna")).toBe("klarna");
    expect(toPaymentKind("subscription")).toBe("subscription");
    expect(toPaymentKind("paypal")).toBe("subscription");
    expect(toPaymentKind(null)).toBe("subscription");
  });
});
