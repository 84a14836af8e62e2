/** Web push errors as HTTP (decision 011): the API and the account page's device list. */
import { errorTable } from "../http/errors.server";
import { PushError, type PushErrorCode } from "./push.service.server";

export const pushErrors = errorTable<PushErrorCode>(PushError, {
  invalid: { status: 400, key: "push.errors.invalid" },
  notHttps: { status: 400, key: "push.errors.notHttps" },
  private: { status: 400, key: "push.errors.private" },
  // The push service's name did not resolve: may be passing, so the client may retry.
  unresolvable: { status: 503, key: "push.errors.unresolvable" },
  tooMany: { status: 409, key: "push.errors.tooMany" },
  rateLimited: {
    status: 429,
    key: "push.errors.rateLimited",
    headers: (p) => ({ "Retry-After": String(Number(p.count ?? 0) * 60) }),
  },
  notFound: { status: 404, key: "push.errors.notFound" },
});
