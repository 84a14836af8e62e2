/**
 * The name a mail greets someone by: the first word of their name ("Anna Maria Lind" →
 * "Anna"), as people write "Hej Anna!" / "Hello Anna," (decision 018). Falls back to the
 * whole fallback (their email) when no name is known.
 */
export function firstName(name: string | null | undefined, fallback: string): string {
  const first = (name ?? "").trim().split(/\s+/)[0];
  return first || fallback;
}
