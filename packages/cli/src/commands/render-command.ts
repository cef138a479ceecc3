import type { Artifact, Resource, Scope } from "@tend/core/runtime";
import type { CliIo } from "../cli-io.js";
import type { CommandLine } from "../command-line/parse-command-line.js";
import { CLI_PACKAGE_DIR, openSession, specOptions } from "./open-session.js";

/**
 * The files a spec becomes on one init or on every init (`--init all`); touches nothing. A
 * resource an init cannot express is reported as the error plan would give, and the command then
 * exits 1.
 */
export async function renderCommand(line: CommandLine, io: CliIo): Promise<number> {
  const { Session, findSpec, openSpec, canonicalReference, errors, lookupUser, TendError, resolveHost, parseInit, addSpecLines } = await import("@tend/core/runtime");
  const registry = Session.discover(await openSpec(findSpec(line.spec), await specOptions(line)), CLI_PACKAGE_DIR);
  const inits = line.init === "all" ? registry.inits.names : [line.init ? parseInit(line.init, registry.inits) : resolveHost({}, registry.inits).facts.init];
  const wanted = line.positionals.map((ref) => canonicalReference(ref) ?? ref);
  const results: { init: string; resources: { key: string; artifacts?: Artifact[]; error?: string }[] }[] = [];
  for (const init of inits) {
    const rendered: (typeof results)[number] = { init, resources: [] };
    results.push(rendered);
    const session = await openSession(line, { init, rendersOnly: true });
    if (inits.length > 1) io.out(`${io.paint.bold(`# ${init}`)}\n`);
    const self = resolveHost({ user: line.user ?? true, init }, registry.inits).scope;
    const userScope: Scope = self.kind === "user" ? self : { kind: "user", user: "root", uid: 0, gid: 0, home: lookupUser("0")?.home ?? "/root" };
    const resources = session.spec.resources.filter((r) => wanted.length === 0 || wanted.includes(`${r.type}:${r.name}`));
    if (wanted.length > 0 && resources.length < wanted.length) throw errors.usage(`no such resource in the spec: ${wanted.join(", ")}`);
    for (const resource of resources) {
      const key = `${resource.type}:${resource.name}`;
      try {
        const scope: Scope = (resource.type === "service" || resource.type === "timer") && resource.user ? userScope : { kind: "system" };
        const assigned = await session.assignProviders([resource]);
        const artifacts = session.renderAll([resource], assigned, { host: { ...session.host.facts, init }, init, scope }).get(key) ?? [];
        rendered.resources.push({ key, artifacts });
        io.out(formatArtifacts(key, artifacts, resource));
      } catch (error) {
        if (!TendError.isInstance(error)) throw error;
        rendered.resources.push({ key, error: error.message });
        io.out(`${io.paint.bold(`## ${key}`)}  not renderable on ${init}\n`);
        await addSpecLines(error);
        io.report(error);
      }
    }
  }
  io.result({ inits: results });
  return 0;
}

function formatArtifacts(key: string, artifacts: Artifact[], resource: Resource): string {
  if (artifacts.length === 0) {
    return `## ${key}  no files${resource.type === "service" && resource.exec === undefined ? " (enables the distro's unit)" : ""}\n`;
  }
  return artifacts
    .map((a) => {
      const store = a.store ?? "file";
      if (store === "symlink") return `## ${key}  ${a.path} -> ${a.content}\n\n`;
      if (store === "directory") return `## ${key}  ${a.path}/\n\n`;
      const mode = a.mode !== undefined ? ` (${a.mode.toString(8).padStart(4, "0")})` : "";
      const body = a.content.endsWith("\n") || a.content === "" ? a.content : `${a.content}\n`;
      return `## ${key}  ${store === "file" ? "" : `${store} `}${a.path}${mode}\n${body}\n`;
    })
    .join("");
}
