/** The /account forms (decision 017): one zod schema per form; messages are translation keys. */
import { z } from "zod";
import { PASSWORD_MAX } from "./password";
import { isSocialProvider } from "./social";

import { NAME_MAX } from "../forms/account-fields";

export { NAME_MAX };

export const profileSchema = z.object({
  intent: z.literal("profile"),
  name: z.string({ error: "account.errors.nameRequired" }).trim().min(1, "account.errors.nameRequired").max(NAME_MAX),
  language: z.enum(["en", "sv"], { error: "account.errors.language" }),
});

export const emailSchema = z.object({
  intent: z.literal("email"),
  email: z
    .string({ error: "auth.errors.emailRequired" })
    .trim()
    .min(1, "auth.errors.emailRequired")
    .max(254, "auth.errors.invalidEmail")
    .pipe(z.email("auth.errors.invalidEmail")),
});

const password = (required: string) =>
  z.string({ error: required }).min(1, required).max(PASSWORD_MAX, "auth.password.tooLong");

export const passwordSchema = z.object({
  intent: z.literal("password"),
  currentPassword: password("account.errors.currentPasswordRequired"),
  newPassword: password("account.errors.newPasswordRequired"),
});

export const setPasswordSchema = z.object({
  intent: z.literal("setPassword"),
  newPassword: password("account.errors.newPasswordRequired"),
});

export const providerSchema = z.object({
  intent: z.enum(["link", "reauth"]),
  provider: z
    .string()
    .max(40)
    .refine((v) => isSocialProvider(v), "auth.errors.unsupportedProvider"),
});

export const unlinkSchema = z.object({
  intent: z.literal("unlink"),
  /** better-auth's account row id. */
  accountId: z.string().min(1).max(100),
});

export const signOutOthersSchema = z.object({ intent: z.literal("signOutOthers") });

export const deleteSchema = z.object({
  intent: z.literal("delete"),
  password: z.string().max(PASSWORD_MAX, "auth.password.tooLong").optional(),
  confirm: z.literal("on", { error: "account.errors.confirmDelete" }),
  // Decision 051: the ticks that give up a refund and delete organisations knowingly.
  forfeitRefunds: z.literal("on").optional().catch(undefined),
  deleteOrganisations: z.literal("on").optional().catch(undefined),
});

/** What kind of device a session is on (app/server/account/session-device.server.ts). */
export type DeviceClass = "phone" | "tablet" | "computer" | "unknown";
