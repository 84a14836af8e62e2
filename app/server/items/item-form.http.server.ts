/**
 * The item form's POST, /product/register and /product/edit/{id} (decisions 018, 019,
 * 035, 036), on the action helper (decision 059). The photos come with the form as the
 * upload intake received them (decision 050) and are checked and processed before anything
 * is saved, so a refused photo changes nothing and keeps everything typed. "Suggest fee"
 * saves nothing. A save goes where the flow says, with "saved" said there.
 *
 * Two features' refusals meet here: the photos' and the items' (and a printed sticker's
 * claim on registering); each table answers its own feature's errors (`errorTable`), so the
 * photos' `notFound` and the items' `notFound` keep their own words.
 */
import { redirect } from "react-router";
import { z } from "zod";
import type { Lang } from "~/i18n/config";
import { formValues, isSuggestIntent, parseProductForm, type ProductInput } from "~/lib/forms/product-form";
import type { RouteDeps } from "../deps.server";
import { formActionOn, intent, type FormReading } from "../http/form-action.server";
import { activeScopeOf, organisationIdOf } from "../organisations/scope.http.server";
import type { PhotoUpload } from "../photos/photo-upload.server";
import { photoErrors, photoFilesOf, readPhotoForm } from "../photos/photos.http.server";
import { preparePhotos, type PhotoError } from "../photos/photos.service.server";
import { claimErrors } from "../stickers/stickers.http.server";
import { assignmentOf, itemErrors, suggestionResponse } from "./items.http.server";
import { getOwnedItem } from "./items.service.server";
import { registerItem, saveItem } from "./save-flow.server";
import { isTripleForm, tripleResponse } from "./triple.http.server";

/** The product form's fields, or their errors; the alert sums them up. */
function readProductForm(form: FormData): FormReading<ProductInput> {
  const parsed = parseProductForm(form);
  return parsed.ok ? parsed : { ok: false, fieldErrors: parsed.errors, values: parsed.values };
}

const save = { parse: readProductForm, invalid: { key: "items.form.errorSummary" } };
const nothing = z.object({});

/** Refused as the upload arrived (the limit, uploads in flight): said like any photo refusal. */
const arrived = (refusal: PhotoError) =>
  intent({
    schema: nothing,
    errors: photoErrors,
    handle(): never {
      throw refusal;
    },
  });

/** Where a save lands, with "saved" said there (decision 018). */
const saved = (deps: RouteDeps, next: string) =>
  redirect(next, { headers: { "Set-Cookie": deps.cookies.flash("saved") } });

/** The refusals of the item forms, each by its own feature's table (the form's values sent back). */
const options = { errors: [photoErrors, claimErrors, itemErrors], values: formValues };

export interface ItemFormVisit {
  deps: RouteDeps;
  userId: string;
  photoUpload: PhotoUpload | undefined;
}

/** The edit form of an item the user manages (a stranger's or none: "not found", nothing changed). */
export async function itemEditAction(request: Request, visit: ItemFormVisit & { itemId: string }) {
  const { deps, userId, itemId } = visit;
  const { form, refusal } = await readPhotoForm(request, visit.photoUpload);
  if (refusal) return formActionOn(form, options, arrived(refusal));
  // "Suggest fee" (decision 019): nothing saved; still only on the owner's own item.
  const suggest = intent({
    schema: nothing,
    errors: itemErrors,
    errorsOn: "page",
    async handle() {
      await getOwnedItem(deps, userId, itemId);
      return suggestionResponse(form);
    },
  });
  if (isSuggestIntent(form)) return formActionOn(form, options, suggest);
  return formActionOn(form, options, {
    ...save,
    async handle(item) {
      // The count is checked again when the photos are stored.
      const photos = await preparePhotos(deps, userId, photoFilesOf(form), { itemId });
      // A refused assignment (a member's forged field, someone not in the organisation): said on the form.
      const assignTo = assignmentOf(form);
      return saved(deps, await saveItem(deps, { userId, id: itemId, item, assignTo, photos }));
    },
  });
}

/** A new item, in the active scope (decision 022), or a printed sticker claimed as one (decision 036). */
export async function itemRegisterAction(
  request: Request,
  visit: ItemFormVisit & { lang: Lang; sticker: { id: string; ip: string } | undefined },
) {
  const { deps, userId, lang } = visit;
  const { form, refusal } = await readPhotoForm(request, visit.photoUpload);
  if (refusal) return formActionOn(form, options, arrived(refusal));
  // "Suggest fee" (decision 019): the form comes back with the fee filled in; nothing saved.
  if (isSuggestIntent(form)) return suggestionResponse(form);
  // The Triple's three blocks (decision 038) answer their own refusals, block by block.
  if (isTripleForm(form)) return tripleResponse(request, userId, lang, form);
  return formActionOn(form, options, {
    ...save,
    async handle(item) {
      // In an organisation's scope the item is registered for it (decision 022).
      const organisationId = organisationIdOf(await activeScopeOf(deps, request, userId));
      const photos = await preparePhotos(deps, userId, photoFilesOf(form), { newItem: { organisationId } });
      const assignTo = assignmentOf(form);
      const next = await registerItem(deps, {
        userId,
        item,
        lang,
        organisationId,
        assignTo,
        photos,
        sticker: visit.sticker,
      });
      return saved(deps, next);
    },
  });
}
