import type { CliIo } from "../cli-io.js";
import type { CommandLine } from "../parse-command-line.js";

/** The spec alone: fields, names, references, cycles. Needs no init and no provider. */
export async function validateCommand(line: CommandLine, io: CliIo): Promise<number> {
  const { findSpec, loadSpec, resolveHost } = await import("@tend/core");
  const file = findSpec(line.spec);
  const host = resolveHost({ ...(line.init ? { init: line.init } : {}), ...(line.user !== undefined ? { user: line.user } : {}) }, false);
  const spec = await loadSpec(file, host.facts);
  const count = (type: string) => spec.resources.filter((r) => r.type === type).length;
  io.out(`${file}: valid, ${count("service")} services, ${count("timer")} timers, ${count("file")} files\n`);
  return 0;
}
