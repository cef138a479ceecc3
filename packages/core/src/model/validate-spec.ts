import type { z } from "zod";
import { errors } from "../errors/catalogue.js";
import { TendError, TendErrors, type ErrorLocation } from "../errors/tend-error.js";
import { canonicalReference, parseReference } from "./reference.js";
import { NAME_PATTERN } from "./text-rules.js";
import { FileSchema, PackageSchema, ResourceSchema, ServiceSchema, TimerSchema, type Resource, type Service } from "./resource-schema.js";
import { closest } from "./closest-word.js";
import { findCycle } from "./find-cycle.js";
import { isServiceAfter } from "./after-entries.js";
import { dependenciesOf, refsOf } from "./dependencies-of.js";

/** Kept here too for the modules and tests that import it from validation. */
export { dependenciesOf };
import { parseSchedule } from "../schedule/parse-schedule.js";

/** Where resource `index`'s `path` was written: the spec loader knows files and YAML lines. */
export type Locate = (index: number, path: (string | number)[]) => ErrorLocation;

const DISTRO_UNIT_REFUSES = ["restart", "after", "env", "description", "systemd", "launchd", "reloadSignal"] as const;

export interface ValidateOptions {
  /** Folders that are tend's own (its state, journal, backups and lock): no `file` may be written there. */
  reserved?: string[];
}

/**
 * Validates a spec's raw resources into the model: every field of every resource, then the rules
 * between resources (duplicates, references, cycles), in one pass that collects every problem it
 * can find and throws them together; a resource whose fields are wrong still counts as declared
 * when another refers to it.
 */
export function validateSpec(raw: readonly unknown[], locate: Locate = () => ({}), options: ValidateOptions = {}): Resource[] {
  const found: TendError[] = [];
  const resources: (Resource | undefined)[] = raw.map((item, index) => {
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
  if (issue.path.length === 0 && issue.code === "invalid_union") {
    return errors.invalidField(ref, "type", "must be service, timer, file or package", { ...location, field: "type" });
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
  if (issue.path[0] === "desired" && issue.path.length === 2 && issue.code === "invalid_type") {
    return errors.invalidField(ref, "desired", "needs both `state` (running or stopped) and `enabled` (true or false); neither has a default", location);
  }
  const message = issue.code === "invalid_key" ? ((issue as { issues?: { message: string }[] }).issues?.[0]?.message ?? issue.message) : issue.message;
  return errors.invalidField(ref, field || "type", message, location);
}

function crossCheck(resources: (Resource | undefined)[], locate: Locate, options: ValidateOptions, declared: Set<string>, lookForCycles: boolean): TendError[] {
  const found: TendError[] = [];
  const keys = new Map<string, number>();
  const folded = new Map<string, string>();
  const paths = new Map<string, string>();
  resources.forEach((resource, index) => {
    if (!resource) return;
    const key = `${resource.type}:${resource.name}`;
    const at = (path: (string | number)[]) => ({ ...locate(index, path), resource: key });
    if (keys.has(key)) found.push(errors.duplicate(key, "is declared twice", { ...at(["name"]), field: "name" }));
    keys.set(key, index);
    // Services and timers share the init's unit names; files and packages have names of their own.
    const namespace = resource.type === "service" || resource.type === "timer" ? "unit" : resource.type;
    const fold = `${namespace}:${resource.name.normalize("NFC").toLowerCase()}`;
    const other = folded.get(fold);
    if (other && other !== key) {
      const what = other.split(":")[0] !== resource.type ? `has the same name as ${other}; both would write tend-${resource.name}.service` : `differs from ${other} only in case`;
      found.push(errors.duplicate(key, what, { ...at(["name"]), field: "name" }));
    }
    folded.set(fold, key);
    if (resource.type === "file") {
      const owner = paths.get(resource.path);
      if (owner) found.push(errors.duplicate(key, `writes ${resource.path}, as ${owner} does`, { ...at(["path"]), field: "path" }));
      paths.set(resource.path, key);
      const own = options.reserved?.find((dir) => resource.path === dir || resource.path.startsWith(`${dir}/`));
      if (own) found.push(errors.invalidField(key, "path", `${resource.path} is inside ${own}, which holds tend's own state, journal, backups or lock`, { ...at(["path"]), field: "path" }));
    }
  });
  found.push(...unitNameClashes(resources, locate));
  resources.forEach((resource, index) => {
    if (!resource) return;
    const key = `${resource.type}:${resource.name}`;
    const at = (path: (string | number)[], field: string) => ({ ...locate(index, path), resource: key, field });
    for (const field of ["requires", "restartOn", "reloadOn"] as const) {
      refsOf(resource, field).forEach((ref, i) => {
        const parsed = parseReference(ref)!;
        const canonical = `${parsed.type}:${parsed.name}`;
        if (!keys.has(canonical) && !declared.has(canonical)) found.push(errors.unknownReference(key, field, ref, at([field, i], field)));
        if (canonical === key) found.push(errors.invalidField(key, field, "lists the resource itself", at([field, i], field)));
      });
    }
    if (resource.type === "package" && resource.version !== undefined && resource.state !== undefined && resource.state !== "present") {
      const why = resource.state === "latest" ? "pins one version, and state latest follows the newest the package lists offer; keep one of the two" : "is set, and state absent installs no version; drop it";
      found.push(errors.invalidField(key, "version", why, at(["version"], "version")));
    }
    if (resource.type === "timer") {
      try {
        parseSchedule(resource.schedule);
      } catch (error) {
        if (!TendError.isInstance(error)) throw error;
        found.push(error.at(at(["schedule"], "schedule")));
      }
    }
    if (resource.type !== "service") return;
    const restart = new Set(refsOf(resource, "restartOn").map((r) => canonicalReference(r)));
    refsOf(resource, "reloadOn").forEach((ref, i) => {
      if (restart.has(canonicalReference(ref))) found.push(errors.restartAndReload(key, ref, at(["reloadOn", i], "reloadOn")));
    });
    (resource.after ?? []).forEach((entry, i) => {
      if (!isServiceAfter(entry)) return;
      const index = keys.get(`service:${entry}`);
      const target = index === undefined ? undefined : resources[index];
      if (!target) {
        if (!declared.has(`service:${entry}`)) found.push(errors.unknownReference(key, "after", entry, at(["after", i], "after")));
      }
      else if (target.type === "service" && Boolean(target.user) !== Boolean(resource.user)) {
        const [mine, theirs] = resource.user ? ["a user service", "a system service"] : ["a system service", "a user service"];
        found.push(
          errors.invalidField(
            key,
            "after",
            `names service:${entry}, ${theirs}, and ${key} is ${mine}; no init orders services across scopes (a user's manager cannot wait for the system's, nor the other way)`,
            at(["after", i], "after"),
          ),
        );
      } else if (target.type === "service" && target.exec === undefined) {
        found.push(errors.invalidField(key, "after", `names service:${entry}, a unit the distro ships; \`after\` takes tend services with an exec, "network" or a systemd *.target`, at(["after", i], "after")));
      }
    });
    if (resource.exec === undefined) found.push(...distroUnitErrors(resource, key, (path, field) => at(path, field)));
  });
  if (found.length === 0 && lookForCycles) {
    const graph = new Map<string, string[]>();
    for (const resource of resources) if (resource) graph.set(`${resource.type}:${resource.name}`, dependenciesOf(resource));
    const cycle = findCycle(graph);
    if (cycle) found.push(errors.cycle(cycle, locate(keys.get(cycle[0]!) ?? 0, ["name"])));
  }
  return found;
}

function distroUnitErrors(service: Service, key: string, at: (path: (string | number)[], field: string) => ErrorLocation): TendError[] {
  return DISTRO_UNIT_REFUSES.filter((field) => service[field] !== undefined).map((field) => errors.distroUnitField(key, field, at([field], field)));
}

/**
 * A distro unit named like one tend renders (`tend-web` beside a service or timer `web`) is
 * the same unit twice: each apply would rewrite or remove what the other just did.
 */
function unitNameClashes(resources: (Resource | undefined)[], locate: Locate): TendError[] {
  const rendered = new Map<string, string>();
  for (const resource of resources) {
    if (!resource || resource.type === "file" || resource.type === "package" || (resource.type === "service" && resource.exec === undefined)) continue;
    const base = `tend-${resource.name}`.toLowerCase();
    const key = `${resource.type}:${resource.name}`;
    for (const unit of resource.type === "timer" ? [base, `${base}.timer`, `${base}.service`] : [base, `${base}.service`]) rendered.set(unit, key);
  }
  const found: TendError[] = [];
  resources.forEach((resource, index) => {
    if (!resource || resource.type !== "service" || resource.exec !== undefined) return;
    const owner = rendered.get(resource.name.toLowerCase());
    if (!owner) return;
    const key = `service:${resource.name}`;
    found.push(errors.duplicate(key, `names the unit ${resource.name}, which tend renders for ${owner}`, { ...locate(index, ["name"]), resource: key, field: "name" }));
  });
  return found;
}

/** The fields a resource type takes (for "did you mean"). */
function fieldsOf(type: unknown): string[] {
  const schemas: Record<string, { shape: object }> = { service: ServiceSchema, timer: TimerSchema, file: FileSchema, package: PackageSchema };
  const schema = typeof type === "string" ? schemas[type] : undefined;
  return schema ? Object.keys(schema.shape) : [];
}
