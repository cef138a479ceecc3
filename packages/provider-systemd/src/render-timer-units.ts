import { parseSchedule, type Timer } from "@tend/core/contract";
import { escapeTextValue } from "./escape-text-value.js";
import { execStart } from "./exec-start.js";
import { toOnCalendar } from "./on-calendar.js";
import { quoteEnvironment } from "./quote-environment.js";
import { formatUnitFile, type Directive } from "./unit-file.js";

/**
 * A timer's two units: a oneshot `tend-<name>.service` with no `[Install]` (it is started by
 * its timer only, so systemd reports it `static`) and `tend-<name>.timer`.
 *
 * `Persistent=true` (seed) runs a firing missed while the machine was off at the next boot.
 * `AccuracySec=1s`: systemd's default accuracy of one minute lets a timer fire up to a minute
 * late, to batch wake-ups; a cron schedule promises the minute it names, so tend asks for the
 * second.
 */
export function renderTimerUnits(timer: Timer): { service: string; timer: string } {
  const body: Directive[] = [
    ["Type", "oneshot"],
    ["ExecStart", execStart(timer.exec)],
  ];
  for (const [name, value] of Object.entries(timer.env ?? {})) body.push(["Environment", quoteEnvironment(name, value)]);
  const service = formatUnitFile([
    { name: "Unit", directives: [["Description", escapeTextValue(timer.name)]] },
    { name: "Service", directives: body },
  ]);
  const unit = formatUnitFile([
    { name: "Unit", directives: [["Description", escapeTextValue(`${timer.name} timer`)]] },
    {
      name: "Timer",
      directives: [
        ["OnCalendar", toOnCalendar(parseSchedule(timer.schedule))],
        ["Persistent", "true"],
        ["AccuracySec", "1s"],
      ],
    },
    { name: "Install", directives: [["WantedBy", "timers.target"]] },
  ]);
  return { service, timer: unit };
}
