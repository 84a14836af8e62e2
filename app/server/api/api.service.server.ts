/**
 * The REST API's work (decision 054): another route layer over the features' own services,
 * not new rules. Every call names the key, which acts with its creator's rights (an admin)
 * within its organisation only: a thing of any other organisation, or a personal one, is
 * ApiError notFound, as if it did not exist. Items made here belong to the organisation and
 * are paid as any of its items are (its orders and invoices). No HTTP here (decision 011).
 */
import type { Lang } from "~/i18n/config";
import { NO_FILTER } from "~/lib/domain/item-filter";
import { toOrgRole } from "~/lib/domain/organisation-roles";
import { z } from "zod";
import { findItemById, listItemsOfScopeAfter, type Item } from "../access/items.repository.server";
import { createItem, getOwnedItem, setItemActive, updateOwnedItem } from "../items/items.service.server";
import { listOrganisationBilling } from "../orders/invoice.service.server";
import { findOrganisation, listMembers } from "../organisations/organisations.repository.server";
import { listMessagesOf } from "../relay/relay.repository.server";
import { replyAsOwner } from "../relay/relay.service.server";
import { setItemLost } from "../scans/scans.service.server";
import type { Deps } from "../service-deps.server";
import { claimIntoOrganisation } from "../stickers/claim-mode.service.server";
import { ApiError } from "./api-error.server";
import type { ApiKeyRow } from "./api-keys.repository.server";
import * as repo from "./api.repository.server";
import {
  itemRowOf,
  toApiItem,
  type ApiConversation,
  type ApiInvoice,
  type ApiItem,
  type ApiMember,
  type ApiMessage,
  type ApiOrder,
  type ApiScan,
} from "./representation.server";
import type { ItemCreate, ItemListQuery, ItemPatch, ScanQuery } from "./schemas.server";

export type ApiDeps = Pick<Deps, "db" | "clock" | "config" | "events" | "createItem">;

/** Who calls: the key, the client's address (the claim limits count it) and the answer's language. */
export interface ApiCaller {
  key: ApiKeyRow;
  ip: string;
  lang: Lang;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** Scans listed when `since` is not given: the last 30 days. */
const SCANS_DEFAULT_MS = 30 * 24 * 60 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms == null ? null : iso(ms));

/** An opaque cursor: a position (a time and an id), base64url JSON. */
const position = z.tuple([z.number().int().nonnegative(), z.string().min(1).max(64)]);
export function encodeCursor(at: number, id: string): string {
  return Buffer.from(JSON.stringify([at, id]), "utf8").toString("base64url");
}
export function decodeCursor(cursor: string | undefined): [number, string] | null {
  if (cursor === undefined) return null;
  try {
    return position.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
  } catch {
    throw new ApiError("input.invalid", { fields: "cursor" });
  }
}

function pageOf<R, T>(rows: R[], limit: number, map: (r: R) => T, at: (r: R) => [number, string]): Page<T> {
  const more = rows.length > limit;
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { data: shown.map(map), nextCursor: more && last ? encodeCursor(...at(last)) : null };
}

/** The organisation's item; ApiError notFound for any other. */
async function orgItem(deps: Pick<Deps, "db">, key: ApiKeyRow, id: string): Promise<Item> {
  const item = id.length <= 64 ? await findItemById(deps.db, id) : undefined;
  if (!item || item.organisationId !== key.organisationId) throw new ApiError("notFound");
  return item;
}

function itemOf(deps: Pick<Deps, "config" | "clock">, item: Item): ApiItem {
  return toApiItem(itemRowOf(item), deps.config.baseUrl, deps.clock());
}

export async function listApiItems(deps: ApiDeps, key: ApiKeyRow, query: ItemListQuery): Promise<Page<ApiItem>> {
  const after = decodeCursor(query.cursor);
  const filter = {
    ...NO_FILTER,
    q: (query.q ?? "").replace(/\p{Cc}/gu, " ").trim(),
    type: query.type ?? null,
    paid: query.paid ?? null,
    lost: query.lost ?? false,
  };
  const rows = await listItemsOfScopeAfter(
    deps.db,
    { owner: key.createdBy, organisationId: key.organisationId },
    filter,
    deps.clock(),
    after && { createdAt: after[0], id: after[1] },
    query.limit + 1,
  );
  return pageOf(
    rows,
    query.limit,
    (r) => itemOf(deps, r),
    (r) => [r.createdAt, r.id],
  );
}

export async function getApiItem(deps: ApiDeps, key: ApiKeyRow, id: string): Promise<ApiItem> {
  return itemOf(deps, await orgItem(deps, key, id));
}

/** A new item of the organisation, owned by the key's creator as items an admin registers there are. */
export async function createApiItem(deps: ApiDeps, caller: ApiCaller, input: ItemCreate): Promise<ApiItem> {
  const { key } = caller;
  const contactInfo = input.contactInfo || (await findOrganisation(deps.db, key.organisationId))?.name || "";
  const id = await createItem(
    deps,
    key.createdBy,
    {
      name: input.name,
      findFee: input.finderFee,
      prodType: input.type,
      contactInfo,
      contactVisibility: input.contactVisibility,
      payment: "year",
      intent: "payLater",
      scanAlerts: input.scanAlerts ?? false,
    },
    caller.lang,
    key.organisationId,
    input.assignedTo ?? undefined,
  );
  return getApiItem(deps, key, id);
}

/** Changes what the patch names; `active` archives or brings back, `lost` is lost mode. */
export async function updateApiItem(deps: ApiDeps, key: ApiKeyRow, id: string, patch: ItemPatch): Promise<ApiItem> {
  await orgItem(deps, key, id);
  const owner = key.createdBy;
  const edits = ["name", "type", "finderFee", "contactInfo", "contactVisibility", "assignedTo", "scanAlerts"] as const;
  if (edits.some((f) => patch[f] !== undefined)) {
    const before = await getOwnedItem(deps, owner, id);
    await updateOwnedItem(
      deps,
      owner,
      id,
      {
        name: patch.name ?? before.name,
        findFee: patch.finderFee ?? before.findFee,
        prodType: patch.type ?? before.prodType,
        contactInfo: patch.contactInfo ?? before.contactInfo,
        contactVisibility: patch.contactVisibility ?? before.contactVisibility,
        payment: before.payment,
        intent: "update",
        scanAlerts: patch.scanAlerts ?? before.scanAlerts,
      },
      patch.assignedTo,
    );
  }
  if (patch.active !== undefined) await setItemActive(deps, owner, id, patch.active);
  if (patch.lost !== undefined) await setItemLost(deps, owner, id, patch.lost);
  return getApiItem(deps, key, id);
}

/** Archiving is deactivating the sticker (decision 054): its page shows nothing; PATCH active=true undoes it. */
export async function archiveApiItem(deps: ApiDeps, key: ApiKeyRow, id: string): Promise<ApiItem> {
  await orgItem(deps, key, id);
  await setItemActive(deps, key.createdBy, id, false);
  return getApiItem(deps, key, id);
}

/** Claims a pre-printed sticker as a new item of the organisation (claim mode's rules and limits). */
export async function claimApiSticker(
  deps: ApiDeps,
  caller: ApiCaller,
  input: { code: string; name?: string; assignedTo?: string | null },
): Promise<ApiItem> {
  const { id } = await claimIntoOrganisation(
    deps,
    { userId: caller.key.createdBy, ip: caller.ip },
    caller.key.organisationId,
    { code: input.code, name: input.name ?? "", assignTo: input.assignedTo ?? null },
    caller.lang,
  );
  return getApiItem(deps, caller.key, id);
}

export async function listApiScans(
  deps: ApiDeps,
  key: ApiKeyRow,
  id: string,
  query: ScanQuery,
): Promise<{ data: ApiScan[]; nextSince: string | null }> {
  await orgItem(deps, key, id);
  const since = query.since ? Date.parse(query.since) : deps.clock() - SCANS_DEFAULT_MS;
  const rows = await repo.listScansSince(deps.db, id, since, query.limit + 1);
  const shown = rows.slice(0, query.limit);
  return {
    data: shown.map((r) => ({
      scannedAt: iso(r.at),
      lang: r.lang === "sv" ? "sv" : "en",
      device: r.device === "tablet" || r.device === "desktop" ? r.device : "phone",
    })),
    // Scans of the same millisecond may repeat on the next call; none is lost.
    nextSince: rows.length > query.limit ? iso(rows[query.limit]!.at) : null,
  };
}

const conversationOf = (c: repo.ConversationOfOrganisation): ApiConversation => ({
  id: c.id,
  itemId: c.itemId,
  createdAt: iso(c.createdAt),
  lastMessageAt: iso(c.lastMessageAt),
  channel: c.bySms ? "sms" : "web",
  returned: c.returned,
});

export async function listApiConversations(
  deps: ApiDeps,
  key: ApiKeyRow,
  itemId: string | null,
  query: { limit: number; cursor?: string },
): Promise<Page<ApiConversation>> {
  if (itemId !== null) await orgItem(deps, key, itemId);
  const after = decodeCursor(query.cursor);
  const rows = await repo.listConversationsOfOrganisation(
    deps.db,
    key.organisationId,
    itemId,
    after && { at: after[0], id: after[1] },
    query.limit + 1,
  );
  return pageOf(rows, query.limit, conversationOf, (r) => [r.lastMessageAt, r.id]);
}

async function orgConversation(deps: Pick<Deps, "db">, key: ApiKeyRow, id: string) {
  const c = id.length <= 64 ? await repo.findConversationOfOrganisation(deps.db, key.organisationId, id) : undefined;
  if (!c) throw new ApiError("notFound");
  return c;
}

export async function getApiConversation(deps: ApiDeps, key: ApiKeyRow, id: string): Promise<ApiConversation> {
  return conversationOf(await orgConversation(deps, key, id));
}

/** A conversation's messages, oldest first. Reading them here marks nothing read (a GET changes nothing). */
export async function listApiMessages(deps: ApiDeps, key: ApiKeyRow, id: string): Promise<{ data: ApiMessage[] }> {
  await orgConversation(deps, key, id);
  const messages = await listMessagesOf(deps.db, id);
  return {
    data: messages.map((m) => ({
      id: m.id,
      conversationId: id,
      author: m.author === "finder" ? "finder" : "organisation",
      text: m.text,
      createdAt: iso(m.createdAt),
      read: m.readAt !== null,
    })),
  };
}

/** The organisation's reply, as the owner's side replies (relay rules, limits and delivery). */
export async function replyApiConversation(
  deps: ApiDeps,
  key: ApiKeyRow,
  id: string,
  text: string,
): Promise<ApiMessage> {
  await orgConversation(deps, key, id);
  await replyAsOwner(deps, key.createdBy, id, text);
  const { data } = await listApiMessages(deps, key, id);
  return data.filter((m) => m.author === "organisation").at(-1)!;
}

export async function listApiMembers(deps: ApiDeps, key: ApiKeyRow): Promise<{ data: ApiMember[] }> {
  const members = await listMembers(deps.db, key.organisationId);
  return {
    data: members.map((m) => ({
      userId: m.userId,
      name: m.name,
      email: m.email,
      role: toOrgRole(m.role),
      joinedAt: iso(m.createdAt),
    })),
  };
}

export async function listApiOrders(deps: ApiDeps, key: ApiKeyRow): Promise<{ data: ApiOrder[] }> {
  const rows = await listOrganisationBilling(deps, key.createdBy, key.organisationId);
  return {
    data: rows.map((r) => ({
      id: r.orderId,
      method: r.method,
      paymentMethod: r.paymentMethod,
      state: r.state,
      itemCount: r.itemCount,
      total: { amount: r.totalAmount, currency: r.currency },
      createdAt: iso(r.createdAt),
    })),
  };
}

export async function listApiInvoices(deps: ApiDeps, key: ApiKeyRow): Promise<{ data: ApiInvoice[] }> {
  const rows = await listOrganisationBilling(deps, key.createdBy, key.organisationId);
  return {
    data: rows
      .filter((r) => r.method === "invoice")
      .map((r) => ({
        orderId: r.orderId,
        number: r.invoiceNumber,
        state: r.state,
        total: { amount: r.totalAmount, currency: r.currency },
        reverseCharge: r.reverseCharge,
        createdAt: iso(r.createdAt),
        dueAt: isoOrNull(r.dueAt),
        paidAt: isoOrNull(r.receipts[0]?.paidAt ?? null),
      })),
  };
}
