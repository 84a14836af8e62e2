/**
 * The work of each REST API endpoint (decision 054), by operationId: the endpoint table
 * (endpoints.server.ts) says what comes in and goes out, this what is done. Typed by the
 * table: each handler gets what its schemas parse to and must answer its response schema's
 * type, so the document and the answers cannot differ.
 */
import * as api from "./api.service.server";
import type { Endpoint, EndpointInput, OperationId } from "./endpoints.server";
import { ENDPOINT_SPECS } from "./endpoints.server";

type Spec<K extends OperationId> = (typeof ENDPOINT_SPECS)[K];
type InputOf<K extends OperationId> = Spec<K> extends Endpoint<infer Q, infer B, unknown> ? EndpointInput<Q, B> : never;
type ResultOf<K extends OperationId> = Spec<K> extends Endpoint<unknown, unknown, infer R> ? R : never;

export type Handlers = {
  [K in OperationId]: (deps: api.ApiDeps, caller: api.ApiCaller, input: InputOf<K>) => Promise<ResultOf<K>>;
};

const id = (input: { params: Record<string, string> }) => input.params.id!;

export const HANDLERS: Handlers = {
  listItems: (deps, c, input) => api.listApiItems(deps, c.key, input.query),
  createItem: (deps, c, input) => api.createApiItem(deps, c, input.body),
  getItem: (deps, c, input) => api.getApiItem(deps, c.key, id(input)),
  updateItem: (deps, c, input) => api.updateApiItem(deps, c.key, id(input), input.body),
  archiveItem: (deps, c, input) => api.archiveApiItem(deps, c.key, id(input)),
  listScans: (deps, c, input) => api.listApiScans(deps, c.key, id(input), input.query),
  listItemConversations: (deps, c, input) => api.listApiConversations(deps, c.key, id(input), input.query),
  claimSticker: (deps, c, input) => api.claimApiSticker(deps, c, input.body),
  listConversations: (deps, c, input) => api.listApiConversations(deps, c.key, null, input.query),
  getConversation: (deps, c, input) => api.getApiConversation(deps, c.key, id(input)),
  listMessages: (deps, c, input) => api.listApiMessages(deps, c.key, id(input)),
  replyToConversation: (deps, c, input) => api.replyApiConversation(deps, c.key, id(input), input.body.text),
  listMembers: (deps, c) => api.listApiMembers(deps, c.key),
  listOrders: (deps, c) => api.listApiOrders(deps, c.key),
  listInvoices: (deps, c) => api.listApiInvoices(deps, c.key),
};

/** The handler of an endpoint of the table. */
export function handlerOf(operationId: string) {
  return HANDLERS[operationId as OperationId] as (
    deps: api.ApiDeps,
    caller: api.ApiCaller,
    input: EndpointInput<unknown, unknown>,
  ) => Promise<unknown>;
}
