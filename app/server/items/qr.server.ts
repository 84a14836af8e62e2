/**
 * Sticker QR codes as standalone SVG documents, drawn by qrcode.react on the server with
 * the spec's generator settings (level L, black on white). Served as images so a
 * dashboard with hundreds of items stays a small HTML page that the browser neither
 * re-computes on hydration nor has to load all at once (images load lazily).
 */
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
