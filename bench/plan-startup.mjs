// Measures what a no-op `tend plan` costs on top of starting node: the CLI's start-up (lazy
// imports: only the command's modules and the host's provider) plus the provider's observation.
// Usage: node bench/plan-startup.mjs [runs]   (build first: pnpm build)
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const runs = Number(process.argv[2] ?? 15);
const cli = new URL("../packages/cli/dist/bin.js", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "tend-bench-"));
const root = join(dir, "root");
const services = Array.from({ length: 200 }, (_, i) => `tend: v1alpha1\ntype: Service\nname: svc${i}\nexec: /opt/svc/bin/run --id ${i}\nrestart: always\n`);
writeFileSync(join(dir, "tend.yaml"), services.join("---\n"));

function time(args) {
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    const start = process.hrtime.bigint();
    execFileSync(process.execPath, args, { cwd: dir, stdio: "pipe" });
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

execFileSync(process.execPath, [cli, "apply", "--init", "runit", "--root", root], { cwd: dir, stdio: "pipe" });
const rows = [
  ["node -e 0", time(["-e", "0"])],
  ["tend --help", time([cli, "--help"])],
  ["tend validate (200 services)", time([cli, "validate"])],
  ["tend plan, no-op (200 runit services, --root)", time([cli, "plan", "--init", "runit", "--root", root])],
];
for (const [name, ms] of rows) console.log(`${name.padEnd(48)} ${ms.toFixed(1).padStart(8)} ms (median of ${runs})`);
