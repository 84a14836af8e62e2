/** The signed-in user as the screens see it (the spec's session user object). */
export interface SessionUser {
  /** Our user id (the spec's ref). */
  ref: string;
  name: string;
  email: string;
  /** Photo URL from a social provider, if any. */
  img: string | null;
  /** The email address is proven (mailed link, or a provider that reported it verified). */
  emailVerified: boolean;
  /** Support admin: a verified email with a grant bound to this user (session.server.ts). */
  isAdmin: boolean;
}
