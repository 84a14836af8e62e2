/**
 * A same-site path to go back to after a form, or '/'. Refuses absolute and
 * protocol-relative URLs so a crafted link cannot send visitors elsewhere.
 */
export function safeRedirectTarget(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length > 2000) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (/[\r\n\t]/.test(value)) return fallback;
  return value;
}
