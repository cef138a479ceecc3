// Runs inside a test host (packages/testkit's containers, where the checkout is mounted at
// /opt/tend): tend against the floor script of the host's init, bench/floors/<init>.sh.
// Usage: node /opt/tend/bench/in-host.mjs <init> <services> <runs>; prints one JSON array of
// rows { name, ms, floorMs } (each the fastest of `runs`, except the fresh applies: the fastest
// of two, each from a clean host, when `runs` is 5 or more, else one).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";

const [init, servicesArg, runsArg] = process.argv.slice(2);
const n = Number(servicesArg);
const runs = Number(runsArg ?? 3);
const CLI = "/opt/tend/packages/cli/dist/bin.js";
const FLOOR = `/opt/tend/bench/floors/${init}.sh`;
const SPEC = "/tmp/tend-bench/tend.yaml";
const CONFIG = "/tmp/tend-bench/tend.config.ts";

/**
 * Applies whose verification failed and were run again. With settle 0, runit's verification can
 * read a service runsv is restarting (`down: 0s, normally up, want up`) as stopped: a finding the
 * benchmark reports (in the row) rather than fails on.
 */
let verifyRetries = 0;

function time(argv) {
  for (let attempt = 0; ; attempt += 1) {
    const start = process.hrtime.bigint();
    const result = spawnSync(argv[0], argv.slice(1), { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8", cwd: "/tmp/tend-bench" });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status === 0) return ms;
    if (attempt < 2 && result.stderr.includes("TEND_VERIFY_FAILED")) {
      verifyRetries += 1;
      continue;
    }
    throw new Error(`${argv.join(" ")} exited ${result.status}: ${result.stderr.slice(0, 2000)}`);
  }
}
const fastest = (argv, count = runs) => Math.min(...Array.from({ length: count }, () => time(argv)));
/**
 * runsv delays the restart of a process that ran less than a second ("If ./run or ./finish exit
 * immediately, runsv waits a second", runsv(8)): on runit each change, tend's and the floor's,
 * starts that long after the last (the wait is not timed), so neither measures runsv's delay.
 */
const CHANGE_SPACING_S = init === "runit" ? "1.1" : "0";
function spaced(argv) {
  spawnSync("/bin/sleep", [CHANGE_SPACING_S]);
  return time(argv);
}
const tend = (...args) => [process.execPath, CLI, ...args];
const floor = (...args) => ["/bin/sh", FLOOR, ...args];

/** n services, each its own sleep; settle 0 so the verification window is not measured. */
function writeSpec(firstArg) {
  const docs = Array.from({ length: n }, (_, i) => `tend: v1alpha1\ntype: Service\nname: svc${i}\nexec: /bin/sleep ${i === 0 ? firstArg : 100000 + i}\nrestart: always\nverify:\n  settle: 0\n`);
  writeFileSync(SPEC, docs.join("---\n"));
  writeFileSync(
    CONFIG,
    `import { defineConfig, service } from "@tend/core";\n\nexport default defineConfig({\n  resources: Array.from({ length: ${n} }, (_, i) =>\n    service(\`svc\${i}\`, { exec: \`/bin/sleep \${i === 0 ? ${firstArg} : 100000 + i}\`, restart: "always", verify: { settle: 0 } }),\n  ),\n});\n`,
  );
}

/**
 * A fresh apply's time swings with the init's own timing (runsvdir looks at its folder every 5 s,
 * so a new link waits 0–5 s for its runsv, whoever made it): with enough runs, each is the
 * faster of two.
 */
const freshRuns = runs >= 5 ? 2 : 1;
/** runit's teardown waits this long for runsvdir to stop the removed services' runsv (as the floor's does). */
const SCAN_SETTLE_MS = init === "runit" ? 6000 : 0;

mkdirSync("/tmp/tend-bench", { recursive: true });
const rows = [];
// The floor first, then undone, so tend starts from the same clean host.
let floorApply = Infinity;
let floorChange = Infinity;
for (let i = 0; i < freshRuns; i += 1) {
  floorApply = Math.min(floorApply, time(floor("apply", String(n))));
  if (i === 0) floorChange = Math.min(...Array.from({ length: runs }, () => spaced(floor("change"))));
  time(floor("teardown", String(n)));
}

let apply = Infinity;
for (let i = 0; i < freshRuns; i += 1) {
  if (i > 0) {
    writeFileSync(SPEC, "# nothing\n");
    time(tend("apply", "-f", SPEC));
    spawnSync("/bin/sleep", [String(SCAN_SETTLE_MS / 1000)]);
  }
  writeSpec(100000);
  apply = Math.min(apply, time(tend("apply", "-f", SPEC)));
}
rows.push({ name: `${init}: fresh apply of ${n} services`, ms: apply, floorMs: floorApply });

// Interleaved, so tend and its floor see the same neighbours on a shared machine.
const best = { node: Infinity, query: Infinity, yaml: Infinity, ts: Infinity };
for (let i = 0; i < Math.max(runs, 5); i += 1) {
  best.node = Math.min(best.node, time([process.execPath, "-e", "0"]));
  best.query = Math.min(best.query, time(floor("query", String(n))));
  best.yaml = Math.min(best.yaml, time(tend("plan", "-f", SPEC)));
  best.ts = Math.min(best.ts, time(tend("plan", "-f", CONFIG)));
}
rows.push({ name: `${init}: no-op plan of ${n} services (tend.yaml)`, ms: best.yaml, floorMs: best.node + best.query });
rows.push({ name: `${init}: no-op plan of ${n} services (tend.config.ts)`, ms: best.ts, floorMs: best.node + best.query });

// Each change is a spec text tend has not seen (an admin's edit), so the spec is parsed and
// validated as it would be then, not read back from tend's cache of a text it validated before.
const changes = [];
for (let i = 0; changes.length < runs && i < runs * 2; i += 1) {
  writeSpec(300000 + i * 1000 + Math.floor(Math.random() * 1000));
  const retriesBefore = verifyRetries;
  const ms = spaced(tend("apply", "-f", SPEC));
  // A re-run after a failed verification changed nothing: not a measurement of a change.
  if (verifyRetries === retriesBefore) changes.push(ms);
}
// A change's floor is a few milliseconds of shell: as for the plan, the floor of a tool written
// for node includes starting node (else the ratio measures node's start, and noise).
rows.push({ name: `${init}: apply changing 1 of ${n} services`, ms: Math.min(...changes), floorMs: floorChange + best.node });
if (verifyRetries > 0) for (const row of rows) row.note = `${verifyRetries} apply(s) re-run after a failed verification`;
process.stdout.write(`${JSON.stringify(rows)}\n`);
