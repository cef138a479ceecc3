import type * as z from "zod";

/** The fields each part of the inventory takes, for "unknown field". */
const CONNECTION = ["host", "user", "port", "identity", "jump", "ssh"];
const FIELDS: Record<string, string[]> = {
  inventory: ["defaults", "hosts", "groups"],
  defaults: CONNECTION,
  host: [...CONNECTION, "groups", "facts"],
  group: ["hosts", "facts", ...CONNECTION],
};

const KIND_WORDS: Record<string, string> = {
  record: "a map",
  object: "a map",
  array: "a list",
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  null: "empty",
  undefined: "missing",
};

/**
 * What an inventory mistake zod found means, in the words an admin editing tend.hosts.yaml
 * needs: what to write instead, not the schema's types. `value` is what the file holds at the
 * issue's path; `part` is what the path is in ("host", "group", "defaults" or "inventory").
 */
export function inventoryIssueMessage(issue: z.core.$ZodIssue, value: unknown, part: string): string {
  const field = issue.path.at(-1);
  switch (issue.code) {
    case "unrecognized_keys": {
      const keys = (issue as { keys: string[] }).keys;
      const known = FIELDS[part];
      return `unknown field ${keys.join(", ")}${known ? `; ${part === "inventory" ? "the inventory" : `a ${part}`} takes ${known.join(", ")}` : ""}`;
    }
    case "invalid_key": {
      const key = String(field ?? "");
      const inner = (issue as { issues?: { message: string }[] }).issues?.[0]?.message ?? "";
      if (inner.includes("ssh_config")) return `\`${key}\` is not an ssh_config option name (letters and digits, such as ServerAliveInterval)`;
      return `\`${key}\` is not ${inner || "a valid name"}: names take letters, digits, \`_\`, \`.\` and \`-\`, and start with a letter or a digit`;
    }
    case "too_big":
    case "too_small":
      if (field === "port") return `must be a port number from 1 to 65535, not ${String(value)}`;
      if (typeof value === "string" && value === "") return "must not be empty";
      return issue.message;
    case "invalid_type":
      return typeMessage((issue as { expected: string }).expected, value, issue.path);
    default:
      return issue.message;
  }
}

function typeMessage(expected: string, value: unknown, path: readonly PropertyKey[]): string {
  if (path.length === 0) {
    if (value === null || value === undefined) return "is empty: it lists the hosts under `hosts:`, each by name (`web1: { host: 10.0.0.11 }`)";
    return "must be a map with `hosts:`, each host by name (`web1: { host: 10.0.0.11 }`)";
  }
  if (value === undefined) return path.length === 1 && path[0] === "hosts" ? "is missing: the inventory lists its hosts under `hosts:`, each by name (`web1: { host: 10.0.0.11 }`)" : "is missing";
  if (expected === "number" && typeof value === "string" && /^\d+$/.test(value.trim())) return `must be a number; write it without quotes: \`${value.trim()}\``;
  if (expected === "string" && (typeof value === "number" || typeof value === "boolean")) return `must be text; write it in quotes: \`"${String(value)}"\``;
  if (expected === "array" && typeof value === "string") return `must be a list; write \`[${value}]\``;
  if (expected === "int" && typeof value === "number") return `must be a whole number, not ${value}`;
  if (expected === "record" || expected === "object") {
    if (path.length === 1 && path[0] === "hosts") return `must be a map of host names to their settings (\`web1: { host: 10.0.0.11 }\`), not ${kindOf(value)}`;
    if (path.length === 2 && path[0] === "groups") return `must be a map of the group's settings (\`hosts: [web1]\`), not ${kindOf(value)}`;
    return `must be a map (\`name: value\`), not ${kindOf(value)}`;
  }
  return `must be ${KIND_WORDS[expected] ?? expected}, not ${kindOf(value)}`;
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "empty";
  if (typeof value === "object") return "a map";
  if (typeof value === "string") return `the text \`${value}\``;
  return String(value);
}
