import { TendError, type TendErrors } from "../errors/tend-error.js";
import { PLAIN, type Paint } from "./paint.js";

/** An error as the CLI prints it: code, message, where, what to do. */
export function formatError(error: unknown, paint: Paint = PLAIN): string {
  // By shape, not instanceof: a provider may carry its own copy of @tend/core.
  if (TendError.isInstance(error) && Array.isArray((error as Partial<TendErrors>).errors)) {
    return (error as TendErrors).errors.map((e) => formatError(e, paint)).join("");
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
