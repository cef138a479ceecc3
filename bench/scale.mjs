// How tend's cost grows with the number of services: apply into an image root at N = 100 and
// 1,000 (goal: within 5x, i.e. linear), the init commands a 1,000-service systemd apply runs
// (goal: a handful per wave, not one per service), and 10,000 services on every init: validate,
// plan into a fresh root, apply into it, plan again once converged (goals: 5 s each, 30 s for the
// apply, 300 MB peak memory for every one of them, and a fresh plan within 12x of the same plan of
// 1,000). Short mode (CI): the fresh plans on systemd and runit only. Returns rows for bench/run.mjs.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CLI, countExecs, imageRoot, median, runWithPeak, serviceSpec, timeRun } from "./measure.mjs";

const PEAK_GOAL_MB = 300;

/** Programs an apply into a root runs, by init (none for the others). */
const OFFLINE_TOOLS = { s6: ["s6-rc-compile"] };

/** Whether a program is in one of the folders tend's runner searches (it does not inherit PATH). */
function onPath(program) {
  return "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin".split(":").some((dir) => existsSync(join(dir, program)));
}

const INITS = ["systemd", "runit", "openrc", "dinit", "s6", "launchd"];

export function scale({ short = false } = {}) {
  const rows = [];
  const runs = short ? 1 : 3;
  const applyOnce = (spec, n) => timeRun([process.execPath, CLI, "apply", "-f", spec, "--init", "runit", "--root", imageRoot()]);
  const small = serviceSpec(100);
  const large = serviceSpec(1000);
  const t100 = [];
  const t1000 = [];
  for (let i = 0; i < runs; i += 1) {
    t100.push(applyOnce(small, 100));
    t1000.push(applyOnce(large, 1000));
  }
  const [m100, m1000] = [median(t100), median(t1000)];
  rows.push({ name: "apply 100 runit services into a root", ms: m100 });
  rows.push({ name: "apply 1,000 runit services into a root", ms: m1000, ratio: m1000 / m100, of: "100 services", goal: 5 });

  const systemctl = countExecs([process.execPath, CLI, "apply", "-f", large, "--init", "systemd", "--root", imageRoot()], "systemctl");
  rows.push({ name: "systemctl runs for 1,000 systemd services into a root", count: systemctl, goal: 20 });

  const huge = serviceSpec(10_000);
  if (short) {
    for (const init of ["systemd", "runit"]) {
      const ms = timeRun([process.execPath, CLI, "plan", "-f", huge, "--init", init, "--root", imageRoot()], { okCodes: [0] });
      rows.push({ name: `plan 10,000 ${init} services (fresh root)`, ms, limitMs: 5_000 });
    }
    return rows;
  }
  const peaks = [];
  const validate = runWithPeak(["validate", "-f", huge]);
  rows.push({ name: "validate 10,000 services", ms: validate.ms, limitMs: 5_000 });
  peaks.push(["validate", validate.peakMb]);
  for (const init of INITS) {
    const root = imageRoot();
    const plan = runWithPeak(["plan", "-f", huge, "--init", init, "--root", root]);
    const planSmall = runWithPeak(["plan", "-f", large, "--init", init, "--root", imageRoot()]);
    rows.push({ name: `plan 10,000 ${init} services (fresh root)`, ms: plan.ms, limitMs: 5_000 });
    rows.push({ name: `plan 10,000 ${init} services against 1,000`, ms: plan.ms, ratio: plan.ms / planSmall.ms, of: `1,000 in ${planSmall.ms.toFixed(0)} ms`, goal: 12 });
    const missing = OFFLINE_TOOLS[init]?.find((tool) => !onPath(tool));
    if (missing) {
      // tend runs the init's own tools under --root too (s6-rc-compile builds s6-rc's database).
      console.log(`scale: ${missing} is not installed here: apply 10,000 ${init} services into a root did not run`);
      peaks.push([`${init} plan`, plan.peakMb]);
      continue;
    }
    const apply = runWithPeak(["apply", "-f", huge, "--init", init, "--root", root]);
    rows.push({ name: `apply 10,000 ${init} services into a root`, ms: apply.ms, limitMs: 30_000 });
    const converged = runWithPeak(["plan", "-f", huge, "--init", init, "--root", root]);
    rows.push({ name: `plan 10,000 ${init} services (converged root)`, ms: converged.ms, limitMs: 5_000 });
    peaks.push([`${init} plan`, plan.peakMb], [`${init} apply`, apply.peakMb], [`${init} converged plan`, converged.peakMb]);
  }
  const [worst, mb] = peaks.reduce((a, b) => (b[1] > a[1] ? b : a));
  rows.push({ name: "peak memory of any 10,000-service run (MB)", count: Math.round(mb), goal: PEAK_GOAL_MB, of: `the most: ${worst}` });
  return rows;
}
