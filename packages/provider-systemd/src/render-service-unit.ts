import type { Service } from "@tend/core/contract";
import { escapeTextValue } from "./escape-text-value.js";
import { execStart } from "./exec-start.js";
import { mergeEscapeHatch } from "./merge-escape-hatch.js";
import { quoteEnvironment } from "./quote-environment.js";
import { formatUnitFile, type Directive } from "./unit-file.js";
import { tendUnitName } from "./unit-name.js";

export const RESTART: Record<NonNullable<Service["restart"]>, string | undefined> = {
  no: undefined,
  on_failure: "on-failure",
  always: "always",
};

/**
 * `tend-<name>.service` for a service with `exec`, as the seed's systemd columns say.
 *
 * No `Type=` is written: the seed's own example (web, byte for byte) has none. `Type=exec` would
 * make `systemctl start` fail at once on a missing binary, but verification catches that and
 * the commoner "exits a second later" alike (active, same InvocationID, NRestarts unchanged
 * across the settle window), and a spec can still ask for it with `systemd = {"Type": "exec"}`.
 */
export function renderServiceUnit(service: Service & { exec: string }): string {
  const user = service.user === true;
  const unit: Directive[] = [["Description", escapeTextValue(service.description || service.name)]];
  const after = afterUnits(service.after ?? []);
  if (after.length > 0) unit.push(["After", after.join(" ")]);
  if (!user && service.after?.includes("network")) unit.push(["Wants", "network-online.target"]);

  const body: Directive[] = [["ExecStart", execStart(service.exec)]];
  if (service.reloadSignal) body.push(["ExecReload", `/bin/kill -s ${service.reloadSignal} $MAINPID`]);
  const restart = RESTART[service.restart ?? "no"];
  if (restart) body.push(["Restart", restart]);
  for (const [name, value] of Object.entries(service.env ?? {})) body.push(["Environment", quoteEnvironment(name, value)]);

  const install: Directive[] = [["WantedBy", user ? "default.target" : "multi-user.target"]];
  const sections = mergeEscapeHatch(
    [
      { name: "Unit", directives: unit },
      { name: "Service", directives: body },
      { name: "Install", directives: install },
    ],
    service.systemd,
  );
  return formatUnitFile(sections);
}

/**
 * `after` entries as units: `network` is `network-online.target` (in a user manager too, where
 * only `After=` is written, since `Wants=` would pull a unit the user manager does not have), a
 * `*.target` as written, anything else another tend service.
 */
export function afterUnits(after: readonly string[]): string[] {
  const units = after.map((entry) => {
    if (entry === "network") return "network-online.target";
    if (entry.endsWith(".target")) return entry;
    return tendUnitName(entry, "service");
  });
  return [...new Set(units)];
}
