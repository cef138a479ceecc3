import type { ResourceType } from "./resource-schema.js";

export const RESOURCE_TYPES = ["service", "timer", "file", "package"] as const;

/** A reference in its canonical display form, `service:web`. */
export type ResourceKey = `${ResourceType}:${string}`;

export interface ParsedReference {
  type: string;
  name: string;
}

const DISPLAY = /^([a-z][a-z0-9_-]*):(.+)$/;
const DATUM = /^([A-Z][A-Za-z0-9_-]*)\[(.+)\]$/;

/** Parses `service:web` or `Service[web]`; returns undefined for anything else. */
export function parseReference(text: string): ParsedReference | undefined {
  const display = DISPLAY.exec(text);
  if (display) return { type: display[1]!, name: display[2]! };
  const datum = DATUM.exec(text);
  if (datum) return { type: datum[1]!.toLowerCase(), name: datum[2]! };
  return undefined;
}

export function resourceKey(type: ResourceType, name: string): ResourceKey {
  return `${type}:${name}`;
}

/** Canonical `type:name` of a reference, or undefined when it is not a reference. */
export function canonicalReference(text: string): string | undefined {
  const parsed = parseReference(text);
  return parsed && `${parsed.type}:${parsed.name}`;
}
