import type { Command, CommandResult } from "@tend/core/contract";
import { RecordingRunner } from "@tend/testkit";

interface FakeUnit {
  enabled: boolean;
  active: boolean;
  invocation: number;
}

/**
 * A system manager that remembers what systemctl told it, for applies through the core: it
 * answers the verbs tend uses (list-unit-files, list-units, show, enable [--now], disable
 * [--now], start, stop, restart, reload, daemon-reload, reset-failed) as systemd 252 would, from
 * its memory, and records every command. A unit becomes known once it is enabled or started
 * (tend writes its file first); `tend-*` is the only pattern it matches as a glob.
 */
export class FakeSystemctl {
  readonly units = new Map<string, FakeUnit>();
  readonly runner = new RecordingRunner().on("systemctl", (command) => this.answer(command));
  private invocations = 0;

  private answer(command: Command): Partial<CommandResult> {
    const args = command.argv.slice(1);
    const dash = args.indexOf("--");
    const names = dash < 0 ? [] : args.slice(dash + 1);
    const flags = dash < 0 ? args : args.slice(0, dash);
    const [verb] = flags;
    const now = flags.includes("--now");
    switch (verb) {
      case "list-unit-files": {
        const found = this.matching(names).map(([unit, u]) => ({ unit_file: unit, state: u.enabled ? "enabled" : "disabled", preset: "enabled" }));
        return { stdout: JSON.stringify(found), exitCode: found.length > 0 ? 0 : 1 };
      }
      case "list-units": {
        const found = this.matching(names).map(([unit, u]) => ({ unit, load: "loaded", active: u.active ? "active" : "inactive", sub: u.active ? "running" : "dead", description: unit }));
        return { stdout: JSON.stringify(found) };
      }
      case "show":
        return { stdout: names.map((unit) => this.show(unit)).join("\n\n") + "\n" };
      case "enable":
      case "disable":
      case "start":
      case "stop":
      case "restart":
      case "reload":
        for (const unit of names) this.act(verb, unit, now);
        return {};
      default:
        return {};
    }
  }

  private act(verb: string, name: string, now: boolean): void {
    const unit = this.units.get(name) ?? { enabled: false, active: false, invocation: 0 };
    this.units.set(name, unit);
    if (verb === "enable") unit.enabled = true;
    if (verb === "disable") unit.enabled = false;
    if (verb === "stop" || (verb === "disable" && now)) unit.active = false;
    if (verb === "restart" || ((verb === "start" || (verb === "enable" && now)) && !unit.active)) {
      unit.active = true;
      unit.invocation = ++this.invocations;
    }
  }

  private matching(patterns: string[]): [string, FakeUnit][] {
    return [...this.units].filter(([unit]) => patterns.some((p) => (p === "tend-*" ? unit.startsWith("tend-") : p === unit)));
  }

  private show(name: string): string {
    const unit = this.units.get(name);
    const lines = [`Id=${name}`, `LoadState=${unit ? "loaded" : "not-found"}`, `ActiveState=${unit?.active ? "active" : "inactive"}`];
    lines.push(`SubState=${unit?.active ? "running" : "dead"}`, `UnitFileState=${unit ? (unit.enabled ? "enabled" : "disabled") : ""}`);
    lines.push(`InvocationID=${unit?.invocation ?? ""}`, "NRestarts=0", "NeedDaemonReload=no", "CanReload=no");
    return lines.join("\n");
  }
}
