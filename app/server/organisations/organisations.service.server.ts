/**
 * Organisations (docs/decisions/022-organisations.md): company accounts with
 * admins and members, emailed invites and the rules around them. Every rule is checked
 * here against the database, never against what the browser sent: who is a member, with
 * which role, and that an organisation always keeps an admin.
 * No HTTP here (decision 011): routes map OrganisationError codes through
 * organisations.http.server.ts.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { formatDate } from "~/lib/domain/dates";
import { firstName } from "~/lib/domain/first-name";
import { randomId } from "~/lib/domain/ids";
import {
  INVITE_TTL_MS,
  PERSONAL_SCOPE,
  isInviteToken,
  isOrganisationId,
  type OrganisationInput,
  type OrgRole,
  billingEmailConfirmed,
} from "~/lib/domain/organisations";
import type { Deps } from "../service-deps.server";
import { enqueueMail } from "../mail/mail.server";
import { rateLimits, type RateRule } from "../rate-limit/rate-limit.server";
import { admitConsentRequest } from "../recipients/recipients.service.server";
import { ServiceError } from "../service-error.server";
import { DPA_VERSION } from "~/lib/domain/dpa";
import * as inviteRepo from "./invites.repository.server";
import * as repo from "./organisations.repository.server";
import * as numbers from "./org-number.repository.server";
import * as dpaRepo from "./dpa.repository.server";
import { may } from "~/lib/domain/permissions";

export type OrganisationErrorCode =
  | "notFound"
  | "forbidden"
  | "lastAdmin"
  | "alreadyMember"
  | "inviteNotFound"
  | "inviteExpired"
  | "inviteUsed"
  | "emailNotVerified"
  | "wrongEmail"
  | "inviterNotVerified"
  | "alreadyInvited"
  | "rateLimited"
  /** The billing-email confirmation link is unknown, used, expired, or for an address changed since. */
  | "billingLinkInvalid"
  | "billingSenderNotVerified"
  /** Decision 030: the current data processing agreement is not accepted yet. */
  | "dpaRequired"
  /** The agreement posted is not the current version (the page was older than the text). */
  | "dpaOutdated"
  /** Another organisation has this organisation number in this country (decision 057). */
  | "orgNumberTaken";

export class OrganisationError extends ServiceError<OrganisationErrorCode> {}

export const ORGANISATION_ID_LENGTH = 10;

/** Invite mails per admin: a team's worth in an hour, not a mailer for a stolen session. */
export const INVITE_RULE: RateRule = { name: "org:invite", limit: 30, windowMs: 60 * 60_000 };

/** A billing-email confirmation link works for 7 days. */
export const BILLING_CONFIRM_TTL_MS = 7 * 24 * 60 * 60_000;

type Ctx = Pick<Deps, "db" | "clock">;

export interface Actor {
  id: string;
  email: string;
  emailVerified: boolean;
}

export function hashInviteToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** The membership of `userId`, or notFound: outsiders learn nothing, not even that it exists. */
async function membershipOf(db: Deps["db"], organisationId: string, userId: string) {
  if (!isOrganisationId(organisationId)) throw new OrganisationError("notFound");
  const membership = await repo.findMembership(db, organisationId, userId);
  if (!membership) throw new OrganisationError("notFound");
  return membership;
}

/** Admins only: notFound for outsiders, forbidden for members. */
async function requireAdmin(db: Deps["db"], organisationId: string, userId: string) {
  const membership = await membershipOf(db, organisationId, userId);
  if (!may(membership.role, "organisation", "manage")) throw new OrganisationError("forbidden");
  return membership;
}

/** A signed-in user creates an organisation and becomes its first admin. */
export async function createOrganisation(deps: Ctx, userId: string, form: OrganisationInput): Promise<string> {
  const input = { ...form };
  const now = deps.clock();
  const id = randomId(ORGANISATION_ID_LENGTH);
  await repo.insertOrganisation(deps.db, { id, ...input, createdAt: now, updatedAt: now }, userId, (trx) =>
    refuseTakenOrgNumber(trx, input, null),
  );
  return id;
}

/**
 * One organisation per number (decision 057): checked under the number's lock in the
 * transaction that writes it, so two forms sent at once cannot both pass.
 */
async function refuseTakenOrgNumber(
  trx: Deps["db"],
  input: Pick<OrganisationInput, "invoiceCountry" | "orgNumber">,
  exceptId: string | null,
) {
  await numbers.lockOrgNumber(trx, input.invoiceCountry, input.orgNumber);
  if (await numbers.orgNumberTaken(trx, input.invoiceCountry, input.orgNumber, exceptId)) {
    throw new OrganisationError("orgNumberTaken");
  }
}

export interface OrganisationPage {
  organisation: repo.Organisation;
  role: OrgRole;
  /** Admins only (empty for members). */
  members: repo.Member[];
  invites: (Omit<inviteRepo.Invite, "tokenHash"> & { expired: boolean })[];
  /** The viewer is the only admin: they cannot leave or step down. */
  lastAdmin: boolean;
  /** The billing email's mailed link was opened for its current address (decision 028). */
  billingEmailConfirmed: boolean;
  /** Decision 030, admins only (null for members): the agreement's acceptances, newest first. */
  dpa: { current: dpaRepo.DpaAcceptance | null; history: dpaRepo.DpaAcceptance[] } | null;
}

/** What a member sees of their organisation: everything for admins, name and "leave" for members. */
export async function getOrganisationPage(
  deps: Ctx,
  userId: string,
  organisationId: string,
): Promise<OrganisationPage> {
  const membership = await membershipOf(deps.db, organisationId, userId);
  const organisation = await repo.findOrganisation(deps.db, organisationId);
  if (!organisation) throw new OrganisationError("notFound");
  const admin = may(membership.role, "organisation", "manage");
  const now = deps.clock();
  const lastAdmin = admin && (await repo.countAdmins(deps.db, organisationId)) <= 1;
  const confirmed = billingEmailConfirmed(organisation);
  if (!admin) {
    return {
      organisation,
      role: membership.role,
      members: [],
      invites: [],
      lastAdmin,
      billingEmailConfirmed: confirmed,
      dpa: null,
    };
  }
  const [members, invites, acceptances] = await Promise.all([
    repo.listMembers(deps.db, organisationId),
    inviteRepo.listOpenInvites(deps.db, organisationId),
    dpaRepo.listDpaAcceptances(deps.db, organisationId),
  ]);
  return {
    organisation,
    role: membership.role,
    members,
    invites: invites.map(({ tokenHash: _hash, ...i }) => ({ ...i, expired: i.expiresAt <= now })),
    lastAdmin,
    billingEmailConfirmed: confirmed,
    dpa: { current: acceptances.find((a) => a.version === DPA_VERSION) ?? null, history: acceptances },
  };
}

/**
 * Whether the organisation accepted the current data processing agreement (decision 030):
 * its admins must, before they invite members or import items.
 */
export function hasAcceptedDpa(deps: Pick<Deps, "db">, organisationId: string): Promise<boolean> {
  return dpaRepo.hasDpaAcceptance(deps.db, organisationId, DPA_VERSION);
}

/**
 * An admin accepts the data processing agreement for the organisation (decision 030).
 * `version` is the one the admin was shown: an older one is refused (dpaOutdated), so nobody
 * accepts a text they did not see. Accepting again changes nothing: the first acceptance of
 * a version stands.
 */
export async function acceptDpa(
  deps: Ctx,
  actor: { id: string; name: string; email: string },
  organisationId: string,
  version: number,
): Promise<void> {
  await requireAdmin(deps.db, organisationId, actor.id);
  if (version !== DPA_VERSION) throw new OrganisationError("dpaOutdated");
  await dpaRepo.insertDpaAcceptance(deps.db, {
    organisationId,
    version,
    userId: actor.id,
    name: actor.name,
    email: actor.email,
    acceptedAt: deps.clock(),
  });
}

export async function updateOrganisation(deps: Ctx, userId: string, organisationId: string, form: OrganisationInput) {
  const input = { ...form };
  await requireAdmin(deps.db, organisationId, userId);
  await deps.db.transaction().execute(async (trx) => {
    // Only a changed number is checked: organisations that shared one before the rule
    // (decision 057) keep saving their other details.
    const before = await repo.findOrganisation(trx, organisationId);
    const same =
      before !== undefined &&
      before.invoiceCountry === input.invoiceCountry &&
      numbers.orgNumberKey(before.orgNumber) === numbers.orgNumberKey(input.orgNumber);
    if (!same) await refuseTakenOrgNumber(trx, input, organisationId);
    await repo.updateOrganisation(trx, organisationId, input, deps.clock());
  });
}

/**
 * Mails an invite to `email` with a link that works once, for 7 days. The token is only in
 * the mail; the database keeps its SHA-256. The mail is in the invitee's language when
 * they already have an account, else in the inviting admin's. It is a consent request
 * (decision 046): it names the inviting admin by their first name only and the
 * organisation not at all (the invite page does, once opened), carries the "never contact
 * me again" link, and passes the suppression list and the per-recipient limits.
 */
export async function inviteMember(
  deps: Pick<Deps, "db" | "clock" | "config">,
  actor: { id: string; name: string; emailVerified: boolean },
  organisationId: string,
  input: { email: string; role: OrgRole },
  lang: Lang,
) {
  await requireAdmin(deps.db, organisationId, actor.id);
  // Members' data is the organisation's, processed by Hittad: agreement first (decision 030).
  if (!(await hasAcceptedDpa(deps, organisationId))) throw new OrganisationError("dpaRequired");
  // Only a proven address sends mail in Hittad's name (decision 012).
  if (!actor.emailVerified) throw new OrganisationError("inviterNotVerified");
  const organisation = await repo.findOrganisation(deps.db, organisationId);
  if (!organisation) throw new OrganisationError("notFound");
  const now = deps.clock();
  const token = randomBytes(32).toString("base64url");
  // One open invite per address, checked and written under the organisation's lock
  // (decision 029: two invites sent at once both found none open and both were mailed). The
  // limits count inside the same transaction, so only invites that go out are counted.
  await underOrganisationLock(deps, organisationId, async (db) => {
    if (await repo.findMemberByEmail(db, organisationId, input.email)) throw new OrganisationError("alreadyMember");
    if (await inviteRepo.hasOpenInvite(db, organisationId, input.email, now))
      throw new OrganisationError("alreadyInvited");
    const limiter = rateLimits(deps.config, db);
    const hit = await limiter.hit(INVITE_RULE, actor.id, now);
    if (!hit.ok) throw new OrganisationError("rateLimited", { count: hit.retryAfterMinutes });
    const { neverUrl } = await admitConsentRequest(
      { db, config: deps.config },
      { channel: "email", to: input.email, accountKey: `account:${actor.id}` },
      now,
    );
    const invite: inviteRepo.Invite = {
      id: randomUUID(),
      organisationId,
      email: input.email,
      role: input.role,
      tokenHash: hashInviteToken(token),
      invitedBy: actor.id,
      createdAt: now,
      expiresAt: now + INVITE_TTL_MS,
      acceptedAt: null,
      acceptedBy: null,
    };
    await inviteRepo.insertInvite(db, invite);
    const mailLang = (await repo.findUserLanguageByEmail(db, input.email)) ?? lang;
    const t = getT(mailLang);
    await enqueueMail(
      db,
      {
        to: input.email,
        subject: t("organisations.mail.invite.subject"),
        text: t("organisations.mail.invite.text", {
          who: firstName(actor.name, t("organisations.mail.someone")),
          role: t(`organisations.rolesInSentence.${input.role}`),
          url: new URL(`/invite/${token}`, deps.config.baseUrl).toString(),
          date: formatDate(invite.expiresAt, mailLang),
          never: neverUrl,
        }),
      },
      now,
    );
  });
}

/**
 * Mails the billing email a confirmation link (decision 028): invoices
 * go there, so an admin proves the address reaches the organisation before the first
 * invoice. A verified admin only (mail in Hittad's name, decision 012). A consent request
 * like an invite (decision 046): no organisation name in it until the link is opened, the
 * never link, the suppression list and the per-recipient limits, counted before anything
 * is written. A new link replaces the previous one.
 */
export async function sendBillingEmailConfirmation(
  deps: Pick<Deps, "db" | "clock" | "config">,
  actor: { id: string; name: string; emailVerified: boolean },
  organisationId: string,
  lang: Lang,
): Promise<void> {
  await requireAdmin(deps.db, organisationId, actor.id);
  if (!actor.emailVerified) throw new OrganisationError("billingSenderNotVerified");
  const now = deps.clock();
  const token = randomBytes(32).toString("base64url");
  await underOrganisationLock(deps, organisationId, async (db) => {
    const organisation = await repo.findOrganisation(db, organisationId);
    if (!organisation) throw new OrganisationError("notFound");
    const email = organisation.billingEmail.toLowerCase();
    const { neverUrl } = await admitConsentRequest(
      { db, config: deps.config },
      { channel: "email", to: email, accountKey: `account:${actor.id}` },
      now,
    );
    await repo.setBillingConfirmLink(db, organisationId, {
      tokenHash: hashInviteToken(token),
      email,
      expiresAt: now + BILLING_CONFIRM_TTL_MS,
    });
    const t = getT(lang);
    await enqueueMail(
      db,
      {
        to: email,
        subject: t("organisations.mail.billingConfirm.subject"),
        text: t("organisations.mail.billingConfirm.text", {
          who: firstName(actor.name, t("organisations.mail.someone")),
          url: new URL(`/organisations/billing-email/${token}`, deps.config.baseUrl).toString(),
          date: formatDate(now + BILLING_CONFIRM_TTL_MS, lang),
          never: neverUrl,
        }),
      },
      now,
    );
  });
}

/**
 * The mailed link is opened: the billing email it was sent to is confirmed, if it is still
 * the organisation's billing email. The token is the key (no sign-in: the billing address
 * is often a shared mailbox) and works once. Answers the organisation's name.
 */
export async function confirmBillingEmail(deps: Ctx, token: string): Promise<{ organisation: string }> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw new OrganisationError("billingLinkInvalid");
  const name = await repo.confirmBillingEmail(deps.db, hashInviteToken(token), deps.clock());
  if (name == null) throw new OrganisationError("billingLinkInvalid");
  return { organisation: name };
}

export async function revokeInvite(deps: Ctx, userId: string, organisationId: string, inviteId: string) {
  await requireAdmin(deps.db, organisationId, userId);
  if (!(await inviteRepo.deleteInvite(deps.db, organisationId, inviteId)))
    throw new OrganisationError("inviteNotFound");
}

/**
 * Runs `change` in one transaction that first locks the organisation's row, so counting
 * the admins and changing a membership cannot interleave with another such change (two
 * admins demoting each other at once: one wins, one admin remains).
 */
function underOrganisationLock<T>(deps: Ctx, organisationId: string, change: (db: Deps["db"]) => Promise<T>) {
  return deps.db.transaction().execute(async (trx) => {
    await repo.lockOrganisation(trx, organisationId, deps.clock());
    return change(trx);
  });
}

/** lastAdmin when `target` is the organisation's only admin (call under the organisation's lock). */
async function keepAnAdmin(db: Deps["db"], target: repo.Membership) {
  if (may(target.role, "organisation", "manage") && (await repo.countAdmins(db, target.organisationId)) <= 1) {
    throw new OrganisationError("lastAdmin");
  }
}

/** An admin changes a member's role; an admin who steps down loses the invites they sent. */
export async function changeRole(deps: Ctx, userId: string, organisationId: string, memberId: string, role: OrgRole) {
  await membershipOf(deps.db, organisationId, userId);
  await underOrganisationLock(deps, organisationId, async (db) => {
    await requireAdmin(db, organisationId, userId);
    const target = await repo.findMembership(db, organisationId, memberId);
    if (!target) throw new OrganisationError("notFound");
    if (target.role === role) return;
    await keepAnAdmin(db, target);
    await repo.setMemberRole(db, organisationId, memberId, role);
    if (may(target.role, "organisation", "invite")) await repo.deletePendingInvitesSentBy(db, organisationId, memberId);
  });
}

/**
 * An admin removes a member: the items the member created pass to the longest-standing
 * remaining admin, their assigned items go back to the organisation, their pending
 * invites are deleted, and their subscriptions in its scope stop renewing (decision 028:
 * they can no longer reach those orders to cancel them; the orders hear `membershipEnded`
 * after the commit, decision 053).
 */
export async function removeMember(
  deps: Ctx & Pick<Deps, "config" | "events">,
  userId: string,
  organisationId: string,
  memberId: string,
) {
  await membershipOf(deps.db, organisationId, userId);
  await underOrganisationLock(deps, organisationId, async (db) => {
    await requireAdmin(db, organisationId, userId);
    const target = await repo.findMembership(db, organisationId, memberId);
    if (!target) throw new OrganisationError("notFound");
    await keepAnAdmin(db, target);
    await repo.removeMember(db, organisationId, memberId, deps.clock());
  });
  await deps.events.emit("membershipEnded", { userId: memberId, organisationId }, deps);
}

/** A member leaves as a removed member does; the last admin cannot (they first make someone else admin). */
export async function leaveOrganisation(
  deps: Ctx & Pick<Deps, "config" | "events">,
  userId: string,
  organisationId: string,
) {
  await membershipOf(deps.db, organisationId, userId);
  await underOrganisationLock(deps, organisationId, async (db) => {
    const membership = await membershipOf(db, organisationId, userId);
    await keepAnAdmin(db, membership);
    await repo.removeMember(db, organisationId, userId, deps.clock());
  });
  await deps.events.emit("membershipEnded", { userId, organisationId }, deps);
}

export interface InviteView {
  organisationName: string;
  email: string;
  role: OrgRole;
  expiresAt: number;
}

/** A usable invite by its token, or inviteNotFound / inviteUsed / inviteExpired. */
async function usableInvite(deps: Ctx, token: string) {
  if (!isInviteToken(token)) throw new OrganisationError("inviteNotFound");
  const invite = await inviteRepo.findInviteByTokenHash(deps.db, hashInviteToken(token));
  if (!invite) throw new OrganisationError("inviteNotFound");
  if (invite.acceptedAt !== null) throw new OrganisationError("inviteUsed");
  if (invite.expiresAt <= deps.clock()) throw new OrganisationError("inviteExpired");
  // An invite lasts only as long as its sender's authority (inviteRepo.acceptInvite checks again).
  const inviter = await repo.findMembership(deps.db, invite.organisationId, invite.invitedBy);
  if (!may(inviter?.role, "organisation", "invite")) throw new OrganisationError("inviteNotFound");
  const organisation = await repo.findOrganisation(deps.db, invite.organisationId);
  if (!organisation) throw new OrganisationError("inviteNotFound");
  return { invite, organisation };
}

export async function getInvite(deps: Ctx, token: string): Promise<InviteView> {
  const { invite, organisation } = await usableInvite(deps, token);
  return { organisationName: organisation.name, email: invite.email, role: invite.role, expiresAt: invite.expiresAt };
}

/**
 * Accepts an invite for the signed-in user. Their email must be verified (decision 012:
 * only verification proves an address) and equal the invited one. Used once, within 7
 * days; returns the organisation id.
 */
export async function acceptInvite(deps: Ctx, actor: Actor, token: string): Promise<string> {
  const { invite } = await usableInvite(deps, token);
  if (!actor.emailVerified) throw new OrganisationError("emailNotVerified");
  if (actor.email.trim().toLowerCase() !== invite.email) throw new OrganisationError("wrongEmail");
  if (!(await inviteRepo.acceptInvite(deps.db, invite, actor.id, deps.clock())))
    throw new OrganisationError("inviteUsed");
  return invite.organisationId;
}

/** The user's organisations with their role (user menu, account export). */
export function listMyOrganisations(deps: Pick<Deps, "db">, userId: string) {
  return repo.listMembershipsOfUser(deps.db, userId);
}

/**
 * The scope switch: the cookie value for `choice` ("personal" or an organisation id) once
 * the user's membership is checked; notFound for an organisation they are not in.
 */
export async function chooseScope(deps: Pick<Deps, "db">, userId: string, choice: string): Promise<string> {
  if (choice === PERSONAL_SCOPE) return PERSONAL_SCOPE;
  await membershipOf(deps.db, choice, userId);
  return choice;
}
