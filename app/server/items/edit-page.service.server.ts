/**
 * The owner's edit page of an item (spec section 4): the form's values as the item holds
 * them, who it may be assigned to (also on the register page), its photos (decision 039: the route only parses, guards,
 * calls and maps errors).
 */
import { isItemId } from "~/lib/domain/ids";
import type { ProductFormValues } from "~/lib/forms/product-form";
import type { Deps } from "../service-deps.server";
import { listManagedPhotos } from "../photos/photos.service.server";
import { findMembership, listMembers } from "../organisations/organisations.repository.server";
import { getOwnedItem, ItemError } from "./items.service.server";
import { may } from "~/lib/domain/permissions";

/** The edit form of one of the user's items; ItemError notFound for anyone else's or no item. */
export async function getItemEditPage(deps: Pick<Deps, "db" | "clock">, userId: string, id: string) {
  if (!isItemId(id)) throw new ItemError("notFound");
  const item = await getOwnedItem(deps, userId, id);
  const values: ProductFormValues = {
    name: item.name,
    findFee: String(item.findFee),
    approxValue: item.approxValue === null ? "" : String(item.approxValue),
    prodType: item.prodType,
    contactInfo: item.contactInfo,
    contactVisibility: item.contactVisibility,
    payment: item.payment,
    scanAlerts: item.scanAlerts ? "on" : "",
  };
  // Admins of the item's organisation assign it (decision 026); everyone else sees no field.
  const assignment = await getAssignmentChoice(deps, userId, item.organisationId, item.assignedTo);
  const photos = await listManagedPhotos(deps, userId, item.id);
  return { id: item.id, values, paid: item.paid, currency: item.currency, assignment, photos };
}

/** The product form's assignment field (decision 026): shown to an organisation's admins only. */
export interface AssignmentChoice {
  /** The members, by name (else email), as the select lists them. */
  members: { id: string; label: string }[];
  assignedTo: string | null;
}

/**
 * What the product form offers for assigning: null in the personal scope, for a personal
 * item and for anyone but the organisation's admins (they cannot assign).
 */
export async function getAssignmentChoice(
  deps: Pick<Deps, "db">,
  userId: string,
  organisationId: string | null,
  assignedTo: string | null = null,
): Promise<AssignmentChoice | null> {
  if (organisationId === null) return null;
  if (!may((await findMembership(deps.db, organisationId, userId))?.role, "item", "assign")) return null;
  const members = await listMembers(deps.db, organisationId);
  return { members: members.map((m) => ({ id: m.userId, label: m.name || m.email })), assignedTo };
}
