/**
 * The one error shape services throw (decision 011): a feature defines
 * `class OrderError extends ServiceError<OrderErrorCode> {}` and throws it with a code and,
 * where a message needs them, plain values for the translation (minutes to wait, a count).
 * No HTTP status, no message text: the feature's `*.http.server.ts` maps codes to both.
 */
export type MessageParams = Record<string, string | number>;

export class ServiceError<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    readonly params: MessageParams = {},
  ) {
    super(code);
    this.name = new.target.name;
  }
}
