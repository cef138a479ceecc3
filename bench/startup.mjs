// What a no-op `tend plan` costs on top of starting node: the CLI's start-up (lazy imports: only
// the command's modules and the host's provider) plus the provider's observation.
import { execFileSync } from "node:child_process";
import { dirname } from "node:path";
import { CLI, imageRoot, serviceSpec, timeRun } from "./measure.mjs";

export function startup({ short = false } = {}) {
  const runs = short ? 5 : 15;
  const spec = serviceSpec(200);
  const root = imageRoot();
  execFileSync(process.execPath, [CLI, "apply", "-f", spec, "--init", "runit", "--root", root], { stdio: "pipe" });
  // The fastest run: on a busy machine the others measure the neighbours.
  const time = (argv) => Math.min(...Array.from({ length: runs }, () => timeRun(argv, { cwd: dirname(spec) })));
  const node = time([process.execPath, "-e", "0"]);
  const rows = [{ name: "node -e 0", ms: node }];
  rows.push({ name: "tend --help", ms: time([process.execPath, CLI, "--help"]) });
  rows.push({ name: "tend validate (200 services)", ms: time([process.execPath, CLI, "validate", "-f", spec]) });
  rows.push({ name: "tend plan, no-op (200 runit services, --root)", ms: time([process.execPath, CLI, "plan", "-f", spec, "--init", "runit", "--root", root]) });
  for (const row of rows.slice(1)) Object.assign(row, { ratio: row.ms / node, of: "node -e 0" });
  return rows;
}

