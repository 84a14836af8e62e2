/** One zod schema per account form; messages are translation keys (auth.json). */
import { z } from "zod";
import { PASSWORD_MAX } from "./password";

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
  linkProvider: z.string().max(40).optional(),
});

export const registerSchema = z.object({
  name: z.string({ error: "auth.errors.nameRequired" }).trim().min(1, "auth.errors.nameRequired").max(200),
  email,
  password,
});

export const resetRequestSchema = z.object({ email });

export const newPasswordSchema = z.object({
  token: z.string().min(1).max(200),
  password,
});
