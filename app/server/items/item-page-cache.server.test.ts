import { createHash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import {
  cookiesAllowCache,
  encodingFor,
  itemIdOfPath,
  ItemPageCache,
  itemPageVersion,
  refreshServedVersions,
  toStorablePage,
} from "./item-page-cache.server";
import { createItem, setItemActive } from "./items.service.server";

const sha = (s: string) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;
const version = (staleAt = Number.POSITIVE_INFINITY) => ({ version: "1||5|1", staleAt, paid: true });

/** A new owner's item, "Umbrella" (not paid). */
async function umbrella(d: ServiceTestDeps) {
  const { user } = await d.auth.api.signUpEmail({
    body: { name: "Cache Owner", email: `cache-${Math.random()}@example.test`, password: "pw-Secret-123!" },
  });
  const item = {
    name: "Umbrella",
    findFee: 100,
    prodType: "other",
    contactInfo: "Call me",
    payment: "year",
    intent: "payLater",
  } as const;
  return { userId: user.id, id: await createItem(d, user.id, item, "en") };
}

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

  it("a stored page holds memory of its own size, not the 64 KB zlib chunk its bytes were cut from (decision 048)", () => {
    const cache = new ItemPageCache();
    // A finder page's size: about 40 KB of HTML, a few KB compressed.
    const html = `<main>${Array.from({ length: 2000 }, (_, i) => `<p>line ${i}</p>`).join("")}</main>`;
    cache.set("k", "AbCdEfGh12", version(), [], html);
    const page = cache.get("k")!;
    ItemPageCache.body(page, "gzip");
    for (const stored of [page.br!, page.gzip!]) {
      expect(stored.length).toBeLessThan(html.length / 4);
      expect(stored.buffer.byteLength).toBe(stored.length);
    }
  });

  it("a page made from its template holds memory of its own size, not the shared 64 KB pool slab Buffer.concat cut it from", () => {
    const cache = new ItemPageCache();
    const gzip = gzipSync(`<main>${"<p>found</p>".repeat(3000)}</main>`);
    // As gzipJoined makes it: Buffer.concat of a page's pieces, under half of Buffer.poolSize.
    const joined = Buffer.concat([gzip.subarray(0, 10), gzip.subarray(10)]);
    expect(joined.length).toBeLessThan(Buffer.poolSize / 2);
    const sliced = Buffer.from(new ArrayBuffer(65536), 100, joined.length);
    joined.copy(sliced);
    cache.set("k", "AbCdEfGh12", version(), [], { gzip: sliced });
    const stored = cache.get("k")!.gzip!;
    expect(stored.buffer.byteLength).toBe(stored.length);
    expect(gunzipSync(stored).toString()).toContain("<p>found</p>");
  });

  it("an encoding the client refuses with q=0 is never sent; '*' accepts both", () => {
    expect(encodingFor("gzip, deflate, br")).toBe("br");
    expect(encodingFor("br;q=0, gzip")).toBe("gzip");
    expect(encodingFor("BR;q=0.5, GZIP;q=1")).toBe("br");
    expect(encodingFor("gzip;q=0, br;q=0")).toBeUndefined();
    expect(encodingFor("identity")).toBeUndefined();
    expect(encodingFor("")).toBeUndefined();
    expect(encodingFor("*")).toBe("br");
    expect(encodingFor("*, br;q=0")).toBe("gzip");
    expect(encodingFor("deflate")).toBeUndefined();
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
    cache.forget("AbCdEfGh12");
    expect(cache.size).toBe(1);
    expect(cache.get(cache.key("/ZzCdEfGh12", "sv", true))).toBeDefined();
  });
});

describe("finder page cache: the background version check (decision 021)", () => {
  let deps: ServiceTestDeps | undefined;
  afterEach(async () => {
    await deps?.close();
    deps = undefined;
  });

  async function paidItem(d: ServiceTestDeps) {
    const { id } = await umbrella(d);
    await d.db.updateTable("products").set({ payed: 1, paidUntil: null }).where("id", "=", id).execute();
    return id;
  }

  it("pages served since the last check are trusted anew when their item is unchanged, and only those", async () => {
    deps = await createServiceDeps();
    const [served, idle] = [await paidItem(deps), await paidItem(deps)];
    const cache = new ItemPageCache();
    for (const id of [served, idle]) {
      const v = (await itemPageVersion(deps.db, id, 1000))!;
      cache.set(cache.key(`/${id}`, "en", false), id, v, [], "page", 1000);
      cache.set(cache.key(`/product/${id}`, "sv", true), id, v, [], "page", 1000);
    }
    cache.markServed(served);
    await refreshServedVersions(deps.db, cache, 4000);
    expect(cache.get(cache.key(`/${served}`, "en", false), 4000)?.checkedAt).toBe(4000);
    expect(cache.get(cache.key(`/product/${served}`, "sv", true), 4000)?.checkedAt).toBe(4000);
    expect(cache.get(cache.key(`/${idle}`, "en", false), 4000)?.checkedAt).toBe(1000);
    // Each check takes the items served since the one before.
    await refreshServedVersions(deps.db, cache, 6000);
    expect(cache.get(cache.key(`/${served}`, "en", false), 6000)?.checkedAt).toBe(4000);
  });

  it("a change made elsewhere (another instance) or a deleted item drops the item's pages at the next check", async () => {
    deps = await createServiceDeps();
    const [changed, deleted, same] = [await paidItem(deps), await paidItem(deps), await paidItem(deps)];
    const cache = new ItemPageCache();
    for (const id of [changed, deleted, same]) {
      cache.set(cache.key(`/${id}`, "en", false), id, (await itemPageVersion(deps.db, id, 1000))!, [], "p", 1000);
      cache.markServed(id);
    }
    await deps.db.updateTable("products").set({ payed: 0 }).where("id", "=", changed).execute();
    await deps.db.deleteFrom("products").where("id", "=", deleted).execute();
    await refreshServedVersions(deps.db, cache, 2000);
    expect(cache.get(cache.key(`/${changed}`, "en", false), 2000)).toBeUndefined();
    expect(cache.get(cache.key(`/${deleted}`, "en", false), 2000)).toBeUndefined();
    expect(cache.get(cache.key(`/${same}`, "en", false), 2000)?.checkedAt).toBe(2000);
  });
});

describe("each runtime has its own finder-page cache, and services forget in the one they are given (decision 039)", () => {
  const runtimes: ServiceTestDeps[] = [];
  afterEach(async () => {
    for (const d of runtimes.splice(0)) await d.close();
  });

  it("a save forgets the item's pages in its own instance's cache; another instance's follow at its version check", async () => {
    const [a, b] = [await createServiceDeps(), await createServiceDeps()];
    runtimes.push(a, b);
    expect(a.pageCache).not.toBe(b.pageCache);
    const { userId, id } = await umbrella(a);
    const now = a.clock();
    const v = (await itemPageVersion(a.db, id, now))!;
    const key = a.pageCache.key(`/${id}`, "en", false);
    for (const d of [a, b]) d.pageCache.set(key, id, v, [], "page", now);
    b.pageCache.markServed(id);

    a.setNow(now + 1000);
    await setItemActive(a, userId, id, false);

    expect(a.pageCache.get(key, now)).toBeUndefined();
    expect(b.pageCache.get(key, now)?.itemId).toBe(id);
    // The other instance reads the shared database (here a's) at its background check.
    await refreshServedVersions(a.db, b.pageCache, now);
    expect(b.pageCache.get(key, now)).toBeUndefined();
  });
});
