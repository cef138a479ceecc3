import { TendError, type TendErrors } from "../errors/tend-error.js";
import { PLAIN, type Paint } from "./paint.js";

/** An error as the CLI prints it: code, message, where, what to do. */
export function formatError(error: unknown, paint: Paint = PLAIN): string {
  // By shape, not instanceof: a provider may carry its own copy of @tend/core.
  if (TendError.isInstance(error) && Array.isArray((error as Partial<TendErrors>).errors)) {
    return sameErrorGroups((error as TendErrors).errors)
      .map((group) => formatError(group, paint))
      .join("");
  }
  if (!TendError.isInstance(error)) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return `${paint.red("error")} TEND_INTERNAL: ${message}\n  this is a bug in tend; please report it with the command you ran\n`;
  }
  const where = [
    error.location.file && `${error.location.file}${error.location.line ? `:${error.location.line}` : ""}`,
    error.location.resource,
    error.location.field && `field ${error.location.field}`,
    error.location.provider && `provider ${error.location.provider}`,
  ].filter(Boolean);
  const lines = [`${paint.red("error")} ${error.code}: ${error.message}`];
  if (where.length > 0) lines.push(`  at ${where.join(", ")}`);
  if (error.hint) lines.push(...error.hint.split("\n").map((line, i) => (i === 0 ? `  ${paint.cyan("hint")} ${line}` : `  ${line}`)));
  return `${lines.join("\n")}\n`;
}

/** How many resources a grouped error names before "and N more". */
const NAMED = 5;

/**
 * One error for each set of errors that differ only in their resource (a wave whose one command
 * failed fails every service in it with the same words): the first few resources named, then how
 * many more. `--json` keeps one diagnostic per resource; this is what a person reads.
 */
function sameErrorGroups(list: TendError[]): TendError[] {
  const groups = new Map<string, TendError[]>();
  for (const error of list) {
    const { resource: _resource, line: _line, ...rest } = error.location;
    const key = JSON.stringify([error.code, error.message, error.hint, rest, Array.isArray((error as Partial<TendErrors>).errors)]);
    const group = groups.get(key);
    if (group) group.push(error);
    else groups.set(key, [error]);
  }
  return [...groups.values()].flatMap((group) => {
    const named = group.map((e) => e.location.resource).filter((r): r is string => r !== undefined);
    if (named.length < 2) return group;
    const first = group[0]!;
    const more = named.length > NAMED ? ` and ${(named.length - NAMED).toLocaleString("en-US")} more` : "";
    const { line: _line, ...where } = first.location;
    return new TendError(first.code, first.message, {
      ...where,
      resource: `${named.slice(0, NAMED).join(", ")}${more}`,
      ...(first.hint ? { hint: first.hint } : {}),
    });
  });
}
