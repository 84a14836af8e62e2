import { describe, expect, it } from "vitest";
import { ServiceError } from "../service-error.server";
import { errorTable, httpErrorOf, isErrorOf, onPage, serviceErrorResponse } from "./errors.server";
import { formAction } from "./form-action.server";

class PhotoishError extends ServiceError<"notFound" | "tooBig"> {}
class ItemishError extends ServiceError<"notFound"> {}

const photoish = errorTable<"notFound" | "tooBig">(PhotoishError, {
  notFound: { status: 404, key: "photos.notFound" },
  tooBig: { status: 413, key: "photos.tooBig" },
});
const itemish = errorTable<"notFound">(ItemishError, { notFound: { status: 404, key: "items.notFound" } });

const post = () => new Request("http://localhost/x", { method: "POST", body: new URLSearchParams({ a: "1" }) });

describe("a feature's error table answers its own error class only, not every error with its code", () => {
  it("matches an error of its class with one of its codes", () => {
    expect(isErrorOf(photoish, new PhotoishError("notFound"))).toBe(true);
    expect(isErrorOf(itemish, new ItemishError("notFound"))).toBe(true);
  });

  it("does not take another feature's error that shares a code", () => {
    expect(isErrorOf(photoish, new ItemishError("notFound"))).toBe(false);
    expect(isErrorOf(itemish, new PhotoishError("notFound"))).toBe(false);
    expect(() => serviceErrorResponse(photoish, new ItemishError("notFound"), {})).toThrow(ItemishError);
  });

  it("gives a shared code the words of the feature that threw it, whichever table a form names first", async () => {
    const refused = async (err: Error) => {
      const out = (await formAction(
        post(),
        { errors: [photoish, itemish] },
        {
          parse: () => ({ ok: true, data: {} }),
          handle: () => {
            throw err;
          },
        },
      )) as { data: { formError: { key: string } } };
      return out.data.formError.key;
    };
    expect(await refused(new ItemishError("notFound"))).toBe("items.notFound");
    expect(await refused(new PhotoishError("notFound"))).toBe("photos.notFound");
  });

  it("keeps its class when its codes are put on the error page", () => {
    const page = onPage(itemish);
    expect(page.notFound.on).toBe("page");
    expect(isErrorOf(page, new PhotoishError("notFound"))).toBe(false);
    expect(isErrorOf(page, new ItemishError("notFound"))).toBe(true);
  });

  it("reads like any table: a code's status and message", () => {
    expect(httpErrorOf(photoish, new PhotoishError("tooBig", { mb: 5 }))).toMatchObject({
      status: 413,
      message: { key: "photos.tooBig", params: { mb: 5 } },
    });
    expect(Object.keys(photoish)).toEqual(["notFound", "tooBig"]);
  });
});
