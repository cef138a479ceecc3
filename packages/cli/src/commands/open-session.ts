import { fileURLToPath } from "node:url";
import type { Session } from "@tend/core";
import type { CommandLine } from "../command-line/parse-command-line.js";
import { installCommandFor } from "../command-line/install-command.js";

/** The CLI's package folder: its install is where tend's own providers are found. */
export const CLI_PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

/** Opens a session from the common flags. */
export async function openSession(line: CommandLine, extra: { init?: string; log?: (text: string) => void } = {}): Promise<Session> {
  const { Session } = await import("@tend/core");
  return Session.open({
    ...(line.spec !== undefined ? { spec: line.spec } : {}),
    ...(extra.init ?? line.init ? { init: extra.init ?? line.init } : {}),
    ...(line.root !== undefined ? { root: line.root } : {}),
    ...(line.user !== undefined ? { user: line.user } : {}),
    ...(extra.log ? { log: extra.log } : {}),
    toolDir: CLI_PACKAGE_DIR,
    installCommand: installCommandFor(CLI_PACKAGE_DIR),
  });
}
