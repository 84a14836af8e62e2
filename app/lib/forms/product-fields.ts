/**
 * The product form's limits and field shapes, without its schema: what the browser needs
 * to render the form and its HTML constraints (maxlength, min, max). The schema that
 * decides stays on the server (app/lib/forms/product-form.ts, decision 045).
 */
export { ITEM_TYPES, toItemType, type ItemType } from "../domain/item-types";

export const NAME_MAX = 80;
export const CONTACT_INFO_MAX = 500;
export const FIND_FEE_MAX = 100_000;

export type ProductFormValues = Record<
  "name" | "findFee" | "approxValue" | "prodType" | "contactInfo" | "contactVisibility" | "payment" | "scanAlerts",
  string
>;
export type ProductFormErrors = Partial<Record<keyof ProductFormValues, string>>;
