/**
 * The REST API's types, generated from its OpenAPI document by openapi-typescript
 * (tests/quality/openapi.test.ts checks they are current). Do not edit: `npm run api:types`.
 */
export interface paths {
  "/items": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List the organisation's items, newest first, with the dashboard's filters */
    get: operations["listItems"];
    put?: never;
    /** Register a new item of the organisation */
    post: operations["createItem"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/items/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read one item */
    get: operations["getItem"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Change an item (only the fields sent) */
    patch: operations["updateItem"];
    trace?: never;
  };
  "/items/{id}/archive": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Archive an item: its sticker shows nothing until it is active again */
    post: operations["archiveItem"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/items/{id}/scans": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Scans of an item since a time, oldest first */
    get: operations["listScans"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/items/{id}/conversations": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Finders' conversations about one item */
    get: operations["listItemConversations"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/stickers/claim": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Claim a pre-printed sticker as a new item of the organisation */
    post: operations["claimSticker"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/conversations": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Finders' conversations about the organisation's items, latest first */
    get: operations["listConversations"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/conversations/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read one conversation */
    get: operations["getConversation"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/conversations/{id}/messages": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The messages of a conversation, oldest first */
    get: operations["listMessages"];
    put?: never;
    /** Reply to the finder as the organisation */
    post: operations["replyToConversation"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/members": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The organisation's members */
    get: operations["listMembers"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/orders": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The organisation's orders */
    get: operations["listOrders"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/invoices": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The organisation's invoices */
    get: operations["listInvoices"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    ItemCreate: {
      name: string;
      /**
       * @default other
       * @enum {string}
       */
      type?: "mobile" | "laptop" | "other";
      /**
       * @description Hittelön, in whole SEK or EUR.
       * @default 0
       */
      finderFee?: number;
      /** @description The item's own contact text (finders of an organisation item see the desk's); default the organisation's name. */
      contactInfo?: string;
      /**
       * @default private
       * @enum {string}
       */
      contactVisibility?: "public" | "private";
      /** @description The member it is assigned to (a user id from GET /members); null or absent: the organisation's desk. */
      assignedTo?: string | null;
      scanAlerts?: boolean;
    };
    ItemPatch: {
      name?: string;
      /** @enum {string} */
      type?: "mobile" | "laptop" | "other";
      finderFee?: number;
      contactInfo?: string;
      /** @enum {string} */
      contactVisibility?: "public" | "private";
      /** @description The member it is assigned to (a user id from GET /members); null: the organisation's desk. */
      assignedTo?: string | null;
      scanAlerts?: boolean;
      /** @description false archives the item (as POST …/archive); true brings it back. */
      active?: boolean;
      /** @description Lost mode on or off. */
      lost?: boolean;
    };
    StickerClaim: {
      /** @description The sticker's printed code (K7M-29Q-XHR; any case, spaces, dashes). */
      code: string;
      /** @description Default: “Sticker K7M-29Q-XHR”. */
      name?: string;
      /** @description The member it is assigned to (a user id from GET /members); null or absent: the organisation's desk. */
      assignedTo?: string | null;
    };
    ReplyCreate: {
      text: string;
    };
    ItemPage: {
      data: components["schemas"]["Item"][];
      /** @description Pass as `cursor` for the next page; null on the last page. */
      nextCursor: string | null;
    };
    Item: {
      /** @description The item's id; also its sticker's short URL path (/{id}). */
      id: string;
      /** @description The typeable sticker code printed under the QR code. */
      code: string;
      name: string;
      /** @enum {string} */
      type: "mobile" | "laptop" | "other";
      finderFee: {
        amount: number;
        /** @enum {string} */
        currency: "SEK" | "EUR";
      };
      /** @enum {string} */
      contactVisibility: "public" | "private";
      /**
       * @description deactivated: the sticker shows nothing; lost: lost mode; active: paid; unpaid.
       * @enum {string}
       */
      status: "unpaid" | "active" | "lost" | "deactivated";
      paidUntil: string | null;
      lostSince: string | null;
      lastScannedAt: string | null;
      /** @description The member's user id, or null for the organisation's. */
      assignedTo: string | null;
      /**
       * Format: uri
       * @description The sticker's short URL, what the QR code holds.
       */
      url: string;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Problem: {
      type: string;
      title: string;
      status: number;
      /** @description What went wrong, in the language of Accept-Language (en, sv). */
      detail: string;
      /** @description The service's error code, e.g. notFound, claim.notClaimable. */
      code: string;
      /** @description input.invalid: the fields that did not pass. */
      errors?: {
        path: string;
        message: string;
      }[];
    };
    ScanList: {
      data: components["schemas"]["Scan"][];
      /** @description More scans follow: pass as `since` for the next ones. */
      nextSince: string | null;
    };
    Scan: {
      /** Format: date-time */
      scannedAt: string;
      /** @enum {string} */
      lang: "en" | "sv";
      /** @enum {string} */
      device: "phone" | "tablet" | "desktop";
    };
    ConversationPage: {
      data: components["schemas"]["Conversation"][];
      /** @description Pass as `cursor` for the next page; null on the last page. */
      nextCursor: string | null;
    };
    Conversation: {
      id: string;
      itemId: string;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      lastMessageAt: string;
      /**
       * @description How the finder writes: the finder page (and mail) or SMS.
       * @enum {string}
       */
      channel: "web" | "sms";
      /** @description The organisation confirmed it has the item back. */
      returned: boolean;
    };
    MessageList: {
      data: components["schemas"]["Message"][];
    };
    Message: {
      id: string;
      conversationId: string;
      /** @enum {string} */
      author: "finder" | "organisation";
      text: string;
      /** Format: date-time */
      createdAt: string;
      /** @description A finder's message: read on the organisation's side. A reply: read by the finder. */
      read: boolean;
    };
    MemberList: {
      data: components["schemas"]["Member"][];
    };
    Member: {
      userId: string;
      name: string;
      email: string;
      /** @enum {string} */
      role: "admin" | "member";
      /** Format: date-time */
      joinedAt: string;
    };
    OrderList: {
      data: components["schemas"]["Order"][];
    };
    Order: {
      id: string;
      /**
       * @description Checkout (`card`, whatever the payer used there) or invoice.
       * @enum {string}
       */
      method: "card" | "invoice";
      /**
       * @description What pays it: a card subscription, one year by Swish or Klarna, or an invoice.
       * @enum {string}
       */
      paymentMethod: "card" | "swish" | "klarna" | "invoice";
      /** @enum {string} */
      state: "open" | "overdue" | "paid" | "void" | "lapsed";
      itemCount: number;
      /** @description `amount` in minor units (öre, cent). */
      total: {
        amount: number;
        /** @enum {string} */
        currency: "SEK" | "EUR";
      };
      /** Format: date-time */
      createdAt: string;
    };
    InvoiceList: {
      data: components["schemas"]["Invoice"][];
    };
    Invoice: {
      orderId: string;
      number: string | null;
      /** @enum {string} */
      state: "open" | "overdue" | "paid" | "void" | "lapsed";
      /** @description `amount` in minor units (öre, cent). */
      total: {
        amount: number;
        /** @enum {string} */
        currency: "SEK" | "EUR";
      };
      reverseCharge: boolean;
      /** Format: date-time */
      createdAt: string;
      dueAt: string | null;
      paidAt: string | null;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  listItems: {
    parameters: {
      query?: {
        /** @description Part of the item's name (case-insensitive). */
        q?: string;
        type?: "mobile" | "laptop" | "other";
        paid?: "paid" | "unpaid";
        /** @description true: only items in lost mode. */
        lost?: "true" | "false";
        limit?: number;
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ItemPage"];
        };
      };
      /** @description The body or query did not pass (input.invalid, body.invalid). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No key, or a key that is unknown or revoked (auth.missing, auth.invalid). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No such thing in the key's organisation (notFound). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Past the key's requests a minute (rateLimited). */
      429: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          /** @description Seconds to wait. */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  createItem: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key and body within 24 hours gives the same answer and does the work once. */
        "Idempotency-Key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ItemCreate"];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Item"];
        };
      };
      /** @description The body or query did not pass (input.invalid, body.invalid). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No key, or a key that is unknown or revoked (auth.missing, auth.invalid). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description A read key writing (scope.readOnly). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No such thing in the key's organisation (notFound). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description The same Idempotency-Key is still being answered (idempotency.inProgress). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description The Idempotency-Key was used with another body (idempotency.mismatch). */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Past the key's requests a minute (rateLimited). */
      429: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          /** @description Seconds to wait. */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  getItem: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Item"];
        };
      };
      /** @description The body or query did not pass (input.invalid, body.invalid). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No key, or a key that is unknown or revoked (auth.missing, auth.invalid). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No such thing in the key's organisation (notFound). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Past the key's requests a minute (rateLimited). */
      429: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          /** @description Seconds to wait. */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  updateItem: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ItemPatch"];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Item"];
        };
      };
      /** @description The body or query did not pass (input.invalid, body.invalid). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No key, or a key that is unknown or revoked (auth.missing, auth.invalid). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description A read key writing (scope.readOnly). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No such thing in the key's organisation (notFound). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Past the key's requests a minute (rateLimited). */
      429: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          /** @description Seconds to wait. */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  archiveItem: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key and body within 24 hours gives the same answer and does the work once. */
        "Idempotency-Key"?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Item"];
        };
      };
      /** @description The body or query did not pass (input.invalid, body.invalid). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No key, or a key that is unknown or revoked (auth.missing, auth.invalid). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description A read key writing (scope.readOnly). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No such thing in the key's organisation (notFound). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description The same Idempotency-Key is still being answered (idempotency.inProgress). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description The Idempotency-Key was used with another body (idempotency.mismatch). */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Past the key's requests a minute (rateLimited). */
      429: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          /** @description Seconds to wait. */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  listScans: {
    parameters: {
      query?: {
        /** @description Scans at or after this time; default the last 30 days. */
        since?: string;
        limit?: number;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ScanList"];
        };
      };
      /** @description The body or query did not pass (input.invalid, body.invalid). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No key, or a key that is unknown or revoked (auth.missing, auth.invalid). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No such thing in the key's organisation (notFound). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Past the key's requests a minute (rateLimited). */
      429: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          /** @description Seconds to wait. */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  listItemConversations: {
    parameters: {
      query?: {
        limit?: number;
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ConversationPage"];
        };
      };
      /** @description The body or query did not pass (input.invalid, body.invalid). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No key, or a key that is unknown or revoked (auth.missing, auth.invalid). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No such thing in the key's organisation (notFound). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Past the key's requests a minute (rateLimited). */
      429: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          /** @description Seconds to wait. */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  claimSticker: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key and body within 24 hours gives the same answer and does the work once. */
        "Idempotency-Key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["StickerClaim"];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Item"];
        };
      };
      /** @description The body or query did not pass (input.invalid, body.invalid). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No key, or a key that is unknown or revoked (auth.missing, auth.invalid). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description A read key writing (scope.readOnly). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No such thing in the key's organisation (notFound). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description The same Idempotency-Key is still being answered (idempotency.inProgress). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description The Idempotency-Key was used with another body (idempotency.mismatch). */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Past the key's requests a minute (rateLimited). */
      429: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          /** @description Seconds to wait. */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  listConversations: {
    parameters: {
      query?: {
        limit?: number;
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ConversationPage"];
        };
      };
      /** @description The body or query did not pass (input.invalid, body.invalid). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No key, or a key that is unknown or revoked (auth.missing, auth.invalid). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No such thing in the key's organisation (notFound). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Past the key's requests a minute (rateLimited). */
      429: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          /** @description Seconds to wait. */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  getConversation: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Conversation"];
        };
      };
      /** @description The body or query did not pass (input.invalid, body.invalid). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No key, or a key that is unknown or revoked (auth.missing, auth.invalid). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No such thing in the key's organisation (notFound). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Past the key's requests a minute (rateLimited). */
      429: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          /** @description Seconds to wait. */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  listMessages: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["MessageList"];
        };
      };
      /** @description The body or query did not pass (input.invalid, body.invalid). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No key, or a key that is unknown or revoked (auth.missing, auth.invalid). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No such thing in the key's organisation (notFound). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Past the key's requests a minute (rateLimited). */
      429: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          /** @description Seconds to wait. */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  replyToConversation: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key and body within 24 hours gives the same answer and does the work once. */
        "Idempotency-Key"?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ReplyCreate"];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Message"];
        };
      };
      /** @description The body or query did not pass (input.invalid, body.invalid). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No key, or a key that is unknown or revoked (auth.missing, auth.invalid). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description A read key writing (scope.readOnly). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No such thing in the key's organisation (notFound). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description The same Idempotency-Key is still being answered (idempotency.inProgress). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description The Idempotency-Key was used with another body (idempotency.mismatch). */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Past the key's requests a minute (rateLimited). */
      429: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          /** @description Seconds to wait. */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  listMembers: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["MemberList"];
        };
      };
      /** @description The body or query did not pass (input.invalid, body.invalid). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No key, or a key that is unknown or revoked (auth.missing, auth.invalid). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No such thing in the key's organisation (notFound). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Past the key's requests a minute (rateLimited). */
      429: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          /** @description Seconds to wait. */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  listOrders: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["OrderList"];
        };
      };
      /** @description The body or query did not pass (input.invalid, body.invalid). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No key, or a key that is unknown or revoked (auth.missing, auth.invalid). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No such thing in the key's organisation (notFound). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Past the key's requests a minute (rateLimited). */
      429: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          /** @description Seconds to wait. */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  listInvoices: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["InvoiceList"];
        };
      };
      /** @description The body or query did not pass (input.invalid, body.invalid). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No key, or a key that is unknown or revoked (auth.missing, auth.invalid). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description No such thing in the key's organisation (notFound). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Past the key's requests a minute (rateLimited). */
      429: {
        headers: {
          /** @description The key's limit: requests (q) per window of seconds (w). */
          "RateLimit-Policy"?: string;
          /** @description What is left (r) and seconds until the window resets (t). */
          RateLimit?: string;
          /** @description Seconds to wait. */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
}
