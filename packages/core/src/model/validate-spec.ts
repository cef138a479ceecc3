import type { z } from "zod";
import { errors } from "../errors/catalogue.js";
import { TendError, TendErrors } from "../errors/tend-error.js";
import { NAME_PATTERN } from "./text-rules.js";
import { FileSchema, PackageSchema, ResourceSchema, ServiceSchema, TimerSchema, type Resource } from "./resource-schema.js";
import { closest } from "./closest-word.js";
import { issueWords, kindOf, typeProblem } from "./issue-words.js";
import { crossCheck, type Locate, type ValidateOptions } from "./cross-check.js";
import { dependenciesOf } from "./dependencies-of.js";
import { protoKeyPath } from "./proto-key.js";

/** Kept here too for the modules and tests that import it from validation. */
export { dependenciesOf };

export type { Locate, ValidateOptions };

/**
 * Validates a spec's raw resources into the model: every field of every resource, then the rules
 * between resources (duplicates, references, cycles), in one pass that collects every problem it
 * can find and throws them together; a resource whose fields are wrong still counts as declared
 * when another refers to it.
 */
export function validateSpec(raw: readonly unknown[], locate: Locate = () => ({}), options: ValidateOptions = {}): Resource[] {
  const found: TendError[] = [];
  const resources: (Resource | undefined)[] = raw.map((item, index) => {
    const proto = protoKeyPath(item);
    if (proto) {
      const [ref, field] = [displayRef(item, index), proto.join(".")];
      found.push(errors.invalidField(ref, field, "is a key tend refuses: `__proto__` cannot be held as data, so it would be dropped without a word", { ...locate(index, proto), resource: ref, field }));
      return undefined;
    }
    const parsed = ResourceSchema.safeParse(item);
    if (parsed.success) return parsed.data;
    found.push(...parsed.error.issues.slice(0, 5).map((issue) => issueToError(item, index, issue, locate)));
    return undefined;
  });
  const valid = resources.filter((r): r is Resource => r !== undefined);
  const declared = new Set<string>();
  for (const item of raw) {
    const record = (item ?? {}) as Record<string, unknown>;
    if (typeof record.type === "string" && typeof record.name === "string") declared.add(`${record.type}:${record.name}`);
  }
  found.push(...crossCheck(resources, locate, options, declared, found.length === 0));
  if (found.length > 0) throw found.length === 1 ? found[0]! : new TendErrors(found);
  return valid;
}

/**
 * One resource's fields against its schema, alone: the resource, or undefined when they are
 * wrong (validateSpec says how). The rules between resources are crossCheck's.
 */
export function validateResource(raw: unknown): Resource | undefined {
  if (protoKeyPath(raw)) return undefined;
  const parsed = ResourceSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

function displayRef(item: unknown, index: number): string {
  const record = (item ?? {}) as Record<string, unknown>;
  const type = typeof record.type === "string" ? record.type : "resource";
  return typeof record.name === "string" && record.name ? `${type}:${record.name}` : `${type} #${index + 1}`;
}

function issueToError(item: unknown, index: number, issue: z.core.$ZodIssue, locate: Locate): TendError {
  const record = (item ?? {}) as Record<string, unknown>;
  const ref = displayRef(item, index);
  const field = issue.path.map(String).join(".");
  const location = { ...locate(index, issue.path as (string | number)[]), resource: ref, field: field || undefined };
  if (issue.path[0] === "name" && typeof record.name === "string" && (record.type === "service" || record.type === "timer" || record.type === "file")) {
    if (!NAME_PATTERN.test(record.name)) return errors.badName(record.type, record.name, location);
  }
  if (issue.code === "invalid_union" && issue.path.length <= 1 && (issue.path.length === 0 || issue.path[0] === "type")) {
    return errors.invalidField(ref, "type", typeProblem(record), { ...location, field: "type" });
  }
  if (issue.code === "unrecognized_keys") {
    const keys = (issue as { keys: string[] }).keys;
    const likely = issue.path.length === 0 ? closest(keys[0]!, fieldsOf(record.type)) : undefined;
    return errors.invalidField(ref, [...issue.path, keys[0]].join("."), `is not a field of ${record.type ?? "this resource"}${likely ? `; did you mean \`${likely}\`?` : ""}`, {
      ...locate(index, [...(issue.path as (string | number)[]), keys[0]!]),
      resource: ref,
      field: [...issue.path, keys[0]].join("."),
    });
  }
  const value = issue.path.reduce<unknown>((at, key) => (at !== null && typeof at === "object" ? (at as Record<PropertyKey, unknown>)[key] : undefined), record);
  if (issue.path.length === 1 && issue.path[0] === "desired" && issue.code === "invalid_type" && value !== undefined) {
    return errors.invalidField(ref, "desired", `must be \`{state: running, enabled: true}\` (state running or stopped, enabled true or false), not ${kindOf(value)}`, location);
  }
  if (issue.path[0] === "desired" && issue.path.length === 2 && issue.code === "invalid_type" && value === undefined) {
    return errors.invalidField(ref, "desired", "needs both `state` (running or stopped) and `enabled` (true or false); neither has a default", location);
  }
  if (issue.path.length === 0 && issue.code === "invalid_type") {
    return errors.spec(`${ref} is not a resource: each is a map of its fields (\`type: service\`, \`name: web\`, …), not ${kindOf(item)}`, { ...location, field: undefined });
  }
  // Only in place of zod's own words: a schema's message of its own (a File's mode) says more.
  const words = issueWords(issue, value);
  if (words) return errors.invalidField(ref, field, words, location);
  const message = issue.code === "invalid_key" ? ((issue as { issues?: { message: string }[] }).issues?.[0]?.message ?? issue.message) : issue.message;
  return errors.invalidField(ref, field || "type", message, location);
}

/** The fields a resource type takes (for "did you mean"). */
function fieldsOf(type: unknown): string[] {
  const schemas: Record<string, { shape: object }> = { service: ServiceSchema, timer: TimerSchema, file: FileSchema, package: PackageSchema };
  const schema = typeof type === "string" ? schemas[type] : undefined;
  return schema ? Object.keys(schema.shape) : [];
}
