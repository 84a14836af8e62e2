import { ServiceError } from "../service-error.server";

/**
 * The CSV feature's one error type (decision 011). The file codes say what is wrong with a
 * file as a whole (nothing of it is checked row by row then); `params` carry the line, the
 * limit or the column name the message names. `invalidRows`: the file has row errors, so
 * nothing was saved; `forbidden`: the active organisation is not one the user administers;
 * `scopeChanged`: the preview was for another scope than the active one; `rateLimited`:
 * too many confirmed imports in the last hour (`minutes` until the next is allowed).
 */
export type ImportErrorCode =
  | "forbidden"
  /** Decision 030: the organisation has not accepted the data processing agreement. */
  | "dpaRequired"
  | "invalidRows"
  | "scopeChanged"
  | "rateLimited"
  /** Too many wrong sticker codes (decision 036): the claim limits' answer; `count` minutes. */
  | "claimRateLimited"
  | "noFile"
  | "tooLarge"
  | "notText"
  | "empty"
  | "malformed"
  | "missingColumns"
  | "unknownColumn"
  | "duplicateColumn"
  | "noRows"
  | "tooManyRows";

export class ImportError extends ServiceError<ImportErrorCode> {}
