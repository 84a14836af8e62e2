import { data, redirect } from "react-router";
import { z } from "zod";
import { PhotoManager } from "~/components/PhotoManager";
import { FormAlert } from "~/components/form/FormAlert";
import { useTranslation } from "~/i18n/react";
import { parseForm, type FormMessage } from "~/lib/forms/form";
import { isItemId } from "~/lib/domain/ids";
import { pageMeta } from "~/lib/domain/meta";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { withActionHeaders } from "~/server/http/private-link.server";
import { httpErrorOf, orErrorPage } from "~/server/http/errors.server";
import { formActionOn } from "~/server/http/form-action.server";
import { badRequest } from "~/server/http/form.server";
import { BODY_TOO_LARGE_MESSAGE, photoErrors, photoFilesOf, readPhotoForm } from "~/server/photos/photos.http.server";
import {
  addPhotos,
  changePhoto,
  getPhotoPage,
  PhotoError,
  type PhotoChange,
} from "~/server/photos/photos.service.server";
import type { Route } from "./+types/item-photos";

/**
 * /product/{id}/photos — the owner's photos of one item (decision 035): upload,
 * public/private, order, delete. Plain POST forms, so all of it works without JavaScript;
 * the item's page shows the same section and posts here. A success goes back to the item;
 * a refused photo is answered here, with its translated message and a 4xx.
 */
export const handle = { i18n: ["common", "items", "photos"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "photos.manage");
}

export const headers = withActionHeaders;

async function pageOf(request: Request, id: string | undefined) {
  const user = await requireNamedUser(request, "/");
  if (!isItemId(id)) throw data(null, { status: 404 });
  const deps = await getDeps();
  return { user, deps, id, ...(await orErrorPage(photoErrors, getPhotoPage(deps, user.ref, id))) };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { id, name, photos } = await pageOf(request, params.id);
  // A POST over the body limit (decision 035), or a photo the register form could not
  // store after saving the item (a race at the storage bound): said on this page.
  let message: FormMessage | null = null;
  let status = 200;
  const code = new URL(request.url).searchParams.get("error");
  if (context.get(requestContext).bodyTooLarge) {
    message = BODY_TOO_LARGE_MESSAGE;
    status = 413;
  } else if (code === "tooMany" || code === "storageFull" || code === "organisationStorageFull") {
    message = httpErrorOf(photoErrors, new PhotoError(code)).message;
  }
  return data({ id, name, photos, message }, { status });
}

const changeSchema = z.object({
  intent: z.enum(["upload", "private", "public", "up", "down", "delete"]),
  photoId: z.string().max(64).optional(),
  private: z.string().optional(),
});

function changeOf(intent: Exclude<z.infer<typeof changeSchema>["intent"], "upload">): PhotoChange {
  if (intent === "private" || intent === "public") return { kind: "private", value: intent === "private" };
  if (intent === "delete") return { kind: "delete" };
  return { kind: "move", by: intent === "up" ? -1 : 1 };
}

/** The page's alert says a refusal; the photos are shown again as they are. */
const refused = (refusal: { formError: FormMessage | null }, init: ResponseInit) =>
  data({ message: refusal.formError }, init);

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, deps, id } = await pageOf(request, params.id);
  const { form, refusal } = await readPhotoForm(request, context.get(requestContext).photoUpload);
  return formActionOn(
    form,
    { errors: photoErrors, errorsOn: "form", refused },
    {
      schema: z.object({}),
      async handle() {
        // Refused as it arrived (the upload limit, or uploads in flight): said like any refusal.
        if (refusal) throw refusal;
        const parsed = parseForm(changeSchema, form);
        if (!parsed.ok) badRequest();
        const { intent, photoId } = parsed.data;
        if (intent === "upload") {
          await addPhotos(deps, user.ref, id, photoFilesOf(form), { private: parsed.data.private === "on" });
        } else {
          await changePhoto(deps, user.ref, id, photoId ?? "", changeOf(intent));
        }
        return redirect(`/product/${id}#photos`, 303);
      },
    },
  );
}

export default function ProductPhotos({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { id, name, photos } = loaderData;
  return (
    <section className="py-4 col-lg-8" aria-labelledby="photos-title">
      <h1 id="photos-title" className="text-break">
        {t("photos.manage.pageTitle", { name })}
      </h1>
      <FormAlert message={actionData?.message ?? loaderData.message} />
      <PhotoManager itemId={id} name={name} photos={photos} headingLevel={2} />
      <p className="mt-4">
        <a href={`/product/${id}`}>{t("photos.manage.back")}</a>
      </p>
    </section>
  );
}
