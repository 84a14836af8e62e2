/**
 * The privacy rights of decision 017 (GDPR articles 15–20): "Download my data" and what
 * "Delete my account" erases. Each kind of data is ONE entry of USER_DATA below, with how
 * it is exported and how it is erased (deleted, or anonymised where the law keeps it).
 * A feature that adds a table holding a user's data adds its entry here; the export and
 * the deletion then cover it, and tests/integration/account.test.ts checks both.
 */
import { stockholmIsoDay } from "~/lib/domain/dates";
import type { Deps } from "../service-deps.server";
import { rateLimits, type RateRule } from "../rate-limit/rate-limit.server";
import { ServiceError } from "../service-error.server";
import { stopAllRenewals } from "../orders/renewals.service.server";
import type { DB } from "../db/db.server";
import * as orgRepo from "../organisations/organisations.repository.server";
import { eraseContacts, exportContacts } from "../trusted-contacts/trusted-contacts.service.server";
import * as alertsRepo from "../alerts/alerts.repository.server";
import * as repo from "./privacy.repository.server";
import { listLookupsByStaff } from "../lookup/lookup.repository.server";
import { eraseDevices, exportDevices } from "../push/push.service.server";
import { zipSync, strToU8, type Zippable } from "fflate";
import { forgetPhotoBytes, photoHashesOfOwner, photosForExport } from "../photos/photos.service.server";
import { tellAdminsOfDeparture } from "../organisations/departure.mail.server";
import type { Config } from "../config.server";

/** The organisations a departing user leaves with members in them, and who inherits their items. */
async function departuresOf(db: DB, userId: string) {
  const out: Array<{ organisationId: string; organisationName: string; heirName: string }> = [];
  for (const organisationId of await orgRepo.listOrganisationIdsOfUser(db, userId)) {
    const heir = await orgRepo.heirOf(db, organisationId, userId);
    if (!heir) continue;
    const [organisation, heirProfile] = await Promise.all([
      orgRepo.findOrganisation(db, organisationId),
      repo.readProfile(db, heir),
    ]);
    if (organisation)
      out.push({ organisationId, organisationName: organisation.name, heirName: heirProfile?.name ?? "" });
  }
  return out;
}

/** lastOrganisationAdmin: the deletion found the user the only admin of organisations with other members. */
export type PrivacyErrorCode = "rateLimited" | "lastOrganisationAdmin";
export class PrivacyError extends ServiceError<PrivacyErrorCode> {}

/** Exports per user: each builds the whole file, so a few an hour are plenty. */
export const EXPORT_LIMIT: RateRule = { name: "export:user", limit: 5, windowMs: 60 * 60_000 };

export interface DataSubject {
  id: string;
  /** Lower case, as stored. */
  email: string;
  /**
   * Whether the account proved it holds `email` (decision 028): records kept by
   * address only (contact messages sent signed out, the mail log, admin grants by address)
   * are the account's only then. Anyone may register any address without opening its mail.
   */
  emailVerified: boolean;
}

interface ErasureContext {
  db: DB;
  config: Config;
  now: number;
  /** Item ids deleted, whose finder pages must be forgotten. */
  forgottenItems: string[];
}

interface UserDataKind {
  /** The key in the export file. */
  key: string;
  export(db: DB, user: DataSubject): Promise<unknown>;
  /**
   * Runs inside the deletion's transaction, before better-auth deletes the user, sessions
   * and sign-in methods (those kinds erase nothing themselves). Null: nothing to erase.
   */
  erase: ((ctx: ErasureContext, user: DataSubject) => Promise<void>) | null;
}

/** Everything Hittad holds about a user, one entry per kind. */
export const USER_DATA: UserDataKind[] = [
  // better-auth's user row: deleted by better-auth's deleteUser.
  { key: "profile", export: (db, u) => repo.readProfile(db, u.id), erase: null },
  {
    key: "addresses",
    export: (db, u) => repo.readAddresses(db, u.id),
    // The profile address goes with the user row; the next-order address is ours.
    erase: (ctx, u) => repo.deleteOrderDraft(ctx.db, u.id),
  },
  // better-auth's account rows (no password hash or tokens exported): deleted by better-auth.
  { key: "signInMethods", export: (db, u) => repo.readSignInMethods(db, u.id), erase: null },
  // better-auth's sessions (no tokens exported): deleted by better-auth.
  { key: "sessions", export: (db, u) => repo.readSessions(db, u.id), erase: null },
  {
    // First (decision 022): organisations the user is the only member of go with their items;
    // in the others the user's organisation items pass to a remaining admin, so the
    // per-owner erasures below leave them alone.
    key: "organisations",
    export: (db, u) => orgRepo.readMembershipsForExport(db, u.id),
    erase: async (ctx, u) => {
      // The last-admin check again, under the organisations' locks: two admins deleting
      // their accounts at once must not leave members without an admin.
      for (const id of await orgRepo.listOrganisationIdsOfUser(ctx.db, u.id)) {
        await orgRepo.lockOrganisation(ctx.db, id, ctx.now);
      }
      const sole = await orgRepo.listSoleAdminshipsWithOthers(ctx.db, u.id);
      if (sole.length > 0) {
        throw new PrivacyError("lastOrganisationAdmin", { organisations: sole.map((o) => o.name).join(", ") });
      }
      // Organisations the user leaves behind (others remain): their admins are told (decision 051).
      const left = await departuresOf(ctx.db, u.id);
      ctx.forgottenItems.push(...(await orgRepo.eraseUserFromOrganisations(ctx.db, u.id, ctx.now)));
      const member = { id: u.id, name: (await repo.readProfile(ctx.db, u.id))?.name ?? "", email: u.email };
      for (const d of left) await tellAdminsOfDeparture(ctx.db, ctx.config, { ...d, member, now: ctx.now });
    },
  },
  {
    // Before the items: scans and conversations hang on them (decision 014).
    key: "scans",
    export: (db, u) => repo.readScans(db, u.id),
    erase: (ctx, u) => repo.deleteScans(ctx.db, u.id),
  },
  {
    key: "conversations",
    export: (db, u) => repo.readConversations(db, u.id),
    erase: (ctx, u) => repo.deleteConversations(ctx.db, u.id),
  },
  {
    key: "replacementStickers",
    export: (db, u) => repo.readReplacements(db, u.id),
    erase: (ctx, u) => repo.deleteReplacements(ctx.db, u.id),
  },
  {
    key: "items",
    export: (db, u) => repo.readItems(db, u.id),
    erase: async (ctx, u) => {
      ctx.forgottenItems.push(...(await repo.deleteItems(ctx.db, u.id)));
    },
  },
  {
    key: "orders",
    export: (db, u) => repo.readOrders(db, u.id),
    // Bookkeeping law (bokföringslagen: 7 years) keeps orders and receipts: anonymised.
    erase: (ctx, u) => repo.anonymiseOrders(ctx.db, u.id, ctx.now),
  },
  {
    key: "receipts",
    export: (db, u) => repo.readReceipts(db, u.id),
    // Kept for the books like the orders they belong to, without the link to the person.
    erase: (ctx, u) => repo.anonymiseReceipts(ctx.db, u.id),
  },
  {
    key: "creditNotes",
    export: (db, u) => repo.readCreditNotes(db, u.id),
    // Kept for the books like the receipts they correct (decision 051).
    erase: (ctx, u) => repo.anonymiseCreditNotes(ctx.db, u.id),
  },
  {
    key: "stickerShipments",
    export: (db, u) => repo.readShipments(db, u.id),
    erase: (ctx, u) => repo.anonymiseShipments(ctx.db, u.id, ctx.now),
  },
  {
    key: "supportMessages",
    // Sent while signed in (linked by user id), or by the account's verified address.
    export: (db, u) => repo.readContactMessages(db, u),
    erase: (ctx, u) => repo.deleteContactMessages(ctx.db, u),
  },
  {
    key: "adminGrants",
    export: (db, u) => repo.readAdminGrants(db, u),
    erase: (ctx, u) => repo.deleteAdminGrants(ctx.db, u.id),
  },
  {
    // Decision 033: the mobile number, alert settings and the records of alerts sent.
    key: "alerts",
    export: (db, u) => alertsRepo.readAlertDataForExport(db, u.id),
    erase: (ctx, u) => alertsRepo.eraseAlertData(ctx.db, u.id),
  },
  {
    // Browsers that get push notifications (decision 034): label and push service, no keys.
    key: "pushDevices",
    export: (db, u) => exportDevices({ db }, u.id),
    erase: (ctx, u) => eraseDevices(ctx, u.id),
  },
  {
    // Trusted contacts the account named (decision 033): name, email, number, status.
    key: "trustedContacts",
    export: (db, u) => exportContacts({ db }, u.id),
    erase: (ctx, u) => eraseContacts(ctx, u.id),
  },
  {
    // Staff look-ups of items' owners (decision 030): the staff member's own, in their export.
    // Not erased with the account: the log answers owners' "who looked at my details?" and
    // is deleted after RETENTION_MS.lookups (a year), as /privacy says (decision 041).
    key: "staffLookups",
    export: async (db, u) =>
      (await listLookupsByStaff(db, u.id)).map((l) => ({
        lookedUpAt: new Date(l.lookedUpAt).toISOString(),
        typed: l.query,
        itemId: l.productId,
        staffEmail: l.staffEmail,
      })),
    erase: null,
  },
  {
    key: "mails",
    // The mail log is kept by address: the account's once the address is verified.
    export: (db, u) => repo.readMails(db, u),
    erase: (ctx, u) => repo.deleteMails(ctx.db, u),
  },
  {
    // Password-reset tokens: never exported (secrets), always erased.
    key: "pendingLinks",
    export: async () => undefined,
    erase: (ctx, u) => repo.deleteVerificationsOf(ctx.db, u.id),
  },
];

export interface DataExport {
  filename: string;
  json: string;
  /**
   * With photos (decision 035): a ZIP of the JSON and the images (the owner's 1280 px WebP of
   * each, named in the JSON's `photos`), to send instead of the JSON alone.
   */
  zip?: { filename: string; bytes: Uint8Array };
}

/**
 * "Download my data": one JSON document with every kind above (no secrets: no password
 * hash, session tokens or provider tokens). `consent` is the browser's cookie choice,
 * which only the request knows. Rate-limited per user.
 */
export async function exportUserData(
  deps: Pick<Deps, "db" | "config" | "clock" | "events" | "photos">,
  user: DataSubject,
  input: { consentCookie: boolean },
): Promise<DataExport> {
  const now = deps.clock();
  const hit = await rateLimits(deps.config, deps.db).hit(EXPORT_LIMIT, user.id, now);
  if (!hit.ok) throw new PrivacyError("rateLimited", { count: hit.retryAfterMinutes });
  const out: Record<string, unknown> = {
    service: "Hittad",
    exportedAt: new Date(now).toISOString(),
    consent: { cookiesAccepted: input.consentCookie },
  };
  for (const kind of USER_DATA) {
    const value = await kind.export(deps.db, user);
    if (value !== undefined) out[kind.key] = value;
  }
  // The photos of the items above, by the same rule (decision 050).
  const photos = await photosForExport(deps, await repo.listPersonalItemIds(deps.db, user.id));
  const files: Zippable = {};
  if (photos.length) {
    out.photos = photos.map((p) => {
      const file = `photos/${p.itemId}-${p.position + 1}.webp`;
      // Stored, not deflated: WebP is compressed already.
      files[file] = [new Uint8Array(p.bytes), { level: 0 }];
      return { itemId: p.itemId, position: p.position + 1, private: p.private, file };
    });
  }
  const day = stockholmIsoDay(now);
  const json = JSON.stringify(out, null, 2);
  if (!photos.length) return { filename: `hittad-data-${day}.json`, json };
  files[`hittad-data-${day}.json`] = [strToU8(json), { level: 6 }];
  return {
    filename: `hittad-data-${day}.json`,
    json,
    zip: { filename: `hittad-data-${day}.zip`, bytes: zipSync(files) },
  };
}

/**
 * Erases a user's data, called by better-auth's deleteUser once the password (or a fresh
 * social sign-in) is proven, before it removes the user, sessions and sign-in methods.
 * Subscriptions stop renewing at the provider first: if the provider refuses, nothing is
 * erased and the account stays.
 */
export async function eraseUserData(
  deps: Pick<Deps, "db" | "config" | "clock" | "payments" | "events" | "photos">,
  user: DataSubject,
): Promise<void> {
  await stopAllRenewals(deps, user.id);
  const forgottenItems: string[] = [];
  // Photos of the items the user created: their rows go with the items (cascade), their
  // bytes once no photo uses them (decision 035).
  const photoHashes = await photoHashesOfOwner(deps, user.id);
  await deps.db.transaction().execute(async (trx) => {
    const ctx: ErasureContext = { db: trx, config: deps.config, now: deps.clock(), forgottenItems };
    for (const kind of USER_DATA) if (kind.erase) await kind.erase(ctx, user);
  });
  await deps.events.emit("itemsChanged", { itemIds: forgottenItems }, deps);
  await forgetPhotoBytes(deps, photoHashes);
}
