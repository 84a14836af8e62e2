/**
 * Sticker QR codes as standalone SVG documents, drawn by qrcode.react on the server with
 * the spec's generator settings (level L, black on white). Served as images so a
 * dashboard with hundreds of items stays a small HTML page that the browser neither
 * re-computes on hydration nor has to load all at once (images load lazily). The PNG
 * for download and print (decision 052) is drawn by `qrcode` with the same settings, and so
 * is the screen PNG the dashboard and /order show (decision 045): one pixel per module,
 * which the page scales up without smoothing. An SVG image costs the browser a document
 * of its own and a vector paint on the page's main thread; a PNG of ~40 × 40 pixels
 * is decoded off it.
 */
import type QRCodeModule from "qrcode";
import { QRCodeSVG } from "qrcode.react";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";

export const QR_SIZE = 256;

export function qrSvg(value: string, size: number = QR_SIZE): string {
  const svg = renderToStaticMarkup(
    createElement(QRCodeSVG, {
      value,
      size,
      level: "L",
      bgColor: "#ffffff",
      fgColor: "#000000",
      // Quiet zone so phone cameras find the code on any background.
      marginSize: 4,
      xmlns: "http://www.w3.org/2000/svg",
    }),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${svg}`;
}

/** Pixels of the downloadable PNG: 4 cm at 600 dpi and more, sharp on any home printer. */
export const QR_PNG_SIZE = 1024;

/** `qrcode` loads on the first PNG, not at server start (as the sticker PDFs do). */
let qrcodeLib: Promise<typeof QRCodeModule> | undefined;

/** `size`: the PNG's width in pixels, or "modules" for one pixel per module (for screens). */
export async function qrPng(value: string, size: number | "modules" = QR_PNG_SIZE): Promise<Buffer> {
  qrcodeLib ??= import("qrcode").then((m) => (m as { default?: typeof QRCodeModule }).default ?? m);
  const QRCode = await qrcodeLib;
  return QRCode.toBuffer(value, {
    type: "png",
    errorCorrectionLevel: "L",
    margin: 4,
    ...(size === "modules" ? { scale: 1 } : { width: size }),
    color: { dark: "#000000ff", light: "#ffffffff" },
  });
}
