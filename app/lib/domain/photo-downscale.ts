/**
 * The browser's half of item photos (decision 035): before upload, a large photo is
 * drawn smaller on a canvas and sent as a JPEG, so a phone sends a few hundred kilobytes
 * instead of a 5 MB original. The server checks and processes whatever arrives all the
 * same; anything this cannot read safely is sent as it is, so the server's translated
 * message (HEIC, animated, damaged, too many pixels) is the one the owner sees. Only a file
 * still over the size limit is held back (PhotoPicker), with the server's own message.
 */

/** The server's largest variant is 1280 px wide (and at most 2560 tall): no need for more. */
const MAX_WIDTH = 1280;
const MAX_HEIGHT = 2560;
/** A photo under this size and within the dimensions is sent untouched (an animated WebP too). */
const SMALL_ENOUGH = 1024 * 1024;
/** Larger than the server accepts: not decoded here either (a decompression bomb). */
const MAX_PIXELS = 40_000_000;
const READABLE = new Set(["image/jpeg", "image/png", "image/webp"]);

function loadImage(file: File): Promise<{ img: HTMLImageElement; url: string } | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => resolve({ img, url });
    img.onerror = () => {
      URL.revokeObjectURL(url);
      resolve(null);
    };
    img.src = url;
  });
}

/** The photo as it should be uploaded: smaller when it pays, else the file itself. */
export async function downscalePhoto(file: File): Promise<File> {
  if (!READABLE.has(file.type) || file.size === 0) return file;
  const loaded = await loadImage(file);
  if (!loaded) return file;
  const { img, url } = loaded;
  try {
    // naturalWidth/Height are upright (EXIF orientation applied), as drawImage draws them.
    const w = img.naturalWidth;
    const h = img.naturalHeight;
    if (!w || !h || w * h > MAX_PIXELS) return file;
    const scale = Math.min(1, MAX_WIDTH / w, MAX_HEIGHT / h);
    if (scale === 1 && file.size <= SMALL_ENOUGH) return file;
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(w * scale));
    canvas.height = Math.max(1, Math.round(h * scale));
    const ctx = canvas.getContext("2d");
    if (!ctx) return file;
    ctx.imageSmoothingQuality = "high";
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.88));
    if (!blob || blob.size >= file.size) return file;
    const name = file.name.replace(/\.[^.]*$/, "") + ".jpg";
    return new File([blob], name, { type: "image/jpeg", lastModified: file.lastModified });
  } finally {
    URL.revokeObjectURL(url);
  }
}
