import { createContext, use } from "react";

/**
 * A page rendered without React Router's scripts (docs/decisions/020): the
 * anonymous finder page. The server hands the root layout the inline stylesheet and the
 * page's one small script; in the browser there is none (such a page is never hydrated).
 */
export interface LeanPageAssets {
  css: string;
  script: string;
  /**
   * The captcha's page script (app/lean/captcha-page-script.ts, a module file of the client
   * build): loaded only by a lean page that shows a captcha (decision 042).
   */
  captchaScript: string;
}

export const LeanPageContext = createContext<LeanPageAssets | undefined>(undefined);

export function useLeanPageAssets() {
  return use(LeanPageContext);
}

/**
 * Whether the page being rendered is lean (set by the root layout). Always false in the
 * browser: a lean page is never hydrated, so a component may render differently for it.
 */
export const LeanRenderContext = createContext(false);

export function useLeanRender(): boolean {
  return use(LeanRenderContext);
}

/**
 * A route opts in with `handle.lean(loaderData, visitor)`: true when this response needs no
 * framework JavaScript (the finder page for anyone but the item's owner, the pages an
 * anonymous visitor reads). `loaderData` is undefined for a route without a loader.
 */
export interface LeanHandle {
  lean?: (loaderData: unknown, visitor: { signedIn: boolean }) => boolean;
}

/** The handle's `lean` of a page that is lean for every visitor who is not signed in. */
export const leanWhenAnonymous: NonNullable<LeanHandle["lean"]> = (_data, { signedIn }) => !signedIn;
