import type { ApplyContext, ReadContext } from "@tend/core/contract";
import { systemctl } from "./systemctl-command.js";

export const GRAPHICAL_TARGET = "graphical.target";
const STATE_KEY = "displayManager";

/** What tend keeps about the default target while display managers are declared. */
interface DisplayManagerRecord {
  /** The default target before tend set graphical.target; absent when it already was. */
  replaced?: string;
  /** The services (keys) declaring `displayManager` that rely on it. */
  by: string[];
}

/** The host's default target (`systemctl get-default`), undefined when none is set. */
export async function readDefaultTarget(ctx: ReadContext): Promise<string | undefined> {
  const result = await ctx.run.run(systemctl(ctx, ["get-default"], { okCodes: [0, 1] }));
  const target = result.stdout.trim();
  return result.exitCode === 0 && target ? target : undefined;
}

/**
 * While a display manager is declared the host boots to graphical.target (some distros default
 * to multi-user.target, which never starts one). The default it replaces is remembered so that
 * removing the last display manager puts it back.
 */
export async function holdGraphicalTarget(key: string, ctx: ApplyContext): Promise<void> {
  const record = ctx.state.get<DisplayManagerRecord>(STATE_KEY) ?? { by: [] };
  const current = await readDefaultTarget(ctx);
  if (current !== GRAPHICAL_TARGET) {
    if (record.replaced === undefined && current !== undefined) record.replaced = current;
    await ctx.run.run(systemctl(ctx, ["set-default", "--", GRAPHICAL_TARGET]));
    ctx.log(`${key}: default target set to ${GRAPHICAL_TARGET}${current ? ` (was ${current})` : ""}`);
  }
  if (!record.by.includes(key)) record.by.push(key);
  ctx.state.set(STATE_KEY, record);
}

/**
 * A display manager leaves: when it was the last, the replaced default comes back, unless
 * someone has changed the default since (then theirs stands).
 */
export async function releaseGraphicalTarget(key: string, ctx: ApplyContext): Promise<void> {
  const record = ctx.state.get<DisplayManagerRecord>(STATE_KEY);
  if (!record) return;
  record.by = record.by.filter((k) => k !== key);
  if (record.by.length > 0) {
    ctx.state.set(STATE_KEY, record);
    return;
  }
  ctx.state.set(STATE_KEY, undefined);
  if (record.replaced === undefined) return;
  const current = await readDefaultTarget(ctx);
  if (current !== GRAPHICAL_TARGET) return;
  await ctx.run.run(systemctl(ctx, ["set-default", "--", record.replaced]));
  ctx.log(`${key}: default target set back to ${record.replaced}`);
}
