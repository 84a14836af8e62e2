/** The /account forms' limits, without their schemas (app/lib/domain/account.ts, on the server: decision 045). */
export const NAME_MAX = 200;
