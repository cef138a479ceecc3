import type { ReadContext } from "@tend/core/contract";
import { LAUNCHCTL_EXIT } from "./launchctl-exit.js";
import { parseDomainPrint, type DomainJob } from "./parse-domain-print.js";
import { parsePrintDisabled } from "./parse-print-disabled.js";

/** What one `launchctl print <domain>` says about every job in it. */
export interface DomainView {
  /** False when launchd has no such domain (a user without a GUI session). */
  present: boolean;
  /** The loaded jobs by label; undefined when the answer has no `services` block this reader understands. */
  loaded?: Map<string, DomainJob>;
  /** Boot overrides, label to "is disabled"; undefined when unknown. */
  overrides?: Map<string, boolean>;
  /** Why part of the answer is unknown, for `tend observe`. */
  note?: string;
}

/**
 * Reads a whole domain with one `launchctl print system` (or `gui/<uid>`): which jobs are
 * loaded, with their pids and last exit statuses, and its `disabled services` block, the boot
 * overrides. Only when that block is missing and `overrides` are wanted is `launchctl
 * print-disabled` asked as well; when it cannot be read either, the overrides stay unknown. A
 * missing domain (112, or 113) is reported as absent; any other failure throws.
 */
export async function readDomain(domain: string, ctx: ReadContext, options: { overrides?: boolean } = {}): Promise<DomainView> {
  const okCodes = [0, LAUNCHCTL_EXIT.noDomain, LAUNCHCTL_EXIT.noService];
  const printed = await ctx.run.run({ argv: ["launchctl", "print", domain], okCodes });
  if (printed.exitCode !== 0) return { present: false, note: `${domain} does not exist (no GUI session); its jobs load at login` };
  const view: DomainView = { present: true };
  const unread: string[] = [];
  const loaded = parseDomainPrint(printed.stdout);
  if (loaded) view.loaded = loaded;
  else unread.push(`\`launchctl print ${domain}\``);
  let overrides = parsePrintDisabled(printed.stdout);
  if (!overrides && options.overrides) {
    const disabled = await ctx.run.run({ argv: ["launchctl", "print-disabled", domain], okCodes: "any" });
    overrides = disabled.exitCode === 0 ? parsePrintDisabled(disabled.stdout) : undefined;
    if (!overrides) unread.push(`\`launchctl print-disabled ${domain}\`${disabled.exitCode === 0 ? "" : ` (exit ${disabled.exitCode}: ${disabled.stderr.trim()})`}`);
  }
  if (overrides) view.overrides = overrides;
  if (unread.length > 0) view.note = `could not read ${unread.join(" or ")}`;
  return view;
}
