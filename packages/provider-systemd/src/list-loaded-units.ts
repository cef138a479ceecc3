import type { ReadContext } from "@tend/core/contract";
import { parseListUnits, type LoadedUnit } from "./parse-list-units.js";
import { systemctl } from "./systemctl-command.js";

/** `systemctl list-units --all` of these names or patterns: every loaded unit they match, active or not. */
export async function listLoadedUnits(names: string[], ctx: ReadContext): Promise<Map<string, LoadedUnit>> {
  const result = await ctx.run.run(systemctl(ctx, ["list-units", "--all", "--output=json", "--", ...names]));
  return parseListUnits(result.stdout);
}
