/** One zod schema per account form; messages are translation keys (auth.json). */
import { z } from "zod";
import { isSocialProvider } from "../domain/social";
import { PASSWORD_MAX } from "../domain/password";

const email = z
  .string({ error: "auth.errors.emailRequired" })
  .trim()
  .min(1, "auth.errors.emailRequired")
  .max(254, "auth.errors.invalidEmail")
  .pipe(z.email("auth.errors.invalidEmail"));
const password = z
  .string({ error: "auth.errors.passwordRequired" })
  .min(1, "auth.errors.passwordRequired")
  .max(PASSWORD_MAX, "auth.password.tooLong");

export const loginSchema = z.object({
  email,
  password,
  rememberMe: z.literal("on").optional(),
  /** The captcha solution, once this address has failed too often for the account. */
  captcha: z.string().max(10_000).optional(),
  linkProvider: z
    .string()
    .max(40)
    .optional()
    .transform((v) => (isSocialProvider(v) ? v : undefined)),
});

export const registerSchema = z.object({
  name: z.string({ error: "auth.errors.nameRequired" }).trim().min(1, "auth.errors.nameRequired").max(200),
  email,
  password,
});

export const resetRequestSchema = z.object({ email });

const resetToken = z.string().regex(/^[\w-]{1,200}$/);

/** The token of a reset link, or "" when it cannot be one. */
export function resetTokenOf(raw: string | null): string {
  const r = resetToken.safeParse(raw);
  return r.success ? r.data : "";
}

export const newPasswordSchema = z.object({
  token: resetToken,
  password,
});

const verifyToken = z.string().regex(/^[\w.-]{1,2000}$/);

/** The token of a verification link (a signed JWT), or "" when it cannot be one. */
export function verifyTokenOf(raw: string | null): string {
  const r = verifyToken.safeParse(raw);
  return r.success ? r.data : "";
}
