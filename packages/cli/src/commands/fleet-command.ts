import type { CliIo } from "../cli-io.js";
import type { CommandLine } from "../command-line/parse-command-line.js";
import { diffSection } from "../output/diff-section.js";
import { planDiffs } from "../output/plan-diffs.js";
import { CLI_PACKAGE_DIR } from "./open-session.js";
import { installCommandFor } from "../command-line/install-command.js";

/** Exit codes for a run a signal stopped, as a shell reports a process the signal ended (128 + n). */
const SIGNAL_EXIT: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/**
 * `tend plan|apply --hosts FILE`: the spec on every host of the inventory (or those `--limit`
 * picks), `--parallel` at a time over ssh. Each host's plan and results are printed as one group
 * when it finishes, a live line shows every running host on a terminal, and a table closes the
 * run. Exit 1 when any host failed, was unreachable or locked; 2 for `plan --detailed-exitcode`
 * when any host has changes.
 */
export async function fleetCommand(line: CommandLine, io: CliIo): Promise<number> {
  const { findSpec, openSpec, Session } = await import("@tend/core");
  const rules = await import("@tend/core/runtime");
  const { loadInventory, limitHosts, runFleet, summaryTable, fleetExitCode, fleetJson } = await import("@tend/fleet");
  const command = line.command === "apply" ? "apply" : "plan";
  const inventory = loadInventory(line.hosts!);
  const hosts = limitHosts(inventory, line.limit);
  const opened = await openSpec(findSpec(line.spec));
  const registry = Session.discover(opened, CLI_PACKAGE_DIR);
  registry.installCommand = installCommandFor(CLI_PACKAGE_DIR);
  const current = new Map<string, string>();
  let finished = 0;
  const draw = () => io.progress?.update({ label: command, unit: "hosts", done: finished, total: hosts.length, step: [...current].map(([h, t]) => `${h}: ${t}`).join(" · ") });
  const controller = new AbortController();
  let received = "SIGINT";
  const stop = (signal: string) => {
    received = signal;
    controller.abort();
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, stop);
  try {
    const outcomes = await runFleet({
      command,
      hosts,
      opened,
      registry,
      ...(line.parallel !== undefined ? { parallel: line.parallel } : {}),
      adopt: line.adopt,
      lockTimeoutMs: line.lockTimeout * 1000,
      paint: io.paint,
      signal: controller.signal,
      signalName: () => received,
      planJson: (plan) => plan,
      ...(line.diff ? { planExtra: (plan) => diffSection(plan, io.paint, rules) } : {}),
      progress: (host, text) => {
        current.set(host, text);
        draw();
      },
      done: (outcome) => {
        finished += 1;
        current.delete(outcome.name);
        io.progress?.clear();
        io.out(`${io.paint.bold(`== ${outcome.name}`)} (${outcome.init || "init unknown"}, ${outcome.status})\n`);
        io.out(outcome.text);
        for (const error of outcome.errors) io.report(error);
        io.out("\n");
        draw();
      },
    });
    io.progress?.stop();
    io.out(summaryTable(outcomes));
    const { planToJson } = await import("@tend/core");
    const json = fleetJson(command, outcomes.map((o) => ({ ...o, plan: o.plan === undefined ? undefined : { ...(planToJson(o.plan as never) as object), ...(line.diff ? { diffs: planDiffs(o.plan as never, rules) } : {}) } })));
    io.result(json);
    if (controller.signal.aborted) return SIGNAL_EXIT[received] ?? 1;
    return fleetExitCode(outcomes, command === "plan" && line.detailedExitcode);
  } finally {
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.off(signal, stop);
    io.progress?.stop();
  }
}
