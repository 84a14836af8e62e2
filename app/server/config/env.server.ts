/**
 * Shared pieces of the configuration's sections (config.server.ts composes them): how an
 * empty variable reads, list parsers, and the one error type a bad value throws.
 */
import { z } from "zod";

export const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
export const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

/** A comma-separated list, trimmed and lower-cased, each entry checked by `item`. */
export function commaList(item: z.ZodType<string, string>) {
  return z.preprocess(
    emptyToUndefined,
    z
      .string()
      .optional()
      .transform((v) =>
        (v ?? "")
          .split(",")
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean),
      )
      .pipe(z.array(item)),
  );
}

export const emailList = commaList(z.email());

/** host:port pairs (local stand-ins that resolve to private addresses), comma-separated. */
export const hostPortList = commaList(
  z.string().regex(/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/, "each entry must be host:port"),
);

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** The one shape of a start-up refusal: the variable(s), then why. */
export function invalid(variables: string, why: string): ConfigError {
  return new ConfigError(`Invalid configuration:\n  ${variables}: ${why}`);
}
