import type { Observation } from "@tend/core/runtime";
import type { CliIo } from "../cli-io.js";
import type { CommandLine } from "../command-line/parse-command-line.js";
import { openSession } from "./open-session.js";

/** Datum's observation fields for each resource (or the named ones). */
export async function observeCommand(line: CommandLine, io: CliIo): Promise<number> {
  const { canonicalReference, errors } = await import("@tend/core/runtime");
  const session = await openSession(line);
  const wanted = line.positionals.map((ref) => {
    const key = canonicalReference(ref);
    if (!key) throw errors.usage(`\`${ref}\` is not a reference such as service:web or Service[web]`);
    return key;
  });
  const declared = session.scopeResources();
  // A File is tend's, not the init's: plan compares it with the spec.
  const files = wanted.filter((key) => declared.some((r) => r.type === "file" && `file:${r.name}` === key));
  if (files.length > 0) throw errors.usage(`${files.join(", ")} ${files.length === 1 ? "is a File" : "are Files"}: the init reports nothing on files; \`tend plan\` shows whether ${files.length === 1 ? "it matches" : "they match"} the spec`);
  let resources = declared.filter((r) => r.type !== "file");
  if (wanted.length > 0) {
    const missing = wanted.filter((key) => !resources.some((r) => `${r.type}:${r.name}` === key));
    if (missing.length > 0) throw errors.usage(`${missing.join(", ")} is not declared in this scope of the spec`);
    resources = resources.filter((r) => wanted.includes(`${r.type}:${r.name}`));
  }
  const assigned = await session.assignProviders(resources);
  const state = await session.stateStore.load();
  const observed = await session.observeAll(resources, assigned, state);
  for (const [key, drift] of await session.runtimeDrift(resources, assigned, observed, state)) {
    const observation = observed.get(key);
    if (observation) observation.drift = [...(observation.drift ?? []), ...drift];
  }
  const rows = resources.map((r) => ({ key: `${r.type}:${r.name}`, observation: observed.get(`${r.type}:${r.name}`) }));
  io.result({ resources: rows.map((row) => ({ key: row.key, ...row.observation })) });
  for (const row of rows) io.out(formatObservation(row.key, row.observation));
  if (rows.length === 0) io.out(`nothing to observe: this scope of the spec declares no service, timer or package${declared.length > 0 ? ` (its ${declared.length === 1 ? "file is" : `${declared.length} files are`} compared by tend plan)` : ""}\n`);
  return 0;
}

function formatObservation(key: string, o: Observation | undefined): string {
  if (!o) return `${key}\n  not observed\n`;
  const lines = [key, `  exists   ${o.exists ? "yes" : "no"}`];
  if (o.state !== undefined) lines.push(`  state    ${o.state}`);
  const fileState = o.unitFileState ? ` (${o.unitFileState})` : "";
  lines.push(`  enabled  ${o.enabled === undefined ? `unobservable${fileState}` : `${o.enabled ? "yes" : "no"}${fileState}`}`);
  if (o.canReload !== undefined) lines.push(`  reload   ${o.canReload ? "yes" : "no"}`);
  if (o.atBoot) lines.push(`  at boot  ${atBootLine(o)}`);
  for (const drift of o.drift ?? []) lines.push(`  drift    ${drift}`);
  for (const warning of o.warnings ?? []) lines.push(`  warning  ${warning}`);
  for (const [name, value] of Object.entries(o.details ?? {})) lines.push(`  ${name.padEnd(8)} ${String(value)}`);
  return `${lines.join("\n")}\n`;
}

/** Whether it would run after a reboot, and why, flagged when that differs from now. */
function atBootLine(o: Observation): string {
  const boot = o.atBoot!;
  const said = `${boot.starts ? "starts" : "does not start"}${boot.why ? `: ${boot.why}` : ""}`;
  const differs = o.state !== undefined && boot.starts !== (o.state === "running");
  return differs ? `${said} (differs from now: ${o.state})` : said;
}
