import { CORE_CODE_DIR } from "../core-package.js";

/** Where a resource was declared in a spec module, kept on the object built by `service()` & co. */
export const SPEC_SITE = Symbol.for("tend.spec-site");

export interface SpecSite {
  file: string;
  line: number;
}

/** Marks a resource with the file and line of the builder call that made it (the first frame outside core). */
export function markSite<T extends object>(resource: T): T {
  const own = `${CORE_CODE_DIR}/`;
  for (const frame of (new Error().stack ?? "").split("\n").slice(2)) {
    const match = /\(?((?:file:\/\/)?\/[^():]+):(\d+):\d+\)?$/.exec(frame.trim());
    if (!match) continue;
    const file = match[1]!.replace(/^file:\/\//, "");
    if (file.startsWith(own)) continue;
    Object.defineProperty(resource, SPEC_SITE, { value: { file, line: Number(match[2]) } satisfies SpecSite, enumerable: false });
    break;
  }
  return resource;
}

/** The site a resource was marked with, if any. */
export function siteOf(value: unknown): SpecSite | undefined {
  return typeof value === "object" && value !== null ? ((value as Record<symbol, SpecSite | undefined>)[SPEC_SITE] ?? undefined) : undefined;
}

/** The line of `file` an error points at (its stack, or a parser's `file:line:column` message). */
export function lineIn(error: unknown, file: string): number | undefined {
  let text: string;
  try {
    text = error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error);
  } catch {
    return undefined; // a thrown object without a text (no prototype, a throwing toString)
  }
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`${escaped}:(\\d+)(?::\\d+)?`).exec(text);
  return match ? Number(match[1]) : undefined;
}
