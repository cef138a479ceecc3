import type { Service } from "@tend/core/contract";
import type { Directive, UnitSection } from "./unit-file.js";

type Hatch = NonNullable<Service["systemd"]>;
type Scalar = string | number | boolean;

const SECTION_KEYS: Record<string, UnitSection["name"]> = { unit: "Unit", service: "Service", install: "Install" };

/**
 * Applies the `systemd = {...}` escape hatch (seed: "Escape hatches"): a top-level key is a
 * `[Service]` directive; `unit`, `service` and `install` hold directives for those sections. A
 * directive set here replaces every generated line with the same name, in the place of the
 * first; one not generated is added at the end of its section. A list repeats the directive (an
 * empty list removes it), booleans become `yes`/`no`, numbers are written as they are.
 *
 * Values are systemd syntax, written verbatim: the hatch is where a spec speaks systemd's own
 * language (`MemoryMax=50%`, `%n`), so nothing is escaped; `check` refuses a value that would
 * run into the next line.
 */
export function mergeEscapeHatch(sections: UnitSection[], hatch: Hatch | undefined): UnitSection[] {
  const merged = sections.map((section) => ({ ...section, directives: [...section.directives] }));
  for (const [section, key, value] of hatchDirectives(hatch)) {
    let target = merged.find((s) => s.name === section);
    if (!target) {
      target = { name: section, directives: [] };
      merged.push(target);
    }
    target.directives = setDirective(target.directives, key, hatchValues(value));
  }
  return merged;
}

/** Every directive the hatch sets, as [section, key, value], in the order written. */
export function hatchDirectives(hatch: Hatch | undefined): [UnitSection["name"], string, Scalar | Scalar[]][] {
  const found: [UnitSection["name"], string, Scalar | Scalar[]][] = [];
  for (const [key, value] of Object.entries(hatch ?? {})) {
    const section = SECTION_KEYS[key];
    if (section && typeof value === "object" && !Array.isArray(value)) {
      for (const [inner, innerValue] of Object.entries(value)) found.push([section, inner, innerValue]);
    } else {
      found.push(["Service", key, value as Scalar | Scalar[]]);
    }
  }
  return found;
}

/** A hatch value as the unit-file values it becomes. */
export function hatchValues(value: Scalar | Scalar[]): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => (typeof item === "boolean" ? (item ? "yes" : "no") : String(item)));
}

function setDirective(directives: Directive[], key: string, values: string[]): Directive[] {
  const lines = values.map((value): Directive => [key, value]);
  const first = directives.findIndex(([name]) => name === key);
  if (first < 0) return [...directives, ...lines];
  return directives.flatMap((directive, index) => (index === first ? lines : directive[0] === key ? [] : [directive]));
}
