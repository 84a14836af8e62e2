/**
 * The item CSV format's names (decision 023): its columns, item types and visibilities as a
 * user of either language writes them. The reading takes any of them (case, spaces and
 * Unicode composition aside; the app's own type labels too), the writing writes the first.
 */
import enItemTypes from "~/locales/en/itemTypes.json";
import svItemTypes from "~/locales/sv/itemTypes.json";
import type { Lang } from "~/i18n/config";
import type { CsvColumn } from "~/lib/domain/item-csv";
import type { ItemType } from "~/lib/forms/product-form";
import type { ContactVisibility } from "~/lib/domain/relay-limits";

/** Column names per language; the first is the one the export and the template write. */
const HEADERS: Record<CsvColumn, Record<Lang, string>> = {
  name: { en: "name", sv: "namn" },
  type: { en: "type", sv: "typ" },
  fee: { en: "fee", sv: "hittelön" },
  assignedEmail: { en: "assigned member email", sv: "tilldelad medlem (e-post)" },
  visibility: { en: "visibility", sv: "synlighet" },
  id: { en: "id", sv: "id" },
  stickerCode: { en: "sticker code", sv: "klistermärkeskod" },
  paidUntil: { en: "paid until", sv: "betald till" },
  // How many photos the item has (decision 035); the photos themselves are in "Download my data".
  photos: { en: "photos", sv: "foton" },
};

const TYPE_NAMES: Record<ItemType, Record<Lang, string>> = {
  mobile: { en: "mobile", sv: "mobil" },
  laptop: { en: "laptop", sv: "dator" },
  other: { en: "other", sv: "annat" },
};

const VISIBILITY_NAMES: Record<ContactVisibility, Record<Lang, string>> = {
  public: { en: "public", sv: "offentlig" },
  private: { en: "private", sv: "privat" },
};

/** Case, surrounding and repeated spaces, and Unicode composition do not matter in names. */
export function normalise(s: string): string {
  return s.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
}

function lookup<K extends string>(table: Record<K, Record<Lang, string>>): Map<string, K> {
  const out = new Map<string, K>();
  for (const [key, names] of Object.entries(table) as [K, Record<Lang, string>][]) {
    out.set(normalise(names.en), key);
    out.set(normalise(names.sv), key);
  }
  return out;
}

const COLUMN_BY_NAME = lookup(HEADERS);
// The app's own labels ("Bärbar dator", "Mobile phone"), as a user copies them from the
// product form or the dashboard, are types too.
const TYPE_BY_NAME = new Map([...lookup(TYPE_NAMES), ...lookup(appTypeLabels())]);

function appTypeLabels(): Record<ItemType, Record<Lang, string>> {
  const labels = {} as Record<ItemType, Record<Lang, string>>;
  for (const type of Object.keys(TYPE_NAMES) as ItemType[]) {
    labels[type] = { en: enItemTypes[type], sv: svItemTypes[type] };
  }
  return labels;
}
const VISIBILITY_BY_NAME = lookup(VISIBILITY_NAMES);

/** The name of a column as a user of that language writes it (the template, the errors). */
export function columnName(column: CsvColumn, lang: Lang): string {
  return HEADERS[column][lang];
}

/** The column a header cell names, in either language (case and spaces aside). */
export function columnByName(cell: string): CsvColumn | undefined {
  return COLUMN_BY_NAME.get(normalise(cell));
}

/** The type a cell names: its CSV name or the app's own label, in either language. */
export function typeByName(cell: string): ItemType | undefined {
  return TYPE_BY_NAME.get(normalise(cell));
}

/** The visibility a cell names, in either language. */
export function visibilityByName(cell: string): ContactVisibility | undefined {
  return VISIBILITY_BY_NAME.get(normalise(cell));
}

/** A type as the export and the template write it in that language. */
export function typeName(type: ItemType, lang: Lang): string {
  return TYPE_NAMES[type][lang];
}

/** A visibility as the export and the template write it in that language. */
export function visibilityName(visibility: ContactVisibility, lang: Lang): string {
  return VISIBILITY_NAMES[visibility][lang];
}
