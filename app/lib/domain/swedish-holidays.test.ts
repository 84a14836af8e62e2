/**
 * The days a Swedish time limit cannot end on (decision 057): the public holidays of lagen
 * (1989:253), Easter-based ones included, and midsommarafton, julafton and nyårsafton.
 */
import { describe, expect, it } from "vitest";
import { easterSunday, isSwedishWorkingDay, swedishDaysOff } from "./swedish-holidays";

describe("Swedish days off", () => {
  it("Easter Sunday is computed: 2024-03-31, 2025-04-20, 2026-04-05, 2027-03-28, 2038-04-25", () => {
    expect(easterSunday(2024)).toEqual([2, 31]);
    expect(easterSunday(2025)).toEqual([3, 20]);
    expect(easterSunday(2026)).toEqual([3, 5]);
    expect(easterSunday(2027)).toEqual([2, 28]);
    expect(easterSunday(2038)).toEqual([3, 25]);
  });

  it("2026's days off are the holidays the almanac lists, the eves included", () => {
    expect([...swedishDaysOff(2026).keys()].sort()).toEqual([
      "2026-01-01",
      "2026-01-06",
      "2026-04-03",
      "2026-04-04",
      "2026-04-05",
      "2026-04-06",
      "2026-05-01",
      "2026-05-14",
      "2026-05-24",
      "2026-06-06",
      "2026-06-19",
      "2026-06-20",
      "2026-10-31",
      "2026-12-24",
      "2026-12-25",
      "2026-12-26",
      "2026-12-31",
    ]);
    // Midsommarafton is the Friday between 19 and 25 June; alla helgons dag the Saturday from 31 October.
    expect(swedishDaysOff(2027).get("2027-06-25")).toBe("midsommarafton");
    expect(swedishDaysOff(2027).get("2027-11-06")).toBe("alla helgons dag");
    expect(swedishDaysOff(2027).get("2027-05-06")).toBe("Kristi himmelsfärdsdag");
  });

  it("a working day is a weekday that is no day off", () => {
    expect(isSwedishWorkingDay("2026-12-07")).toBe(true); // Monday
    expect(isSwedishWorkingDay("2026-12-12")).toBe(false); // Saturday
    expect(isSwedishWorkingDay("2026-12-13")).toBe(false); // Sunday
    expect(isSwedishWorkingDay("2026-12-24")).toBe(false); // julafton, a Thursday
    expect(isSwedishWorkingDay("2026-06-19")).toBe(false); // midsommarafton
    expect(isSwedishWorkingDay("2026-04-06")).toBe(false); // annandag påsk
    expect(isSwedishWorkingDay("2026-01-02")).toBe(true); // the Friday after nyårsdagen
  });
});
