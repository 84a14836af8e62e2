import { redirect } from "react-router";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ServiceError } from "../service-error.server";
import { errorTable } from "./errors.server";
import { formAction, intent, intentAction } from "./form-action.server";

class ThingError extends ServiceError<"taken" | "gone" | "elsewhere" | "slow"> {}
class OtherError extends ServiceError<"gone"> {}

const thingErrors = errorTable<"taken" | "gone" | "elsewhere" | "slow">(ThingError, {
  taken: { status: 409, key: "things.taken" },
  gone: { status: 404, key: "things.gone", on: "page" },
  elsewhere: { status: 400, key: "things.elsewhere", on: { field: "name" } },
  slow: { status: 429, key: "things.slow", headers: (p) => ({ "Retry-After": String(p.s) }) },
});
const otherErrors = errorTable<"gone">(OtherError, { gone: { status: 410, key: "other.gone" } });

const nameSchema = z.object({ name: z.string().min(1, "things.nameRequired"), password: z.string().optional() });

const post = (fields: Record<string, string>) =>
  new Request("http://localhost/x", { method: "POST", body: new URLSearchParams(fields) });

/** What an action answered or threw, as status and body. */
async function answer(p: Promise<unknown>) {
  let out: unknown;
  try {
    out = await p;
  } catch (thrown) {
    out = thrown;
  }
  if (out instanceof Response) return { status: out.status, location: out.headers.get("Location"), body: null };
  const d = out as { data: unknown; init?: { status?: number; headers?: HeadersInit } | null };
  return { status: d.init?.status ?? 200, body: d.data, headers: new Headers(d.init?.headers ?? {}) };
}

const save = (fail?: Error) =>
  intent({
    schema: nameSchema,
    async handle(input) {
      if (fail) throw fail;
      return redirect(`/things/${input.name}`);
    },
  });

describe("formAction", () => {
  it("answers the handler's redirect once the form parses", async () => {
    const res = await answer(formAction(post({ name: "cup" }), { errors: thingErrors }, save()));
    expect(res).toMatchObject({ status: 302, location: "/things/cup" });
  });

  it("answers a form that does not parse with 400, the field errors and what was typed, never a password", async () => {
    const res = await answer(
      formAction(post({ name: "", password: "secret", note: "x" }), { errors: thingErrors }, save()),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      values: { name: "", note: "x" },
      fieldErrors: { name: "things.nameRequired" },
      formError: null,
    });
  });

  it("puts the intent's alert beside the field errors of a failed parse", async () => {
    const spec = { ...save(), invalid: (e: Record<string, string>) => ({ key: Object.values(e)[0]! }) };
    const res = await answer(formAction(post({ name: "" }), { errors: thingErrors }, spec));
    expect(res.body).toMatchObject({ formError: { key: "things.nameRequired" } });
  });

  it("maps a service error to its status and message on the form, with what was typed", async () => {
    const res = await answer(formAction(post({ name: "cup" }), { errors: thingErrors }, save(new ThingError("taken"))));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      values: { name: "cup" },
      fieldErrors: {},
      formError: { key: "things.taken", params: {} },
    });
  });

  it("puts a service error beside its field, and adds the route's marks", async () => {
    const options = { errors: thingErrors, marks: () => ({ note: "things.mark" }) };
    const res = await answer(formAction(post({ name: "cup" }), options, save(new ThingError("elsewhere"))));
    expect(res.body).toMatchObject({ fieldErrors: { name: "things.elsewhere", note: "things.mark" }, formError: null });
  });

  it("answers the error page for a code that says so, and for every code when errors go to the page", async () => {
    const gone = await answer(formAction(post({ name: "cup" }), { errors: thingErrors }, save(new ThingError("gone"))));
    expect(gone).toMatchObject({ status: 404, body: { key: "things.gone" } });
    const page = { errors: thingErrors, errorsOn: "page" as const };
    const taken = await answer(formAction(post({ name: "cup" }), page, save(new ThingError("taken"))));
    expect(taken).toMatchObject({ status: 409, body: { key: "things.taken" } });
  });

  it("sends the table's extra headers (Retry-After)", async () => {
    const res = await answer(
      formAction(post({ name: "a" }), { errors: thingErrors }, save(new ThingError("slow", { s: 60 }))),
    );
    expect(res.headers?.get("Retry-After")).toBe("60");
  });

  it("lets an error no table knows through (a 500 stays a 500)", async () => {
    await expect(formAction(post({ name: "a" }), { errors: thingErrors }, save(new Error("boom")))).rejects.toThrow(
      "boom",
    );
  });

  it("answers with the intent's own table before the action's", async () => {
    const spec = { ...save(new OtherError("gone")), errors: otherErrors };
    const res = await answer(formAction(post({ name: "a" }), { errors: thingErrors }, spec));
    expect(res).toMatchObject({ status: 410, body: { formError: { key: "other.gone" } } });
  });

  it("answers a body that is not a form with 400", async () => {
    const req = new Request("http://localhost/x", {
      method: "POST",
      body: "{}",
      headers: { "Content-Type": "application/json" },
    });
    expect(await answer(formAction(req, { errors: thingErrors }, save()))).toMatchObject({ status: 400 });
  });
});

describe("intentAction", () => {
  const intents = { save: save(), fail: save(new ThingError("taken")) };

  it("runs the handler the form's intent names", async () => {
    const res = await answer(intentAction(post({ intent: "save", name: "cup" }), { errors: thingErrors }, intents));
    expect(res).toMatchObject({ status: 302, location: "/things/cup" });
  });

  it("names the intent in every refusal when the page asks", async () => {
    const options = { errors: thingErrors, tagIntent: true };
    const res = await answer(intentAction(post({ intent: "fail", name: "cup" }), options, intents));
    expect(res.body).toMatchObject({ intent: "fail", formError: { key: "things.taken" } });
    const bad = await answer(intentAction(post({ intent: "save", name: "" }), options, intents));
    expect(bad.body).toMatchObject({ intent: "save", fieldErrors: { name: "things.nameRequired" } });
  });

  it("answers an intent the page does not have with 400: the error page, or the page's message", async () => {
    expect(await answer(intentAction(post({ intent: "toString" }), { errors: thingErrors }, intents))).toMatchObject({
      status: 400,
    });
    const options = { errors: thingErrors, unknownIntent: "things.unknown", tagIntent: true };
    const res = await answer(intentAction(post({ intent: "nope" }), options, intents));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      intent: "",
      fieldErrors: { intent: "things.unknown" },
      formError: { key: "things.unknown" },
    });
  });
});
