import { errors } from "../errors/catalogue.js";
import type { TendError } from "../errors/tend-error.js";
import { foldersAbove } from "../files/host-path.js";

/** Who renders a path of the host, and as what (a core store: `file`, `symlink`, `directory`). */
export interface PathOwner {
  key: string;
  store: string;
}

/**
 * Rendered paths that lie inside another resource's file or link (a File at
 * `/etc/systemd/system/tend-web.service/x`): the host cannot hold both, and an apply would write
 * one and fail the other. Inside a folder a resource renders is fine. Named at the inner path's
 * resource, once per pair of resources. `owners` is keyed by path for the core's stores, by
 * artifact id (`crontab-block:…`, never starting with `/`) for a provider's own.
 */
export function folderClashes(owners: Map<string, PathOwner>, file: string | undefined): TendError[] {
  const found: TendError[] = [];
  const named = new Set<string>();
  for (const [path, inner] of owners) {
    if (!path.startsWith("/")) continue;
    for (const folder of foldersAbove(path)) {
      const outer = owners.get(folder);
      if (!outer || outer.store === "directory" || outer.key === inner.key || named.has(`${inner.key} ${outer.key}`)) continue;
      named.add(`${inner.key} ${outer.key}`);
      const as = outer.store === "symlink" ? "a link" : "a file";
      found.push(errors.duplicate(inner.key, `would write ${path} inside ${folder}, which ${outer.key} writes as ${as}`, { file, hint: "Give one of them another path" }));
    }
  }
  return found;
}
