import { MANAGED_HEADER } from "@tend/core/contract";

/** One `Key=value` line, the value already in unit-file syntax. */
export type Directive = readonly [key: string, value: string];

/** A `[Section]` of a unit file and its lines, in order. */
export interface UnitSection {
  name: "Unit" | "Service" | "Timer" | "Install";
  directives: Directive[];
}

const ORDER: UnitSection["name"][] = ["Unit", "Service", "Timer", "Install"];

/** The bytes of a unit file: the managed header, a blank line, then each non-empty section. */
export function formatUnitFile(sections: UnitSection[]): string {
  const blocks = [...sections]
    .filter((section) => section.directives.length > 0)
    .sort((a, b) => ORDER.indexOf(a.name) - ORDER.indexOf(b.name))
    .map((section) => [`[${section.name}]`, ...section.directives.map(([key, value]) => `${key}=${value}`)].join("\n"));
  return `${MANAGED_HEADER}\n\n${blocks.join("\n\n")}\n`;
}
