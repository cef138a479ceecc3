import type { CliIo } from "../cli-io.js";
import type { CommandLine } from "../command-line/parse-command-line.js";
import { CLI_PACKAGE_DIR, openSession, specOptions } from "./open-session.js";

/**
 * The spec alone: fields, names, references, cycles, tend's own paths. Needs no init and no
 * provider; when the host's init is known and its providers are installed, it also renders the
 * spec there, so two resources that would write one path fail here rather than at apply.
 */
export async function validateCommand(line: CommandLine, io: CliIo): Promise<number> {
  const { findSpec, openSpec, resolveHost, Session, TendError, TendErrors } = await import("@tend/core/runtime");
  const file = findSpec(line.spec);
  const opened = await openSpec(file, await specOptions(line));
  const registry = Session.discover(opened, CLI_PACKAGE_DIR);
  const host = resolveHost({ ...(line.init ? { init: line.init } : {}), ...(line.user !== undefined ? { user: line.user } : {}) }, registry.inits, false);
  const spec = await opened.build(host.facts);
  const clashes = await renderedClashes(line);
  if (clashes.length > 0) throw clashes.length === 1 ? clashes[0]! : new TendErrors(clashes);
  const counts = { service: 0, timer: 0, file: 0, package: 0 };
  for (const resource of spec.resources) counts[resource.type] += 1;
  const listed = Object.entries(counts).map(([type, n]) => `${n} ${type}${n === 1 ? "" : "s"}`);
  io.out(`${opened.file}: valid, ${listed.join(", ")}\n`);
  io.result({ file: opened.file, valid: true, counts });
  return 0;

  async function renderedClashes(commandLine: CommandLine) {
    let session;
    try {
      session = await openSession(commandLine, { rendersOnly: true });
    } catch (error) {
      if (TendError.isInstance(error) && (error.code === "TEND_NO_INIT" || error.code === "TEND_UNKNOWN_INIT")) return [];
      throw error;
    }
    const resources = session.scopeResources();
    try {
      session.renderAll(resources, await session.assignProviders(resources));
      return [];
    } catch (error) {
      if (!TendError.isInstance(error)) throw error;
      const all = Array.isArray((error as InstanceType<typeof TendErrors>).errors) ? (error as InstanceType<typeof TendErrors>).errors : [error];
      return all.filter((e) => e.code === "TEND_DUPLICATE");
    }
  }
}
