/**
 * The data processing agreement (personuppgiftsbiträdesavtal) an organisation's admins
 * accept before they invite members or import items (decision 030).
 * The text lives in the translations (organisations.dpa.*); this is its version. A change
 * of substance gets a new version and date, and every organisation must accept it again
 * before its next invite or import (the acceptances of older versions stay on record).
 *
 * Browser-safe.
 */
export const DPA_VERSION = 1;
/** When this version's text took effect (ISO date). */
export const DPA_DATE = "2026-11-26";

/** The agreement's sections, in order (organisations.dpa.sections.<key>.title / .text). */
export const DPA_SECTIONS = [
  "parties",
  "subject",
  "data",
  "instructions",
  "security",
  "subprocessors",
  "assistance",
  "breach",
  "end",
  "audit",
  "transfers",
] as const;
