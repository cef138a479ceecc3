import { basename, dirname, posix } from "node:path";
import type { ReadContext } from "@tend/core/contract";
import { userUnitSearchPath } from "./unit-directories.js";
import { templateOf } from "./unit-name.js";

/** Links followed before giving up (systemd stops at a similar depth). */
const MAX_HOPS = 8;

/** A user unit as its manager would load it: its real name, and the file that defines it. */
export type UserUnitFile = { kind: "file"; unit: string; path: string; text: string } | { kind: "masked" };

/**
 * Finds what a user manager would load for `unit` in an image root, where no manager runs and
 * systemd refuses `--user` with `--root`: the first folder of its search path holding the name
 * (an alias link followed to the real unit, whose name it then has), else, for an instance
 * (`foo@bar.service`), its template's file, the instance keeping its own name. A link to
 * `/dev/null` is a mask. Undefined when nothing defines it.
 */
export async function findUserUnitFile(unit: string, ctx: ReadContext): Promise<UserUnitFile | undefined> {
  const home = ctx.scope.kind === "user" ? ctx.scope.home : ctx.host.home;
  const template = templateOf(unit);
  for (const name of template ? [unit, template] : [unit]) {
    for (const dir of userUnitSearchPath(home)) {
      let path = `${dir}/${name}`;
      for (let hop = 0; hop < MAX_HOPS; hop += 1) {
        const link = await ctx.files.readLink(path);
        if (link === null) break;
        if (link === "/dev/null") return { kind: "masked" };
        path = link.startsWith("/") ? link : posix.join(dirname(path), link);
      }
      const text = await ctx.files.readFile(path);
      if (text !== null) return { kind: "file", unit: name === template ? unit : basename(path), path, text };
    }
  }
  return undefined;
}
