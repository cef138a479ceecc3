// How tend's cost grows with the number of services: apply into an image root at N = 100 and
// 1,000 (goal: within 5x, i.e. linear), the init commands a 1,000-service systemd apply runs
// (goal: a handful per wave, not one per service), and a plan of 10,000 services on every init
// (goal: at most 5 s each). Returns rows for bench/run.mjs.
import { CLI, countExecs, imageRoot, median, serviceSpec, timeRun } from "./measure.mjs";

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
  for (const init of short ? ["systemd", "runit"] : INITS) {
    const ms = timeRun([process.execPath, CLI, "plan", "-f", huge, "--init", init, "--root", imageRoot()], { okCodes: [0] });
    rows.push({ name: `plan 10,000 ${init} services (fresh root)`, ms, limitMs: 5_000 });
  }
  return rows;
}
