import { createContext, use } from "react";

/** The CSP nonce of the current response (server only; browsers hide it after load). */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce() {
  return use(NonceContext);
}
