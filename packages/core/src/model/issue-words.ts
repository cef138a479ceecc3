import type { z } from "zod";
import { closest } from "./closest-word.js";
import { RESOURCE_TYPES } from "./reference.js";

const KINDS: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  record: "a map (`NAME: value` lines)",
  object: "a map (`NAME: value` lines)",
};

/**
 * A field's mistake in the words an admin editing a spec needs, in place of zod's own ("Invalid
 * input: expected string, received number"): what to write instead. Undefined where the schema
 * has a message of its own (a File's mode, a name), which says more.
 */
export function issueWords(issue: z.core.$ZodIssue, value: unknown): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return issue.message.startsWith("Invalid input") ? typeWords(issue.expected, value) : undefined;
    case "invalid_value":
      return issue.message.startsWith("Invalid option") ? oneOf(issue.values, value) : undefined;
    case "too_small":
      if (!issue.message.startsWith("Too small")) return undefined;
      if (issue.origin === "string" && Number(issue.minimum) === 1) return "must not be empty";
      if (issue.origin === "number") return `must be at least ${String(issue.minimum)}, not ${String(value)}`;
      return undefined;
    case "too_big":
      if (!issue.message.startsWith("Too big")) return undefined;
      if (issue.origin === "number") return `must be at most ${String(issue.maximum)}, not ${String(value)}`;
      if (issue.origin === "string" && typeof value === "string") return `must be at most ${String(issue.maximum)} characters, not ${value.length}`;
      return undefined;
    default:
      return undefined;
  }
}

/**
 * What to write instead of a value of the wrong type, where the usual slip is a scalar left
 * unquoted: `PORT: 8080` where text is wanted, `enabled: yes` (text in YAML 1.2) where a boolean
 * is, one name where a list is (`after: db`), `settle: "2"` where a number is; or a field left out.
 */
function typeWords(expected: string, value: unknown): string {
  if (value === undefined) return "is missing";
  if (expected === "string" && (typeof value === "number" || typeof value === "boolean")) return `must be text; write it in quotes: \`"${String(value)}"\``;
  if (expected === "array" && typeof value === "string") return `must be a list; write \`[${value}]\``;
  if (expected === "boolean" && typeof value === "string") return `must be true or false, not the text \`${value}\`${/^(y|yes|n|no|on|off)$/i.test(value) ? " (YAML 1.2 reads yes, no, on and off as text)" : ""}`;
  if ((expected === "number" || expected === "int") && typeof value === "string" && /^\s*\d+(\.\d+)?\s*$/.test(value)) return `must be a number; write it without quotes: \`${value.trim()}\``;
  return `must be ${KINDS[expected] ?? expected}, not ${kindOf(value)}`;
}

/** A value outside a field's few (`restart: sometimes`): the values it takes, and the likely one meant. */
function oneOf(values: readonly unknown[], value: unknown): string {
  const words = values.map(String);
  const likely = typeof value === "string" ? closest(value, words) : undefined;
  return `must be one of ${words.join(", ")}, not ${kindOf(value)}${likely ? `; did you mean \`${likely}\`?` : ""}`;
}

/** What is wrong with a resource's `type`: missing (Kubernetes' `kind` written for it), a typo, or another value. */
export function typeProblem(record: Record<string, unknown>): string {
  const { type } = record;
  if (type === undefined) {
    const kind = typeof record.kind === "string" ? `; \`kind: ${record.kind}\` is written \`type: ${record.kind}\` here` : "";
    return `is missing: each resource says what it is, with \`type\`: service, timer, file or package${kind}`;
  }
  const likely = typeof type === "string" ? closest(type, RESOURCE_TYPES) : undefined;
  return `must be service, timer, file or package, not ${kindOf(type)}${likely ? `; did you mean \`${likely}\`?` : ""}`;
}

/** A value as a message names it: text in backticks, a list, a map, or the value itself. */
export function kindOf(value: unknown): string {
  if (typeof value === "string") return `\`${value}\``;
  if (Array.isArray(value)) return "a list";
  if (value === null) return "empty (null)";
  if (typeof value === "object") return "a map";
  return String(value);
}
