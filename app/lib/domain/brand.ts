/** The product's name, in one place. */
export const BRAND = "Hittad";
export const COPYRIGHT_YEAR = 2022;
