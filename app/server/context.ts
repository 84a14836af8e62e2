import { createContext } from "react-router";
import type { Lang } from "~/i18n/config";
import type { PhotoUpload } from "./photos/photo-upload.server";

/** Per-request facts decided by the HTTP layer (server/app.ts) before any loader runs. */
export interface RequestInfo {
  requestId: string;
  /** CSP nonce for this response's scripts. */
  nonce: string;
  lang: Lang;
  /** The ConsentApproved cookie is present. */
  consent: boolean;
  /** The client's IP address (rate limits); behind a proxy see TRUST_PROXY. */
  ip: string;
  /**
   * A photo form's POST was over its body limit (decision 035): the page is rendered as for a
   * GET and its loader answers 413 with the message (app/server/http/body-limit.server.ts).
   */
  bodyTooLarge?: boolean;
  /** A photo form's POST as the upload intake received it (decision 050; photos.http.server.ts readPhotoForm). */
  photoUpload?: PhotoUpload;
}

export const requestContext = createContext<RequestInfo>();
