/**
 * The one shape every form action answers with (decision 011). Messages are translation
 * keys, translated in the component, so the server never picks the words.
 */
export interface FormMessage {
  key: string;
  params?: Record<string, string | number>;
}

export interface ActionResult<V> {
  /** What the user submitted, to refill the form: nothing typed is lost. */
  values: V;
  /** Per field: a translation key. */
  fieldErrors: Partial<Record<Extract<keyof V, string> | (string & {}), string>>;
  /** A message for the whole form, shown in FormAlert. */
  formError: FormMessage | null;
}

export function hasErrors(result: Pick<ActionResult<unknown>, "fieldErrors" | "formError"> | undefined): boolean {
  return !!result && (result.formError !== null || Object.keys(result.fieldErrors).length > 0);
}
