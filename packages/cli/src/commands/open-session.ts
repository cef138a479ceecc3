import type { ContentCache, Session } from "@tend/core/runtime";
import { CLI_PACKAGE_DIR } from "../cli-package.js";
import type { CommandLine } from "../command-line/parse-command-line.js";
import { installCommandFor } from "../command-line/install-command.js";

export { CLI_PACKAGE_DIR };

/** Opens a session from the common flags; `rendersOnly` for a command that runs none of the init's tools (validate, render). */
export async function openSession(line: CommandLine, extra: { init?: string; log?: (text: string) => void; rendersOnly?: boolean } = {}): Promise<Session> {
  const { Session } = await import("@tend/core/runtime");
  return Session.open({
    ...(await specCache()),
    ...(line.spec !== undefined ? { spec: line.spec } : {}),
    ...(extra.init ?? line.init ? { init: extra.init ?? line.init } : {}),
    ...(line.root !== undefined ? { root: line.root } : {}),
    ...(line.user !== undefined ? { user: line.user } : {}),
    ...(extra.log ? { log: extra.log } : {}),
    ...(extra.rendersOnly ? { runsInit: false } : {}),
    toolDir: CLI_PACKAGE_DIR,
    installCommand: installCommandFor(CLI_PACKAGE_DIR),
  });
}

/** The running user's cache for specs (a YAML spec validated once is not parsed again), when there is one tend trusts. */
export async function specCache(): Promise<{ cache?: ContentCache }> {
  const { ContentCache } = await import("@tend/core/runtime");
  const cache = ContentCache.open();
  return cache ? { cache } : {};
}

/** How this command line opens its spec: with the user's cache, and for `--user NAME` that user's YAML spec trusted as root. */
export async function specOptions(line: CommandLine): Promise<{ cache?: ContentCache; scopeUser?: string }> {
  return { ...(await specCache()), ...(typeof line.user === "string" ? { scopeUser: line.user } : {}) };
}
