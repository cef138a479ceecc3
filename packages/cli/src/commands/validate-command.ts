import type { CliIo } from "../cli-io.js";
import type { CommandLine } from "../command-line/parse-command-line.js";
import { CLI_PACKAGE_DIR, openSession, specOptions } from "./open-session.js";

/**
 * The spec alone: fields, names, references, cycles, tend's own paths. Needs no init and no
 * provider; when the init is known (`--init`, or the host's) and its providers are installed, it
 * also renders the spec there and checks what that init cannot express, so a spec plan would
 * refuse on that init (a field it lacks, two resources writing one path) fails here too. Nothing
 * of the host is read for that: its users, files and services are plan's.
 */
export async function validateCommand(line: CommandLine, io: CliIo): Promise<number> {
  const { findSpec, openSpec, resolveHost, Session, TendError } = await import("@tend/core/runtime");
  const file = findSpec(line.spec);
  const opened = await openSpec(file, await specOptions(line));
  const registry = Session.discover(opened, CLI_PACKAGE_DIR);
  const host = resolveHost({ ...(line.init ? { init: line.init } : {}), ...(line.user !== undefined ? { user: line.user } : {}) }, registry.inits, false);
  const spec = await opened.build(host.facts);
  await renderOnInit(line);
  const counts = { service: 0, timer: 0, file: 0, package: 0 };
  for (const resource of spec.resources) counts[resource.type] += 1;
  const listed = Object.entries(counts).map(([type, n]) => `${n} ${type}${n === 1 ? "" : "s"}`);
  io.out(`${opened.file}: valid, ${listed.join(", ")}\n`);
  io.result({ file: opened.file, valid: true, counts });
  return 0;

  /** Throws what plan would refuse on the init before reading the host; nothing when no init is known. */
  async function renderOnInit(commandLine: CommandLine): Promise<void> {
    let session;
    try {
      session = await openSession(commandLine, { rendersOnly: true });
    } catch (error) {
      if (TendError.isInstance(error) && (error.code === "TEND_NO_INIT" || error.code === "TEND_UNKNOWN_INIT")) return;
      throw error;
    }
    const resources = session.scopeResources();
    await session.renderOnInit(resources, await session.assignProviders(resources));
  }
}
