import { createContext } from "react-router";
import type { FinderView } from "./finder-page-template.server";

/**
 * The view a finder-page template is rendered for (decision 045, point 6): set only by the
 * template's own render, which then reads nothing, records no scan and checks no flood.
 */
export const finderTemplateView = createContext<FinderView | null>(null);
