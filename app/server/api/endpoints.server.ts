/**
 * The REST API's endpoints (decision 054), one table: the router dispatches by it (the work
 * of each is in handlers.server.ts, by operationId) and openapi.server.ts writes the OpenAPI
 * document from it, with the same zod schemas, so the document describes exactly what the
 * server validates and answers.
 */
import type { z } from "zod";
import {
  ApiItem,
  ApiMessage,
  ApiConversation,
  ConversationPage,
  InvoiceList,
  ItemPage,
  MemberList,
  MessageList,
  OrderList,
  ScanList,
} from "./representation.server";
import {
  IdParam,
  ItemCreate,
  ItemListQuery,
  ItemPatch,
  ListQuery,
  ReplyCreate,
  ScanQuery,
  StickerClaim,
} from "./schemas.server";

export type Method = "GET" | "POST" | "PATCH";

export interface EndpointInput<Q, B> {
  params: Record<string, string>;
  query: Q;
  body: B;
}

export interface Endpoint<Q = unknown, B = unknown, R = unknown> {
  method: Method;
  /** OpenAPI style, under /api/v1: `/items/{id}`. */
  path: string;
  /** Also the translation key of its summary: api.docs.ops.<operationId>. */
  operationId: string;
  tag: "Items" | "Stickers" | "Conversations" | "Organisation";
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** The path's `{id}`. */
  params?: typeof IdParam;
  response: z.ZodType<R>;
  /** 200, or 201 for what a POST makes. */
  status: 200 | 201;
  /** Needs a read-write key. */
  write: boolean;
  /** Only for the types: what the query and the body parse to, what the answer is. */
  readonly _types?: { query: Q; body: B; response: R };
}

const endpoint = <Q = unknown, B = unknown, R = unknown>(e: Endpoint<Q, B, R>): Endpoint<Q, B, R> => e;

export const ENDPOINT_SPECS = {
  listItems: endpoint({
    method: "GET",
    path: "/items",
    operationId: "listItems",
    tag: "Items",
    query: ItemListQuery,
    response: ItemPage,
    status: 200,
    write: false,
  }),
  createItem: endpoint({
    method: "POST",
    path: "/items",
    operationId: "createItem",
    tag: "Items",
    body: ItemCreate,
    response: ApiItem,
    status: 201,
    write: true,
  }),
  getItem: endpoint({
    method: "GET",
    path: "/items/{id}",
    operationId: "getItem",
    tag: "Items",
    params: IdParam,
    response: ApiItem,
    status: 200,
    write: false,
  }),
  updateItem: endpoint({
    method: "PATCH",
    path: "/items/{id}",
    operationId: "updateItem",
    tag: "Items",
    params: IdParam,
    body: ItemPatch,
    response: ApiItem,
    status: 200,
    write: true,
  }),
  archiveItem: endpoint({
    method: "POST",
    path: "/items/{id}/archive",
    operationId: "archiveItem",
    tag: "Items",
    params: IdParam,
    response: ApiItem,
    status: 200,
    write: true,
  }),
  listScans: endpoint({
    method: "GET",
    path: "/items/{id}/scans",
    operationId: "listScans",
    tag: "Items",
    params: IdParam,
    query: ScanQuery,
    response: ScanList,
    status: 200,
    write: false,
  }),
  listItemConversations: endpoint({
    method: "GET",
    path: "/items/{id}/conversations",
    operationId: "listItemConversations",
    tag: "Conversations",
    params: IdParam,
    query: ListQuery,
    response: ConversationPage,
    status: 200,
    write: false,
  }),
  claimSticker: endpoint({
    method: "POST",
    path: "/stickers/claim",
    operationId: "claimSticker",
    tag: "Stickers",
    body: StickerClaim,
    response: ApiItem,
    status: 201,
    write: true,
  }),
  listConversations: endpoint({
    method: "GET",
    path: "/conversations",
    operationId: "listConversations",
    tag: "Conversations",
    query: ListQuery,
    response: ConversationPage,
    status: 200,
    write: false,
  }),
  getConversation: endpoint({
    method: "GET",
    path: "/conversations/{id}",
    operationId: "getConversation",
    tag: "Conversations",
    params: IdParam,
    response: ApiConversation,
    status: 200,
    write: false,
  }),
  listMessages: endpoint({
    method: "GET",
    path: "/conversations/{id}/messages",
    operationId: "listMessages",
    tag: "Conversations",
    params: IdParam,
    response: MessageList,
    status: 200,
    write: false,
  }),
  replyToConversation: endpoint({
    method: "POST",
    path: "/conversations/{id}/messages",
    operationId: "replyToConversation",
    tag: "Conversations",
    params: IdParam,
    body: ReplyCreate,
    response: ApiMessage,
    status: 201,
    write: true,
  }),
  listMembers: endpoint({
    method: "GET",
    path: "/members",
    operationId: "listMembers",
    tag: "Organisation",
    response: MemberList,
    status: 200,
    write: false,
  }),
  listOrders: endpoint({
    method: "GET",
    path: "/orders",
    operationId: "listOrders",
    tag: "Organisation",
    response: OrderList,
    status: 200,
    write: false,
  }),
  listInvoices: endpoint({
    method: "GET",
    path: "/invoices",
    operationId: "listInvoices",
    tag: "Organisation",
    response: InvoiceList,
    status: 200,
    write: false,
  }),
};

export type OperationId = keyof typeof ENDPOINT_SPECS;

/** Every endpoint, in the order of the table. */
export const ENDPOINTS: readonly Endpoint[] = Object.values(ENDPOINT_SPECS);

/** The endpoint and its path's parameters for a method and a path under /api/v1 ("/items/abc"). */
export function matchEndpoint(
  method: string,
  path: string,
): { endpoint: Endpoint; params: Record<string, string> } | "method" | null {
  const parts = path.split("/").filter(Boolean);
  let pathMatched = false;
  for (const e of ENDPOINTS) {
    const pattern = e.path.split("/").filter(Boolean);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = pattern.every((seg, i) => {
      const m = /^\{(\w+)\}$/.exec(seg);
      if (m) {
        params[m[1]!] = decodeURIComponent(parts[i]!);
        return true;
      }
      return seg === parts[i];
    });
    if (!ok) continue;
    pathMatched = true;
    if (e.method === method) return { endpoint: e, params };
  }
  return pathMatched ? "method" : null;
}
