/**
 * Who may do what (decision 060): one table, role × thing × action, read by every service
 * and route that decides, and by the components that hide what a role cannot use. The
 * server decides; a component only asks the same table so it does not offer what would be
 * refused. No zod, no server imports: the header and the route modules load it too.
 *
 * The roles are what someone is to the thing in question, found by the caller:
 * - `owner`: the person a personal thing (item, order, account) belongs to;
 * - `admin` / `member`: an admin or a plain member of the organisation the thing belongs to;
 * - `assignee`: the member an organisation item is assigned to (decision 026);
 * - `placer`: the member who placed an organisation's order (decisions 026 and 028);
 * - `staff`: Hittad's staff (`user.isAdmin`, decision 007).
 *
 * Outsiders have no role; every action is refused to them, and the services answer them
 * `notFound` so that a refusal does not tell them the thing exists.
 */
export type Role = "owner" | "admin" | "member" | "assignee" | "placer" | "staff";

export const PERMISSIONS = {
  item: {
    /** Edit, delete, lost mode, QR, photos, relay threads, pay (items/item-access's SQL). */
    manage: ["owner", "admin", "assignee"],
    /** Choose or change whom an organisation item is assigned to. */
    assign: ["admin"],
    /** Delete an item that someone else's subscription pays for (ending its renewal). */
    endOthersRenewal: ["admin"],
  },
  order: {
    /** The order page, the receipt, the credit note. */
    view: ["owner", "admin", "placer"],
    /** Checkout, confirmation, cancel or resume the renewal, the payment method. */
    pay: ["owner", "placer"],
  },
  invoice: {
    /** Pay by invoice, see the organisation's invoices and billing. */
    use: ["admin"],
  },
  organisation: {
    /** The organisation's page: name, and leaving it. */
    view: ["admin", "member"],
    /** Its details, members, roles, billing email and the data processing agreement. */
    manage: ["admin"],
    /** Send invites; an invite stays valid only while its sender may still do this. */
    invite: ["admin"],
    /** CSV import, export and template of all its items (decision 039). */
    csv: ["admin"],
    /** Its lost-and-found desk's trusted contacts (decision 040). */
    trustedContacts: ["admin"],
    /** Claim pre-printed stickers for it in a run (decision 036). */
    claimStickers: ["admin"],
    /** Hear about and answer the conversations of every item it has. */
    everyConversation: ["admin"],
    /** Its webhook endpoints: add, see the secret and the delivery log, resend, disable, delete (decision 061). */
    webhooks: ["admin"],
    /** Its REST API keys: create, list, revoke (decision 054). */
    apiKeys: ["admin"],
  },
  account: {
    /** The personal scope's CSV import, export and template. */
    csv: ["owner"],
  },
  staffDesk: {
    /** Sticker batches, shipments, support messages, lookups, orders, backups. */
    use: ["staff"],
  },
} as const satisfies Record<string, Record<string, readonly Role[]>>;

export type Thing = keyof typeof PERMISSIONS;
export type Action<T extends Thing> = keyof (typeof PERMISSIONS)[T] & string;

/** Whether someone in `role` (none: an outsider) may do `action` to a `thing`. */
export function may<T extends Thing>(role: Role | null | undefined, thing: T, action: Action<T>): boolean {
  if (!role) return false;
  const allowed = PERMISSIONS[thing][action] as readonly Role[];
  return allowed.includes(role);
}

/** Someone's role as Hittad's staff: `staff` for staff, none for everyone else. */
export function staffRole(user: { isAdmin: boolean } | null | undefined): Role | null {
  return user?.isAdmin ? "staff" : null;
}
