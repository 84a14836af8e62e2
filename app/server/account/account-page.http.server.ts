/**
 * The account page's forms (decision 059): one intent per section, each its schema and
 * its work, answered by a redirect back to the page (PRG) with the section's message.
 */
import { redirect } from "react-router";
import { z } from "zod";
import {
  emailSchema,
  passwordSchema,
  profileSchema,
  providerSchema,
  setPasswordSchema,
  signOutOthersSchema,
  unlinkSchema,
} from "~/lib/domain/account";
import type { RouteDeps } from "../deps.server";
import { intent, intentAction } from "../http/form-action.server";
import { pushErrors } from "../push/push.http.server";
import { removeDevice } from "../push/push.service.server";
import { accountPageErrors, passwordMarks } from "./account.http.server";
import {
  changePassword,
  requestEmailChange,
  setPassword,
  signOutOtherSessions,
  startLink,
  unlinkMethod,
  updateProfile,
} from "./account.service.server";

/** Messages a redirect back to the page may ask for (?done=…); anything else shows nothing. */
export const ACCOUNT_DONE = {
  profile: "account.saved",
  emailSent: "account.email.sent",
  password: "account.password.changed",
  passwordSet: "account.password.setDone",
  unlinked: "account.methods.unlinked",
  signedOutOthers: "account.sessions.signedOutOthers",
  pushRemoved: "push.removed",
} as const;
type Done = keyof typeof ACCOUNT_DONE;

/** The message a `?done=` asks for, or null. */
export function accountDone(done: string | null): string | null {
  return done && Object.hasOwn(ACCOUNT_DONE, done) ? ACCOUNT_DONE[done as Done] : null;
}

function done(key: Done, headers?: Headers) {
  return redirect(`/account?done=${key}`, headers ? { headers } : undefined);
}

/** A failed parse: the field errors, and the first of them on the section's alert (it takes the focus). */
const firstError = (errors: Record<string, string>) => ({ key: Object.values(errors)[0] ?? "account.errors.notFound" });
const notFound = { key: "account.errors.notFound" };

/** One form per section, told apart by `intent`; each refusal names its section. */
export function accountAction(request: Request, deps: RouteDeps, userRef: string) {
  const headers = request.headers;
  const options = {
    errors: accountPageErrors,
    marks: (err: unknown) => passwordMarks(err, { current: "currentPassword", new: "newPassword" }),
    unknownIntent: "account.errors.notFound",
    tagIntent: true,
  };
  return intentAction(request, options, {
    profile: intent({
      schema: profileSchema,
      invalid: firstError,
      async handle(input) {
        const cookies = await updateProfile(deps, headers, input);
        // The pages follow the chosen language at once.
        cookies.append("Set-Cookie", deps.cookies.language(input.language));
        return done("profile", cookies);
      },
    }),
    email: intent({
      schema: emailSchema,
      invalid: firstError,
      async handle(input) {
        await requestEmailChange(deps, headers, input);
        return done("emailSent");
      },
    }),
    password: intent({
      schema: passwordSchema,
      invalid: firstError,
      handle: async (input) => done("password", await changePassword(deps, headers, input)),
    }),
    setPassword: intent({
      schema: setPasswordSchema,
      invalid: firstError,
      async handle(input) {
        await setPassword(deps, headers, input);
        return done("passwordSet");
      },
    }),
    link: intent({
      schema: providerSchema,
      invalid: firstError,
      async handle(input) {
        const res = await startLink(deps, headers, input.provider);
        return redirect(res.redirectTo, { headers: res.headers });
      },
    }),
    unlink: intent({
      schema: unlinkSchema,
      invalid: notFound,
      invalidFields: { accountId: "account.errors.notFound" },
      async handle(input) {
        await unlinkMethod(deps, headers, input.accountId);
        return done("unlinked");
      },
    }),
    pushRemove: intent({
      schema: z.object({ id: z.string().catch("") }),
      errors: pushErrors,
      async handle(input) {
        await removeDevice(deps, userRef, input.id);
        return done("pushRemoved");
      },
    }),
    signOutOthers: intent({
      schema: signOutOthersSchema,
      invalid: notFound,
      invalidFields: { intent: "account.errors.notFound" },
      async handle() {
        await signOutOtherSessions(deps, headers);
        return done("signedOutOthers");
      },
    }),
  });
}
