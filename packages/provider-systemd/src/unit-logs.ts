import type { ReadContext, Resource } from "@tend/core/contract";
import { processUnit } from "./unit-name.js";

const LINES = 20;

/**
 * The last journal lines of the unit that runs a resource's process (a timer's `.service`). A
 * user unit's lines are matched by field, both its own output (`_SYSTEMD_USER_UNIT`) and its
 * manager's messages about it (`USER_UNIT`), each with the user's uid: `--user-unit` would add
 * the uid of whoever runs journalctl, which is wrong when root reads alice's journal.
 */
export async function unitLogs(resource: Resource, ctx: ReadContext): Promise<string[]> {
  if (resource.type === "file" || resource.type === "package") return [];
  const unit = processUnit(resource);
  const matches =
    ctx.scope.kind === "user"
      ? [`_SYSTEMD_USER_UNIT=${unit}`, `_UID=${ctx.scope.uid}`, "+", `USER_UNIT=${unit}`, `_UID=${ctx.scope.uid}`]
      : ["-u", unit];
  const result = await ctx.run.run({ argv: ["journalctl", "-q", "--no-pager", "-n", String(LINES), ...matches], okCodes: "any", timeoutMs: 15_000 });
  return result.stdout.split("\n").filter((line) => line.trim() !== "");
}
