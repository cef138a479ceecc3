import { errors } from "../errors/catalogue.js";
import { TendError } from "../errors/tend-error.js";
import { lineIn } from "./spec-site.js";

/**
 * What a spec module's own code threw, as the spec's error at its line, whatever was thrown: while
 * it loaded, while it built its list, or from a getter or a Proxy's trap that reading its resources
 * ran. `doing` says when: "could not be loaded".
 */
export function specThrew(error: unknown, file: string, doing: string): TendError {
  if (TendError.isInstance(error)) return error.at({ file });
  const line = lineIn(error, file);
  return errors.spec(`${file} ${doing}: ${describeThrown(error)}`, { file, ...(line ? { line } : {}), cause: error });
}

/** What a spec threw, in one line: an Error's message, or the thrown value itself (`throw "boom"`). */
function describeThrown(error: unknown): string {
  if (error instanceof Error) return error.message.split("\n")[0] ?? error.name;
  if (typeof error === "string") return error;
  try {
    return `it threw ${JSON.stringify(error) ?? String(error)}`;
  } catch {
    try {
      return `it threw ${String(error)}`;
    } catch {
      return "it threw a value that has no text";
    }
  }
}
