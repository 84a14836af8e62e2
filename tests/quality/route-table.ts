/**
 * The authorization matrix (decision 010): every route of app/routes.ts, and the
 * Express endpoints beside them, with the status each kind of visitor must get for a GET
 * (loader) and a POST (action). tests/integration/security.test.ts requests every
 * cell; tests/quality/route-table.test.ts fails when app/routes.ts has a route without a
 * row here, so a new route cannot land untested.
 *
 * Roles: `anonymous`; `owner`, a signed-in user who owns the item in `{item}` (for pages
 * without an item: any signed-in user with a name); `other`, another signed-in user;
 * `admin`, a signed-in support admin (ADMIN_EMAILS, email verified) who does not own the item.
 * An account that registered an admin email without verifying it (decision 012) must get
 * exactly what `other` gets in every cell: tests/integration/security.test.ts requests
 * each row as that account too (UNVERIFIED_ADMIN_AS).
 * Placeholders in `url` and `body`: {item} = the owner's unpaid item, {message} = a support
 * message, {order} = the owner's pending order (test payments), {paidOrder} = the owner's
 * paid, renewing order, {conversation} = a finder's conversation about the owner's paid item
 * (decision 013), {finderToken} = that finder's private link token, {spareItem} = another
 * unpaid item of the owner's, which the owner's POST deletes (decision 017),
 * {organisation} = an organisation whose only member, its admin, is the owner (decision 022;
 * `other` and the support `admin` are outsiders to it), {inviteToken} = an open invite of
 * that organisation to an address none of the visitors has, {invoiceOrder} = that
 * organisation's simulated invoice (test payments, decision 027) for an item of it,
 * {withdrawOrder} = the owner's paid personal order inside its 14 days (decision 041),
 * which the owner's POST withdraws.
 * {batch} = a batch of printed stickers (decision 036) holding {unclaimedSticker} (an id,
 * nobody's yet), {claimedSticker} and {claimedStickerCode} (the owner claimed it: its id is
 * the item's now) and {voidedSticker}/{voidedStickerCode}.
 */
export const ROLES = ["anonymous", "owner", "other", "admin"] as const;
export type Role = (typeof ROLES)[number];
/** The cells an unverified holder of an admin email is held to. */
export const UNVERIFIED_ADMIN_AS: Role = "other";
/**
 * Decision 028: a removed member, an account that was a member of {organisation}, paid an
 * order in its scope and was then removed by its admin, must get exactly what `other`
 * gets in every cell, organisation and order routes included (security.test.ts requests
 * each row as that account too, beside the unverified account of UNVERIFIED_ADMIN_AS).
 */
export const REMOVED_MEMBER_AS: Role = "other";

export interface Expectation {
  status: number;
  /** Redirect target (Location header, path only). */
  location?: string;
  /** Text the page must contain (e.g. the owner's private contact info). */
  contains?: string[];
  /** Text the page must not contain. */
  absent?: string[];
}
type Cell = number | Expectation;
type PerRole = Record<Role, Cell>;

export interface RouteRow {
  /** The path exactly as in app/routes.ts ("" for the index route); absent for Express endpoints. */
  route?: string;
  /** What is requested. */
  url: string;
  get: PerRole;
  post: PerRole;
  /** The POST body: a form (or JSON with `json: true`). Defaults to an empty form. */
  body?: Record<string, string>;
  json?: boolean;
  /** POST with a session made for this request only (e.g. logout ends it). */
  freshSession?: boolean;
  /** Signed by its sender instead of sent by a browser: exempt from the Origin check. */
  noOriginCheck?: boolean;
}

/** Same answer for everyone. */
export const all = (c: Cell): PerRole => ({ anonymous: c, owner: c, other: c, admin: c });
const to = (location: string, status = 302): Expectation => ({ status, location });
/** Signed-out visitors see the page; signed-in users with a name go to the dashboard. */
const guestOnly = (status = 200): PerRole => ({
  anonymous: status,
  owner: to("/dashboard"),
  other: to("/dashboard"),
  admin: to("/dashboard"),
});
/** Signed-in users only: anonymous visitors go to /login. */
const signedIn = (c: Cell): PerRole => ({ anonymous: to("/login"), owner: c, other: c, admin: c });
const adminOnly = (c: Cell): PerRole => ({ anonymous: 404, owner: 404, other: 404, admin: c });
/** A route without an action: POST is refused. */
const noAction = all(405);

export const SECRET_CONTACT = "owner-private-contact-070-SECRET";
export const SECRET_MESSAGE = "support-message-text-SECRET";
/** A finder's message to the owner (decision 013): only the owner and the finder's link show it. */
export const SECRET_FINDER_MESSAGE = "finder-relay-message-SECRET";
/** The billing email of the owner's organisation (decision 022): only its admin's page shows it. */
export const SECRET_ORG_BILLING = "org-billing-secret@example.test";
/** A valid organisation form (decision 022). */
const ORGANISATION_FORM = {
  name: "Matrix AB",
  orgNumber: "556036-0793",
  billingEmail: SECRET_ORG_BILLING,
  invoiceStreet: "Storgatan 1",
  invoicePostcode: "90326",
  invoiceCity: "Umeå",
  invoiceCountry: "SE",
  vatNumber: "",
  deskContact: "Reception",
};

const itemPage: PerRole = {
  anonymous: { status: 200, absent: [SECRET_CONTACT] },
  owner: { status: 200, contains: [SECRET_CONTACT] },
  other: { status: 200, absent: [SECRET_CONTACT] },
  admin: { status: 200, absent: [SECRET_CONTACT] },
};

export const ROUTE_TABLE: RouteRow[] = [
  { route: "", url: "/", get: all(200), post: noAction },
  { route: "consent", url: "/consent", get: all(to("/")), post: all(to("/")) },
  { route: "language/:lang", url: "/language/sv?redirectTo=/support", get: all(to("/support")), post: noAction },
  { route: "companies", url: "/companies", get: all(200), post: noAction },
  { route: "support", url: "/support", get: all(200), post: noAction },
  { route: "terms", url: "/terms", get: all(200), post: noAction },
  { route: "cookies", url: "/cookies", get: all(200), post: noAction },
  { route: "privacy", url: "/privacy", get: all(200), post: noAction },
  {
    route: "login",
    url: "/login",
    get: guestOnly(),
    // Wrong credentials: refused (401); signed-in users then go on to the dashboard.
    post: guestOnly(401),
    body: { email: "nobody@example.test", password: "wrong-password-123" },
  },
  { route: "logout", url: "/logout", get: all(200), post: all(to("/")), freshSession: true },
  {
    route: "user/register",
    url: "/user/register",
    get: guestOnly(),
    post: guestOnly(400),
    body: { name: "", email: "", password: "" },
  },
  {
    route: "user/social",
    url: "/user/social",
    get: signedIn(to("/dashboard")),
    post: noAction,
  },
  {
    route: "user/verify-email",
    // A forged link verifies nothing; POST asks a signed-in user's link again.
    url: "/user/verify-email?token=forged.not-a.jwt",
    get: all({ status: 200, contains: ["This confirmation link is invalid"] }),
    post: signedIn(200),
  },
  { route: "resetpassword", url: "/resetpassword", get: guestOnly(), post: guestOnly(400), body: { email: "" } },
  {
    route: "resetpassword/new",
    url: "/resetpassword/new?token=abc",
    get: all(200),
    post: all(400),
    body: { token: "not-a-real-token", password: "New-password-123" },
  },
  { route: "contact", url: "/contact", get: all(200), post: all(400), body: { email: "", message: "" } },
  { route: "api/contact", url: "/api/contact", get: all(405), post: all(400), body: {}, json: true },
  { route: "api/captcha/challenge", url: "/api/captcha/challenge", get: all(200), post: noAction },
  // Decision 034: a signed-in browser's push subscription (an empty JSON body is refused).
  {
    route: "api/push/subscriptions",
    url: "/api/push/subscriptions",
    get: all(405),
    post: { anonymous: 401, owner: 400, other: 400, admin: 400 },
    body: {},
    json: true,
  },
  {
    route: "admin/messages",
    url: "/admin/messages",
    get: adminOnly({ status: 200, contains: [SECRET_MESSAGE.slice(0, 20)] }),
    post: noAction,
  },
  {
    route: "admin/shipments",
    url: "/admin/shipments",
    get: adminOnly(200),
    // Mark shipped (decision 015): anyone but an admin gets the 404 page and nothing changes.
    post: adminOnly(to("/admin/shipments")),
    body: { intent: "ship", orders: "{paidOrder}" },
  },
  {
    route: "admin/shipments/stickers.pdf",
    url: "/admin/shipments/stickers.pdf?orders={paidOrder}",
    get: adminOnly(200),
    post: noAction,
  },
  {
    route: "admin/shipments/labels.pdf",
    url: "/admin/shipments/labels.pdf?orders={paidOrder}",
    get: adminOnly(200),
    post: noAction,
  },
  {
    // Sticker batches (decision 036): staff only, the 404 page for everyone else.
    // The admin's POST without a size is refused (400) and makes no batch.
    route: "admin/batches",
    url: "/admin/batches",
    get: adminOnly(200),
    post: adminOnly(400),
    body: { label: "Matrix", size: "" },
  },
  {
    // Voiding a sticker the batch does not hold: refused (409) and nothing changes.
    route: "admin/batches/:id",
    url: "/admin/batches/{batch}",
    get: adminOnly(200),
    post: adminOnly(409),
    body: { intent: "voidSticker", sticker: "ZZZZZZZZZ" },
  },
  {
    route: "admin/batches/:id/stickers.pdf",
    url: "/admin/batches/{batch}/stickers.pdf",
    get: adminOnly(200),
    post: noAction,
  },
  {
    route: "admin/batches/:id/stickers.csv",
    url: "/admin/batches/{batch}/stickers.csv",
    get: adminOnly(200),
    post: noAction,
  },
  { route: "find", url: "/find", get: all(200), post: noAction },
  // Claiming a printed sticker (decision 036): signed-in users only; a claimed, voided or
  // unknown code gets one answer (404), so nobody learns which codes were sold.
  { route: "claim", url: "/claim", get: signedIn(200), post: noAction },
  // Its own owner is told it is theirs already (409, decision 052); anyone else gets the one answer.
  {
    url: "/claim?code={claimedStickerCode}",
    get: { anonymous: to("/login"), owner: 409, other: 404, admin: 404 },
    post: noAction,
  },
  { url: "/claim?code={voidedStickerCode}", get: signedIn(404), post: noAction },
  { url: "/claim?code=zzz-zzz-zzz", get: signedIn(404), post: noAction },
  // Text that cannot be a code: the form's own message (400), no try counted.
  { url: "/claim?code=not-a-code", get: signedIn(400), post: noAction },
  {
    url: "/claim?sticker={claimedSticker}",
    get: { anonymous: to("/login"), owner: 409, other: 404, admin: 404 },
    post: noAction,
  },
  { url: "/claim?sticker={unclaimedSticker}", get: signedIn(to("/product/register")), post: noAction },
  {
    // The product form of a sticker someone else claimed: no form, and a forged save makes nothing.
    url: "/product/register?sticker={claimedSticker}",
    get: { anonymous: to("/login"), owner: 409, other: 404, admin: 404 },
    post: signedIn(404),
    body: { name: "Not mine", findFee: "0", prodType: "other", contactInfo: "x", payment: "year", intent: "payLater" },
  },
  {
    url: "/product/register?sticker={voidedSticker}",
    get: signedIn(404),
    post: signedIn(404),
    body: { name: "Voided", findFee: "0", prodType: "other", contactInfo: "x", payment: "year", intent: "payLater" },
  },
  {
    // Staff look-up of a handed-in item (decision 030): the owner's email and contact
    // for admins only; everyone else gets the 404 page, and nothing is looked up or logged.
    route: "admin/lookup",
    url: "/admin/lookup",
    get: adminOnly(200),
    post: {
      ...adminOnly({ status: 200, contains: [SECRET_CONTACT] }),
      owner: { status: 404, absent: [SECRET_CONTACT] },
      other: { status: 404, absent: [SECRET_CONTACT] },
    },
    body: { q: "{item}" },
  },
  // Backups (decision 048): staff see the last attempts; nothing is posted here.
  { route: "admin/backups", url: "/admin/backups", get: adminOnly(200), post: noAction },
  {
    route: "admin/messages/:id",
    url: "/admin/messages/{message}",
    get: adminOnly({ status: 200, contains: [SECRET_MESSAGE] }),
    post: adminOnly(200),
    body: { intent: "handled", handled: "1" },
  },
  {
    route: "dashboard",
    url: "/dashboard",
    get: signedIn(200),
    // Cancel the renewal of an order: only one's own.
    post: { anonymous: to("/login"), owner: 200, other: 404, admin: 404 },
    body: { intent: "cancelRenewal", orderId: "{paidOrder}" },
  },
  {
    route: "dashboard/import",
    url: "/dashboard/import",
    get: signedIn(200),
    // No file: refused with 400, nothing saved (imports land in one's own account only;
    // tests/integration/csv-import.test.ts imports files, in organisations too).
    post: signedIn(400),
    body: { intent: "preview", contactInfo: "x" },
  },
  {
    route: "dashboard/import/template.csv",
    url: "/dashboard/import/template.csv",
    get: signedIn({ status: 200, contains: ["name,type,fee"] }),
    post: noAction,
  },
  {
    route: "dashboard/export.csv",
    url: "/dashboard/export.csv",
    // Everyone downloads only their own items.
    get: {
      anonymous: to("/login"),
      owner: { status: 200, contains: ["Olivia's phone"] },
      other: { status: 200, absent: ["Olivia's phone"] },
      admin: { status: 200, absent: ["Olivia's phone"] },
    },
    post: noAction,
  },
  {
    route: "account",
    url: "/account",
    get: signedIn(200),
    // A blank name: refused with 400 for users, /login for visitors; nothing saved.
    post: signedIn(400),
    body: { intent: "profile", name: "", language: "sv" },
  },
  {
    route: "account/export",
    url: "/account/export",
    get: signedIn(to("/account")),
    // Everyone downloads only their own data: the owner's item contact info is only in theirs.
    post: {
      anonymous: to("/login"),
      owner: { status: 200, contains: [SECRET_CONTACT] },
      other: { status: 200, absent: [SECRET_CONTACT] },
      admin: { status: 200, absent: [SECRET_CONTACT] },
    },
  },
  {
    route: "account/alerts",
    url: "/account/alerts",
    get: signedIn(200),
    // An invalid number: refused with 400 for users (nothing sent), /login for visitors.
    post: signedIn(400),
    body: { intent: "phone", phone: "not a number" },
  },
  {
    route: "account/delete",
    url: "/account/delete",
    get: signedIn(200),
    // A wrong password deletes nothing (400); visitors go to /login. The owner paid within 14
    // days: the withdrawal is offered first (409, decision 051), and nothing is deleted either.
    post: { anonymous: to("/login"), owner: 409, other: 400, admin: 400 },
    body: { intent: "delete", password: "wrong-password-123", confirm: "on" },
  },
  {
    route: "product/register",
    url: "/product/register",
    get: signedIn(200),
    // An incomplete form: refused with 400 for users, /login for visitors; nothing saved.
    post: signedIn(400),
    body: { name: "" },
  },
  {
    route: "product/edit/:id",
    url: "/product/edit/{item}",
    get: { anonymous: to("/login"), owner: 200, other: to("/dashboard"), admin: to("/dashboard") },
    // A complete, valid form: only the owner's is saved; the others get 404 and change nothing.
    post: { anonymous: to("/login"), owner: to("/dashboard"), other: 404, admin: 404 },
    body: {
      name: "Renamed",
      findFee: "300",
      prodType: "laptop",
      contactInfo: SECRET_CONTACT,
      payment: "year",
      intent: "payLater",
    },
  },
  {
    route: "messages",
    url: "/messages",
    get: {
      anonymous: to("/login"),
      owner: { status: 200, contains: [SECRET_FINDER_MESSAGE] },
      other: { status: 200, absent: [SECRET_FINDER_MESSAGE] },
      admin: { status: 200, absent: [SECRET_FINDER_MESSAGE] },
    },
    post: noAction,
  },
  {
    route: "messages/:id",
    url: "/messages/{conversation}",
    get: { anonymous: to("/login"), owner: { status: 200, contains: [SECRET_FINDER_MESSAGE] }, other: 404, admin: 404 },
    // A reply: only the owner's is sent.
    post: { anonymous: to("/login"), owner: to("/messages/{conversation}"), other: 404, admin: 404 },
    body: { message: "Reply from the matrix" },
  },
  {
    // The finder's private link: the token is the key, whoever holds it (no account).
    route: "m/:token",
    url: "/m/{finderToken}",
    get: all({ status: 200, contains: [SECRET_FINDER_MESSAGE] }),
    post: all(to("/m/{finderToken}")),
    body: { message: "A follow-up from the matrix" },
  },
  // The finder's message form posts to the item page; the owner's item here is unpaid: 404.
  {
    route: "product/:id",
    url: "/product/{item}",
    get: itemPage,
    post: all(404),
    body: { message: "Found your phone" },
  },
  // Images, not pages (decision 052): 401 for anonymous requests, never a sign-in page.
  {
    route: "product/:id/qr.svg",
    url: "/product/{item}/qr.svg",
    get: { anonymous: 401, owner: 200, other: 404, admin: 404 },
    post: noAction,
  },
  {
    route: "product/:id/qr.png",
    url: "/product/{item}/qr.png",
    get: { anonymous: 401, owner: 200, other: 404, admin: 404 },
    post: noAction,
  },
  {
    // Item photos (decision 035): {item} has none, so this hash is unknown to everyone; who
    // gets a private photo is tested in tests/integration/photos.test.ts.
    route: "product/:id/photo/:file",
    url: `/product/{item}/photo/${"0".repeat(64)}.webp`,
    get: all(404),
    post: noAction,
  },
  {
    // The owner's photos of an item (decision 035): the page and its upload/change forms are
    // the item's managers' only; an empty form is refused (no intent), others get 404.
    route: "product/:id/photos",
    url: "/product/{item}/photos",
    get: { anonymous: to("/login"), owner: 200, other: 404, admin: 404 },
    post: { anonymous: to("/login"), owner: 400, other: 404, admin: 404 },
  },
  {
    // Replacement stickers (decision 015): only the owner's items; {item} is unpaid, so the
    // owner sees why and a POST is refused.
    route: "product/:id/replacement",
    url: "/product/{item}/replacement",
    get: { anonymous: to("/login"), owner: 200, other: 404, admin: 404 },
    post: { anonymous: to("/login"), owner: 400, other: 404, admin: 404 },
    body: { mode: "reprint" },
  },
  {
    // Lost mode on (decision 014): only the owner's item changes; the others get 404.
    route: "product/:id/lost",
    url: "/product/{item}/lost",
    get: all(to("/product/{item}")),
    post: { anonymous: to("/login"), owner: to("/product/{item}"), other: 404, admin: 404 },
    body: { lost: "1", back: "item" },
  },
  {
    route: "product/:id/delete",
    url: "/product/{spareItem}/delete",
    // Only the owner sees the confirmation and deletes (last: the item is gone after).
    get: { anonymous: to("/login"), owner: 200, other: 404, admin: 404 },
    post: { anonymous: to("/login"), owner: to("/dashboard"), other: 404, admin: 404 },
  },
  {
    route: "user/register-adress",
    url: "/user/register-adress",
    get: signedIn(200),
    post: signedIn(400),
    body: { email: "" },
  },
  {
    route: "organisations/new",
    url: "/organisations/new",
    // Visitors register first and come back (the /companies call to action).
    get: { anonymous: to("/user/register"), owner: 200, other: 200, admin: 200 },
    // An incomplete form: refused with 400, nothing created.
    post: signedIn(400),
    body: { name: "" },
  },
  {
    route: "organisations/:id",
    url: "/organisations/{organisation}",
    get: {
      anonymous: to("/login"),
      // Its admin sees the data processing agreement to accept (decision 030;
      // tests/integration/dpa.test.ts: a member neither sees nor accepts it).
      owner: { status: 200, contains: [SECRET_ORG_BILLING, "Data processing agreement"] },
      other: 404,
      admin: 404,
    },
    // Valid details: only the organisation's admin saves them; outsiders learn nothing (404).
    post: { anonymous: to("/login"), owner: to("/organisations/{organisation}"), other: 404, admin: 404 },
    body: { intent: "details", ...ORGANISATION_FORM },
  },
  {
    // The desk's trusted contacts (decision 040): its admin only; everyone else learns
    // nothing (404). The owner's POST saves the per-item choice (nothing to choose) and
    // comes back; tests/integration/trusted-contacts-service.test.ts covers the rules.
    route: "organisations/:id/contacts",
    url: "/organisations/{organisation}/contacts",
    get: { anonymous: to("/login"), owner: 200, other: 404, admin: 404 },
    post: {
      anonymous: to("/login"),
      owner: to("/organisations/{organisation}/contacts"),
      other: 404,
      admin: 404,
    },
    body: { intent: "itemContacts", items: "" },
  },
  {
    // Claim mode (decision 036): the organisation's admin only; everyone else learns nothing
    // (404), whatever they post. The owner's POST names a voided sticker: the one answer
    // (404 with the message), nothing claimed; stickers-claim-mode tests cover the rules.
    route: "organisations/:id/claim",
    url: "/organisations/{organisation}/claim",
    get: { anonymous: to("/login"), owner: { status: 200, contains: ['name="code"'] }, other: 404, admin: 404 },
    post: {
      anonymous: to("/login"),
      owner: { status: 404, contains: ["That code does not match a sticker that can be registered"] },
      other: 404,
      admin: 404,
    },
    body: { code: "{voidedStickerCode}", assignedTo: "", name: "" },
  },
  {
    // Webhooks (decision 061): the organisation's admin only; everyone else learns nothing
    // (404), whatever they post. The owner's POST names an endpoint that does not exist:
    // "Page not found", nothing changes; tests/integration/webhooks.test.ts delivers.
    route: "organisations/:id/webhooks",
    url: "/organisations/{organisation}/webhooks",
    get: { anonymous: to("/login"), owner: { status: 200, contains: ['name="url"'] }, other: 404, admin: 404 },
    post: { anonymous: to("/login"), owner: 404, other: 404, admin: 404 },
    body: { intent: "delete", endpoint: "we_AAAAAAAAAAAAAAAAAAAAAA" },
  },
  {
    // The organisation's API keys (decision 054): its admin only; everyone else learns
    // nothing (404). The owner's POST names no key: refused on the form (400), nothing made;
    // tests/integration/api.test.ts covers making, listing and revoking.
    route: "organisations/:id/api",
    url: "/organisations/{organisation}/api",
    get: { anonymous: to("/login"), owner: { status: 200, contains: ['name="scope"'] }, other: 404, admin: 404 },
    post: { anonymous: to("/login"), owner: 400, other: 404, admin: 404 },
    body: { intent: "create", name: "", scope: "read" },
  },
  {
    // The billing-email confirmation link (decision 028): the token is the key; a forged one
    // confirms nothing (410) for everyone. tests/integration/accountable-invoicing.test.ts
    // opens a real one.
    route: "organisations/billing-email/:token",
    url: "/organisations/billing-email/forged-token",
    get: all(410),
    post: noAction,
  },
  // A trusted contact's links (decision 040): the token is the only key, so a
  // forged one is "Page not found" for everyone, read or posted.
  { route: "t/c/:token", url: "/t/c/forged-token", get: all(404), post: all(404) },
  { route: "t/s/:token", url: "/t/s/forged-token", get: all(404), post: all(404) },
  {
    route: "t/r/:token",
    url: "/t/r/forged-token",
    get: all(404),
    post: all(404),
    body: { message: "I can bring it to the station tomorrow." },
  },
  // "Never contact me again" (decision 046): a code never sent suppresses nothing, for anyone.
  { route: "t/n/:token", url: "/t/n/forged-token", get: all(404), post: all(404) },
  {
    // The invite link: the token shows the invite; only the verified invited address may accept.
    route: "invite/:token",
    url: "/invite/{inviteToken}",
    get: all(200),
    post: { anonymous: to("/login"), owner: 403, other: 403, admin: 403 },
  },
  {
    // The user menu's scope switch: only to an organisation the user is a member of.
    route: "scope",
    url: "/scope",
    get: all(to("/")),
    post: { anonymous: to("/login"), owner: to("/dashboard"), other: 404, admin: 404 },
    body: { scope: "{organisation}", redirectTo: "/dashboard" },
  },
  {
    route: "order",
    url: "/order",
    get: signedIn(200),
    // Nothing selected: refused, no order made.
    post: signedIn(400),
    body: { payment: "year" },
  },
  {
    route: "order/checkout/:id",
    url: "/order/checkout/{order}",
    get: { anonymous: to("/login"), owner: 200, other: 404, admin: 404 },
    // The test checkout's "pay": only the order's owner can complete it.
    post: { anonymous: to("/login"), owner: to("/order/complete/{order}"), other: 404, admin: 404 },
  },
  {
    route: "order/complete/:id",
    url: "/order/complete/{order}",
    get: { anonymous: to("/login"), owner: 200, other: 404, admin: 404 },
    post: noAction,
  },
  // Decision 016. By now the dashboard row has cancelled {paidOrder}'s renewal.
  {
    route: "order/:id/cancel",
    url: "/order/{paidOrder}/cancel",
    // Already cancelled: the owner is told so (409); others' orders do not exist.
    get: { anonymous: to("/login"), owner: 409, other: 404, admin: 404 },
    post: { anonymous: to("/login"), owner: 409, other: 404, admin: 404 },
  },
  // Decision 056: a year paid at once is renewed here. {paidOrder} renews by card itself:
  // the owner is told it cannot be renewed here (409); others' orders do not exist.
  {
    route: "order/:id/renew",
    url: "/order/{paidOrder}/renew",
    get: { anonymous: to("/login"), owner: 409, other: 404, admin: 404 },
    post: { anonymous: to("/login"), owner: 409, other: 404, admin: 404 },
    body: { payWith: "swish", immediateStart: "yes" },
  },
  // Decision 041: a consumer withdraws within 14 days; others' orders do not exist.
  {
    route: "order/:id/withdraw",
    url: "/order/{withdrawOrder}/withdraw",
    get: {
      anonymous: to("/login"),
      owner: { status: 200, contains: ["Withdraw from the purchase", "Olivia&#x27;s bike"] },
      other: 404,
      admin: 404,
    },
    post: { anonymous: to("/login"), owner: to("/dashboard"), other: 404, admin: 404 },
  },
  {
    // The same route for an organisation's order (a second row, so without `route`): a
    // business purchase, its admin who placed it is told why (403), others learn nothing.
    url: "/order/{invoiceOrder}/withdraw",
    get: {
      anonymous: to("/login"),
      owner: { status: 403, contains: ["does not apply to business purchases"] },
      other: 404,
      admin: 404,
    },
    post: { anonymous: to("/login"), owner: 403, other: 404, admin: 404 },
  },
  {
    route: "order/:id/payment",
    url: "/order/{paidOrder}/payment",
    // PAYMENTS=test: no card to manage (the Stripe portal is tested in billing.test.ts).
    get: { anonymous: to("/login"), owner: 200, other: 404, admin: 404 },
    post: noAction,
  },
  {
    route: "order/:id/receipt",
    url: "/order/{paidOrder}/receipt",
    get: { anonymous: to("/login"), owner: { status: 200, contains: ["Olivia"] }, other: 404, admin: 404 },
    post: noAction,
  },
  {
    // An organisation's invoice (decision 027): its admins only; members get 403
    // (tests/integration/invoices.test.ts), everyone else learns nothing.
    route: "order/:id/invoice",
    url: "/order/{invoiceOrder}/invoice",
    get: {
      anonymous: to("/login"),
      owner: {
        status: 200,
        contains: ["TEST — not a real invoice", "Olivia&#x27;s company", "does not apply to them"],
      },
      other: 404,
      admin: 404,
    },
    // "Mark as paid" on the simulated invoice: only its organisation's admin.
    post: { anonymous: to("/login"), owner: to("/order/{invoiceOrder}/invoice"), other: 404, admin: 404 },
  },
  {
    route: "order/:id/receipt.pdf",
    url: "/order/{paidOrder}/receipt.pdf",
    get: { anonymous: to("/login"), owner: 200, other: 404, admin: 404 },
    post: noAction,
  },
  {
    // Decision 051: only a withdrawn order has one; {paidOrder} is not withdrawn (the
    // document itself: tests/integration/withdrawal.test.ts).
    route: "order/:id/credit-note.pdf",
    url: "/order/{paidOrder}/credit-note.pdf",
    get: { anonymous: to("/login"), owner: 404, other: 404, admin: 404 },
    post: noAction,
  },
  {
    route: "admin/orders",
    url: "/admin/orders",
    get: adminOnly(200),
    // Staff only; a cancelled subscription has no renewal to simulate (409, nothing changes).
    post: adminOnly(409),
    body: { intent: "simulateRenewal", orderId: "{paidOrder}" },
  },
  {
    // The REST API (decision 054): a key, never the session, so every visitor without one
    // is 401 (problem+json); it reads no cookie, so it is exempt from the Origin check.
    route: "api/v1/*",
    url: "/api/v1/items",
    get: all(401),
    post: all(401),
    body: {},
    json: true,
    noOriginCheck: true,
  },
  // Its reference, public like its OpenAPI document.
  { route: "api/docs", url: "/api/docs", get: all({ status: 200, contains: ["/api/v1/items"] }), post: noAction },
  {
    route: "api/stripe/webhook",
    url: "/api/stripe/webhook",
    get: all(405),
    // PAYMENTS=test: the Stripe webhook does not exist (its signature tests are in orders).
    post: all(404),
    noOriginCheck: true,
  },
  {
    route: "api/sms/report/:token",
    url: "/api/sms/report/made-up-secret-000000000000",
    get: all(405),
    // 46elks' delivery report: a secret that matches no SMS changes nothing (404).
    post: all(404),
    body: { id: "s1", status: "delivered", delivered: "2026-11-26T12:00:00" },
    noOriginCheck: true,
  },
  {
    route: "webhooks/46elks/sms",
    url: "/webhooks/46elks/sms?secret=made-up-secret-000000000000",
    get: all(405),
    // 46elks' incoming SMS (decision 055): a wrong secret (or no SMS_NUMBER) stores nothing (404).
    post: all(404),
    body: { id: "s1", from: "+46701234567", to: "+46766861000", message: "K7M 29Q XHR hello", direction: "incoming" },
    noOriginCheck: true,
  },
  { route: ":id", url: "/{item}", get: itemPage, post: all(404), body: { message: "Found your phone" } },
  // A printed sticker nobody registered yet answers 200 with "Register it" (decision 036).
  {
    url: "/{unclaimedSticker}",
    get: all({ status: 200, contains: ["/claim?sticker={unclaimedSticker}"] }),
    post: all(404),
    body: { message: "Found your sticker" },
  },
  { url: "/product/{voidedSticker}", get: all(200), post: all(404), body: { message: "Found your sticker" } },
  { route: "*", url: "/no/such/page", get: all(404), post: noAction },

  // Express endpoints outside React Router (server/app.ts).
  // GET only: a POST falls through to React Router's 'Page not found' route, which has no action.
  { url: "/healthz", get: all(200), post: noAction },
  { url: "/readyz", get: all(200), post: noAction },
  // better-auth's own sign-in/sign-up/session endpoints are closed: the form actions are
  // the only way in (rate limits, password rules).
  {
    url: "/api/auth/sign-in/email",
    get: all(404),
    post: all(404),
    body: { email: "a@b.se", password: "x" },
    json: true,
  },
  { url: "/api/auth/sign-up/email", get: all(404), post: all(404), body: {}, json: true },
  { url: "/api/auth/get-session", get: all(404), post: all(404) },
  { url: "/api/auth/list-accounts", get: all(404), post: all(404) },
];

/**
 * The organisation-item matrix (decision 026): every route that
 * touches an item, requested for an organisation's items by the people around it, with
 * the answer each must get. tests/integration/organisation-items.test.ts requests every
 * cell on SQLite and PostgreSQL. Roles: `orgAdmin`, an admin of organisation A;
 * `assignee`, the member of A that {orgItem} is assigned to; `orgMember`, another member
 * of A (nothing assigned); `otherOrgAdmin` / `otherOrgMember`, of organisation B;
 * `exMember`, removed from A after {orgItem} had been assigned to them. Placeholders:
 * {orgItem} = A's paid item assigned to `assignee`, {deskItem} = A's paid item assigned to
 * nobody, {orgConversation} = a finder's conversation about {orgItem}, {orgA} = A's id.
 * Requests run in the order of ORG_ROLES, managers last, so their POSTs really change.
 */
export const ORG_ROLES = ["exMember", "otherOrgMember", "otherOrgAdmin", "orgMember", "assignee", "orgAdmin"] as const;
export type OrgRole = (typeof ORG_ROLES)[number];
export const SECRET_ORG_ITEM_CONTACT = "org-item-personal-contact-SECRET";
export const SECRET_ORG_FINDER_MESSAGE = "org-finder-message-SECRET";
export const ORG_ITEM_NAME = "Fleet laptop 17";
export const DESK_ITEM_NAME = "Desk projector 3";

type OrgCells = Record<OrgRole, Cell>;
/** `yes` for the roles that manage the item, `no` for everyone else. */
function managers(who: readonly OrgRole[], yes: Cell, no: Cell): OrgCells {
  return Object.fromEntries(ORG_ROLES.map((r) => [r, who.includes(r) ? yes : no])) as OrgCells;
}
const ORG_ITEM_MANAGERS: OrgRole[] = ["orgAdmin", "assignee"];
const DESK_ITEM_MANAGERS: OrgRole[] = ["orgAdmin"];

export interface OrgItemRow {
  url: string;
  method: "GET" | "POST";
  /** The scope cookie names organisation A (a forged one for outsiders: it falls back to personal). */
  scoped?: boolean;
  body?: Record<string, string>;
  cells: OrgCells;
}

/** A manager's save: the fee changes (the name stays, the lists below look for it). */
const PRODUCT_FORM = {
  name: ORG_ITEM_NAME,
  findFee: "150",
  approxValue: "",
  prodType: "laptop",
  contactInfo: SECRET_ORG_ITEM_CONTACT,
  contactVisibility: "public",
  payment: "year",
  scanAlerts: "",
  intent: "update",
};

export const ORG_ITEM_TABLE: OrgItemRow[] = [
  {
    url: "/product/edit/{orgItem}",
    method: "GET",
    cells: managers(ORG_ITEM_MANAGERS, 200, to("/dashboard")),
  },
  {
    url: "/product/edit/{deskItem}",
    method: "GET",
    cells: managers(DESK_ITEM_MANAGERS, 200, to("/dashboard")),
  },
  {
    url: "/product/edit/{orgItem}",
    method: "POST",
    body: PRODUCT_FORM,
    cells: managers(ORG_ITEM_MANAGERS, to("/dashboard"), 404),
  },
  {
    url: "/product/{orgItem}/qr.svg",
    method: "GET",
    cells: managers(ORG_ITEM_MANAGERS, 200, 404),
  },
  {
    url: "/product/{orgItem}/qr.png",
    method: "GET",
    cells: managers(ORG_ITEM_MANAGERS, 200, 404),
  },
  {
    url: "/product/{deskItem}/qr.svg",
    method: "GET",
    cells: managers(DESK_ITEM_MANAGERS, 200, 404),
  },
  {
    url: "/product/{orgItem}/replacement",
    method: "GET",
    cells: managers(ORG_ITEM_MANAGERS, 200, 404),
  },
  {
    url: "/product/{orgItem}/lost",
    method: "POST",
    body: { lost: "1", back: "item" },
    cells: managers(ORG_ITEM_MANAGERS, to("/product/{orgItem}"), 404),
  },
  {
    url: "/product/{deskItem}/lost",
    method: "POST",
    body: { lost: "1", back: "item" },
    cells: managers(DESK_ITEM_MANAGERS, to("/product/{deskItem}"), 404),
  },
  {
    // The item page: everyone sees the finder's page; only managers get lost mode and scans.
    url: "/product/{orgItem}",
    method: "GET",
    cells: managers(
      ORG_ITEM_MANAGERS,
      { status: 200, contains: ["Recent scans"] },
      { status: 200, absent: ["Recent scans", SECRET_ORG_ITEM_CONTACT] },
    ),
  },
  {
    url: "/product/{deskItem}/delete",
    method: "GET",
    cells: managers(DESK_ITEM_MANAGERS, 200, 404),
  },
  {
    url: "/messages/{orgConversation}",
    method: "GET",
    cells: managers(ORG_ITEM_MANAGERS, { status: 200, contains: [SECRET_ORG_FINDER_MESSAGE] }, 404),
  },
  {
    url: "/messages/{orgConversation}",
    method: "POST",
    body: { message: "A reply from the matrix" },
    cells: managers(ORG_ITEM_MANAGERS, to("/messages/{orgConversation}"), 404),
  },
  {
    url: "/messages",
    method: "GET",
    cells: managers(
      ORG_ITEM_MANAGERS,
      { status: 200, contains: [ORG_ITEM_NAME] },
      { status: 200, absent: [ORG_ITEM_NAME, SECRET_ORG_FINDER_MESSAGE] },
    ),
  },
  {
    url: "/dashboard",
    method: "GET",
    scoped: true,
    cells: {
      ...managers(
        ORG_ITEM_MANAGERS,
        { status: 200, contains: [ORG_ITEM_NAME] },
        { status: 200, absent: [ORG_ITEM_NAME] },
      ),
      // The admin sees every item of A, the assignee only theirs.
      orgAdmin: { status: 200, contains: [ORG_ITEM_NAME, DESK_ITEM_NAME] },
      assignee: { status: 200, contains: [ORG_ITEM_NAME], absent: [DESK_ITEM_NAME] },
      orgMember: { status: 200, absent: [ORG_ITEM_NAME, DESK_ITEM_NAME] },
    },
  },
  {
    url: "/order",
    method: "GET",
    scoped: true,
    cells: {
      ...managers([], 200, { status: 200, absent: [ORG_ITEM_NAME, DESK_ITEM_NAME] }),
      orgAdmin: { status: 200, contains: [ORG_ITEM_NAME, DESK_ITEM_NAME] },
      assignee: { status: 200, contains: [ORG_ITEM_NAME], absent: [DESK_ITEM_NAME] },
    },
  },
];
