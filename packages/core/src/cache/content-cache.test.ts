import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
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

  it("is untrusted in a folder whose parent others may write, except a sticky one, and goes by its real path", () => {
    const base = fresh();
    const group = join(base, "group");
    mkdirSync(group);
    chmodSync(group, 0o775);
    expect(ContentCache.open({ TEND_CACHE_DIR: join(group, "cache") })).toBeUndefined();
    const everyone = join(base, "everyone");
    mkdirSync(everyone);
    chmodSync(everyone, 0o777);
    expect(ContentCache.open({ TEND_CACHE_DIR: join(everyone, "deeper", "cache") })).toBeUndefined();
    // Others cannot rename what is not theirs in a sticky folder (as /tmp).
    const sticky = join(base, "sticky");
    mkdirSync(sticky);
    chmodSync(sticky, 0o1777);
    expect(ContentCache.open({ TEND_CACHE_DIR: join(sticky, "cache") })?.dir).toBe(join(sticky, "cache"));
    // Through a link: the cache is used where it really is, so the link cannot be repointed under it.
    symlinkSync(sticky, join(base, "link"));
    const linked = ContentCache.open({ TEND_CACHE_DIR: join(base, "link", "cache") })!;
    expect(linked.dir).toBe(join(sticky, "cache"));
    linked.write("specs", cacheKey("k"), 1);
    expect(readdirSync(join(sticky, "cache", "specs"))).toEqual([`${cacheKey("k")}.json`]);
  });

  it.skipIf(process.getuid?.() !== 0)("is untrusted, as root, in a folder another user owns (they could put their own cache in its place)", () => {
    const theirs = join(fresh(), "theirs");
    mkdirSync(theirs, { mode: 0o755 });
    chownSync(theirs, 65534, 65534);
    expect(ContentCache.open({ TEND_CACHE_DIR: join(theirs, "cache") })).toBeUndefined();
    // The same folder once root owns it again is trusted.
    chownSync(theirs, 0, 0);
    expect(ContentCache.open({ TEND_CACHE_DIR: join(theirs, "cache") })?.dir).toBe(join(theirs, "cache"));
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
