import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { cookiesAllowCache, itemIdOfPath, ItemPageCache, toStorablePage } from "./item-page-cache.server";

const sha = (s: string) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;
const version = (staleAt = Number.POSITIVE_INFINITY) => ({ version: "1||5|1", staleAt, paid: true });

describe("finder page cache", () => {
  it("only the finder page's two URLs with a product id are cacheable", () => {
    expect(itemIdOfPath("/product/AbCdEfGh12")).toBe("AbCdEfGh12");
    expect(itemIdOfPath("/AbCdEfGh12")).toBe("AbCdEfGh12");
    expect(itemIdOfPath("/product/AbCdEfGh12/qr.svg")).toBeNull();
    expect(itemIdOfPath("/product/register")).toBeNull();
    expect(itemIdOfPath("/dashboard")).toBeNull();
    expect(itemIdOfPath("/AbCdEfGh1")).toBeNull();
  });

  it("a request with any cookie but language and consent (a session, a flash message) is not served from it", () => {
    expect(cookiesAllowCache(undefined)).toBe(true);
    expect(cookiesAllowCache("lang=sv; ConsentApproved=1")).toBe(true);
    expect(cookiesAllowCache("lang=sv; hittad.session_token=abc")).toBe(false);
    expect(cookiesAllowCache("flash=items.saved")).toBe(false);
    expect(cookiesAllowCache("junk")).toBe(false);
  });

  it("a stored page carries no nonce: its inline scripts are allowed by hash instead", () => {
    const html =
      '<html><head><link rel="modulepreload" href="/assets/a.js" nonce="N0nce=="/></head><body>' +
      '<script nonce="N0nce==">window.__ctx = {"a":1};</script>' +
      '<script nonce="N0nce==" type="module" async="">import("/assets/a.js");</script>' +
      '<script src="/assets/b.js" nonce="N0nce=="></script></body></html>';
    const csp =
      "default-src 'self';script-src 'self' 'nonce-N0nce==' 'strict-dynamic';style-src 'self';object-src 'none'";
    const stored = toStorablePage(html, csp, "N0nce==");
    expect(stored.html).not.toContain("N0nce==");
    expect(stored.html).toContain('<script type="module" async="">import("/assets/a.js");</script>');
    expect(stored.csp).toBe(
      `default-src 'self';script-src 'self' ${sha('window.__ctx = {"a":1};')} ${sha('import("/assets/a.js");')};style-src 'self';object-src 'none'`,
    );
    expect(stored.csp).not.toContain("unsafe-inline");
  });

  it("serves brotli or gzip as the client accepts, else plain bytes", () => {
    const cache = new ItemPageCache();
    cache.set("k", "AbCdEfGh12", version(), ["Content-Type", "text/html"], "<p>hello</p>");
    const page = cache.get("k")!;
    expect(ItemPageCache.body(page, "gzip, deflate, br").encoding).toBe("br");
    const gz = ItemPageCache.body(page, "gzip");
    expect(gz.encoding).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe("<p>hello</p>");
    expect(ItemPageCache.body(page, undefined)).toEqual({ body: Buffer.from("<p>hello</p>") });
  });

  it("a page is dropped at the end of the item's paid period", () => {
    const cache = new ItemPageCache();
    cache.set("k", "AbCdEfGh12", version(1000), [], "<p>paid</p>", 0);
    expect(cache.get("k", 999)).toBeDefined();
    expect(cache.get("k", 1000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("forgetting an item drops its pages under both URLs and every language", () => {
    const cache = new ItemPageCache();
    cache.set(cache.key("/product/AbCdEfGh12", "en", false), "AbCdEfGh12", version(), [], "a");
    cache.set(cache.key("/AbCdEfGh12", "sv", true), "AbCdEfGh12", version(), [], "b");
    cache.set(cache.key("/ZzCdEfGh12", "sv", true), "ZzCdEfGh12", version(), [], "c");
    cache.forgetItem("AbCdEfGh12");
    expect(cache.size).toBe(1);
    expect(cache.get(cache.key("/ZzCdEfGh12", "sv", true))).toBeDefined();
  });
});
