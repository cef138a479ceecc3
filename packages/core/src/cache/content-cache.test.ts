import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HostFacts } from "../contract/host.js";
import { openSpec } from "../spec/load-spec.js";
import { cacheDir, cacheKey, ContentCache } from "./content-cache.js";

const HOST: HostFacts = { name: "h", init: "runit", os: "linux", arch: "x64", user: "root", home: "/root" };
const fresh = () => mkdtempSync(join(tmpdir(), "tend-cache-"));

describe("the content cache", () => {
  it("keeps a value under its key, misses another key, and leaves no temp file", () => {
    const cache = ContentCache.open({ TEND_CACHE_DIR: join(fresh(), "cache") })!;
    const key = cacheKey("a", "b");
    cache.write("specs", key, { n: 1 });
    expect(cache.read("specs", key)).toEqual({ n: 1 });
    expect(cache.read("specs", cacheKey("ab"))).toBeUndefined();
    expect(readdirSync(join(cache.dir, "specs"))).toEqual([`${key}.json`]);
  });

  it("treats an entry naming another key, or not parsing, as a miss", () => {
    const cache = ContentCache.open({ TEND_CACHE_DIR: join(fresh(), "cache") })!;
    const key = cacheKey("x");
    cache.write("specs", key, 1);
    writeFileSync(join(cache.dir, "specs", `${key}.json`), JSON.stringify({ key: cacheKey("y"), value: 2 }));
    expect(cache.read("specs", key)).toBeUndefined();
    writeFileSync(join(cache.dir, "specs", `${key}.json`), "{");
    expect(cache.read("specs", key)).toBeUndefined();
  });

  it("is off when TEND_CACHE_DIR is empty or relative, and untrusted when others may write its folder", () => {
    expect(ContentCache.open({ TEND_CACHE_DIR: "" })).toBeUndefined();
    expect(cacheDir({ TEND_CACHE_DIR: "rel/dir" })).toBeUndefined();
    const open = fresh();
    chmodSync(open, 0o777);
    expect(ContentCache.open({ TEND_CACHE_DIR: open })).toBeUndefined();
  });

  it("keeps no more than 32 entries of a kind", () => {
    const cache = ContentCache.open({ TEND_CACHE_DIR: join(fresh(), "cache") })!;
    for (let i = 0; i < 40; i += 1) cache.write("specs", cacheKey(String(i)), i);
    expect(readdirSync(join(cache.dir, "specs")).length).toBeLessThanOrEqual(33);
  });
});

describe("a YAML spec with a cache", () => {
  const SPEC = "tend: v1alpha1\ntype: Service\nname: web\nexec: /usr/bin/web\n";

  it("is validated once: the next open of the same text reads the cache, a changed text does not", async () => {
    const dir = fresh();
    const file = join(dir, "tend.yaml");
    writeFileSync(file, SPEC);
    const cache = ContentCache.open({ TEND_CACHE_DIR: join(dir, "cache") })!;
    const first = await (await openSpec(file, { cache })).build(HOST);
    expect(first.resources.map((r) => r.name)).toEqual(["web"]);
    // Mark the cached spec (the folder also keeps the file's documents, in no fixed order): if
    // the next open uses it, the mark shows.
    type Entry = { value: { resources?: { name: string }[] } };
    const entries = readdirSync(join(cache.dir, "specs")).map((name) => join(cache.dir, "specs", name));
    const [path] = entries.filter((p) => (JSON.parse(readFileSync(p, "utf8")) as Entry).value.resources);
    expect(entries).toHaveLength(2);
    const stored = JSON.parse(readFileSync(path!, "utf8")) as Entry;
    stored.value.resources![0]!.name = "from-cache";
    writeFileSync(path!, JSON.stringify(stored));
    expect((await (await openSpec(file, { cache })).build(HOST)).resources[0]!.name).toBe("from-cache");
    writeFileSync(file, SPEC.replace("web", "api"));
    expect((await (await openSpec(file, { cache })).build(HOST)).resources[0]!.name).toBe("api");
  });

  it("never caches a spec that fails validation: the error and its line come every time", async () => {
    const dir = fresh();
    const file = join(dir, "tend.yaml");
    writeFileSync(file, `${SPEC}restart: sometimes\n`);
    const cache = ContentCache.open({ TEND_CACHE_DIR: join(dir, "cache") })!;
    for (let i = 0; i < 2; i += 1) await expect((await openSpec(file, { cache })).build(HOST)).rejects.toThrow(/restart/);
    expect(readdirSync(cache.dir)).not.toContain("specs");
  });
});
