import { statSync } from "node:fs";
import { TendError, type TendErrors } from "../errors/tend-error.js";
import { inputFileProblem } from "../files/input-file.js";
import { readSpecText } from "./spec-text.js";

/**
 * Gives the line in a YAML spec to errors raised after the spec was built (an init that cannot
 * express a field, two resources rendering one path), which name the spec's file, a resource
 * and maybe a field, but not where: the session keeps no YAML, and a cached spec was never
 * parsed. Only when there is such an error is the file read and parsed again; an error that
 * cannot be placed (a spec changed meanwhile, a resource a tend.config.ts builds) keeps none.
 */
export async function addSpecLines(error: unknown): Promise<void> {
  const all = (TendError.isInstance(error) && Array.isArray((error as Partial<TendErrors>).errors) ? (error as TendErrors).errors : [error]).filter(
    (e): e is TendError => TendError.isInstance(e) && e.location.line === undefined && e.location.resource !== undefined && /\.ya?ml$/i.test(e.location.file ?? ""),
  );
  const files = new Set(all.map((e) => e.location.file!));
  for (const file of files) {
    const placed = await placesIn(file);
    if (placed === undefined) continue;
    for (const e of all) {
      if (e.location.file !== file) continue;
      const index = placed.indexOf.get(e.location.resource!);
      if (index === undefined) continue;
      const line = placed.locate(index, e.location.field ? e.location.field.split(".") : []).line;
      if (line !== undefined) e.at({ line });
    }
  }
}

interface Places {
  indexOf: Map<string, number>;
  locate: (index: number, path: (string | number)[]) => { line?: number };
}

/**
 * The spec last parsed, kept so that it is parsed once however many errors ask (`render` reports
 * each resource's own), and again when the file is another or has changed.
 */
let last: { key: string; places: Promise<Places | undefined> } | undefined;

function placesIn(file: string): Promise<Places | undefined> {
  const stat = statSync(file, { throwIfNoEntry: false });
  const key = `${file}\0${stat ? `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}` : ""}`;
  if (last?.key !== key) last = { key, places: readPlaces(file) };
  return last.places;
}

async function readPlaces(file: string): Promise<Places | undefined> {
  // Trusted, or refused, when the spec was opened: only its lines are read here.
  if (inputFileProblem(file, "spec", "anyone")) return undefined;
  try {
    const { parseYamlSpec } = await import("./load-yaml-spec.js");
    const raw = await parseYamlSpec(file, await readSpecText(file));
    const indexOf = new Map<string, number>();
    raw.resources.forEach((resource, index) => {
      const { type, name } = (resource ?? {}) as { type?: unknown; name?: unknown };
      if (typeof type === "string" && typeof name === "string") indexOf.set(`${type}:${name}`, index);
    });
    return { indexOf, locate: raw.locate };
  } catch {
    return undefined;
  }
}
