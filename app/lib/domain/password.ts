/** Password rules shown before submit and checked on the server (decision 007). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/**
 * A short list of the most common passwords of 8+ characters (from public breach
 * top-lists). Enough to stop the obvious ones without shipping a large list.
 */
const COMMON = new Set([
  "password",
  "password1",
  "password12",
  "password123",
  "password1234",
  "passw0rd",
  "p@ssw0rd",
  "p@ssword",
  "12345678",
  "123456789",
  "1234567890",
  "0123456789",
  "987654321",
  "11111111",
  "00000000",
  "88888888",
  "12341234",
  "11223344",
  "12121212",
  "123123123",
  "qwertyui",
  "qwertyuiop",
  "qwerty123",
  "qwerty12",
  "1q2w3e4r",
  "1q2w3e4r5t",
  "1qaz2wsx",
  "zaq12wsx",
  "asdfghjk",
  "asdfghjkl",
  "zxcvbnm1",
  "iloveyou",
  "iloveyou1",
  "sunshine",
  "princess",
  "football",
  "baseball",
  "welcome1",
  "welcome123",
  "abc12345",
  "abcd1234",
  "abcdefgh",
  "letmein1",
  "trustno1",
  "superman",
  "starwars",
  "whatever",
  "computer",
  "michelle",
  "jennifer",
  "passport",
  "internet",
  "1234qwer",
  "qwer1234",
  "monkey123",
  "dragon123",
  "sommar2024",
  "sommar2025",
  "sommar2026",
  "losenord",
  "lösenord",
  "losenord1",
  "lösenord1",
  "hejhej123",
  "hittad123",
  "changeme",
  "changeme1",
  "admin123",
  "administrator",
  "master123",
  "secret123",
]);

export type PasswordProblem = "tooShort" | "tooLong" | "common";

export function passwordProblem(password: string): PasswordProblem | null {
  if (password.length < PASSWORD_MIN) return "tooShort";
  if (password.length > PASSWORD_MAX) return "tooLong";
  if (COMMON.has(password.toLowerCase())) return "common";
  return null;
}
