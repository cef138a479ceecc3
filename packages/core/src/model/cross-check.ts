import { errors } from "../errors/catalogue.js";
import { foldersAbove } from "../files/host-path.js";
import { TendError, type ErrorLocation } from "../errors/tend-error.js";
import { parseSchedule } from "../schedule/parse-schedule.js";
import { isServiceAfter } from "./after-entries.js";
import { dependenciesOf, refsOf } from "./dependencies-of.js";
import { findCycle } from "./find-cycle.js";
import { canonicalReference, parseReference } from "./reference.js";
import type { Resource, Service } from "./resource-schema.js";
import { scopeReferenceErrors } from "./scope-references.js";

/** Where resource `index`'s `path` was written: the spec loader knows files and YAML lines. */
export type Locate = (index: number, path: (string | number)[]) => ErrorLocation;

export interface ValidateOptions {
  /** Folders that are tend's own (its state, journal, backups and lock): no `file` may be written there. */
  reserved?: string[];
}

const DISTRO_UNIT_REFUSES = ["restart", "after", "env", "description", "systemd", "launchd", "reloadSignal"] as const;

/**
 * The rules between resources, and those of one resource that its schema cannot state (a timer's
 * schedule, a distro unit's fields): duplicates and case clashes, files in tend's own folders,
 * references, `after`, cycles. No zod: a spec whose resources were each validated before (see
 * load-spec's documents) is checked as a whole without loading the schemas.
 */
export function crossCheck(resources: (Resource | undefined)[], locate: Locate, options: ValidateOptions, declared: Set<string>, lookForCycles: boolean): TendError[] {
  const found: TendError[] = [];
  const keys = new Map<string, number>();
  const folded = new Map<string, string>();
  const paths = new Map<string, { key: string; path: string; index: number }>();
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
      // Folded as names are: two spellings of one path in Unicode (NFC, NFD), or in case only, are
      // one file on a case-insensitive file system such as APFS, and two that look alike elsewhere.
      const foldedPath = resource.path.normalize("NFC").toLowerCase();
      const owner = paths.get(foldedPath);
      if (owner) {
        const same = owner.path === resource.path;
        const what = same ? `writes ${resource.path}, as ${owner.key} does` : `writes ${resource.path}, which differs from ${owner.key}'s ${owner.path} only in ${owner.path.normalize("NFC") === resource.path.normalize("NFC") ? "its Unicode form (NFC, NFD)" : "case"}`;
        found.push(errors.duplicate(key, what, { ...at(["path"]), field: "path" }));
      }
      paths.set(foldedPath, { key, path: resource.path, index });
      const own = options.reserved?.find((dir) => resource.path === dir || resource.path.startsWith(`${dir}/`));
      if (own) found.push(errors.invalidField(key, "path", `${resource.path} is inside ${own}, which holds tend's own state, journal, backups or lock`, { ...at(["path"]), field: "path" }));
    }
  });
  found.push(...folderClashes(paths, locate));
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
        const target = keys.has(canonical) ? resources[keys.get(canonical)!] : undefined;
        if (field === "requires" && target?.type === "package" && target.state === "absent") {
          found.push(errors.invalidField(key, field, `names ${canonical}, which the spec removes (state absent): ${key} would be applied after its removal, without it`, at([field, i], field)));
        }
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
      } else if (target.type === "service" && target.desired?.state === "stopped" && resource.desired?.state !== "stopped") {
        found.push(
          errors.invalidField(
            key,
            "after",
            `names service:${entry}, which the spec keeps stopped, while ${key} is to run: \`after\` is what must start first, and it never does (runit and s6-rc would never start ${key}, dinit would start service:${entry} against its desired state)`,
            at(["after", i], "after"),
          ),
        );
      }
    });
    if (resource.exec === undefined) found.push(...distroUnitErrors(resource, key, (path, field) => at(path, field)));
  });
  found.push(...scopeReferenceErrors(resources, locate));
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

/**
 * Files one of which would be the folder of another (`/etc/app` and `/etc/app/app.conf`): a path
 * cannot be both, and whichever an apply wrote first, the other would fail on the host. Named at
 * the file whose path is the folder, once, with the first file written inside it.
 */
function folderClashes(paths: Map<string, { key: string; path: string; index: number }>, locate: Locate): TendError[] {
  const found: TendError[] = [];
  const named = new Set<string>();
  for (const [folded, inner] of paths) {
    for (const folder of foldersAbove(folded)) {
      const outer = paths.get(folder);
      if (!outer || named.has(outer.key)) continue;
      named.add(outer.key);
      found.push(
        errors.invalidField(outer.key, "path", `${outer.path} is the folder that ${inner.key}'s ${inner.path} is written in; one path cannot be both a file and a folder`, {
          ...locate(outer.index, ["path"]),
          resource: outer.key,
          field: "path",
        }),
      );
    }
  }
  return found;
}
