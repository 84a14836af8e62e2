/** The signed-in user as the screens see it (the spec's session user object). */
export interface SessionUser {
  /** Our user id (the spec's ref). */
  ref: string;
  name: string;
  email: string;
  /** Photo URL from a social provider, if any. */
  img: string | null;
  isAdmin: boolean;
}
