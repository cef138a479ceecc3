import { resolve } from "node:path";
import { cacheKey, type ContentCache } from "../cache/content-cache.js";
import type { HostFacts } from "../contract/host.js";
import { CORE_BUILD } from "../core-package.js";
import { errors } from "../errors/catalogue.js";
import { isNormalHostPath } from "../files/host-path.js";
import { lookupUser } from "../host/passwd.js";
import { inputFileProblem } from "../files/input-file.js";
import { crossCheck } from "../model/cross-check.js";
import type { Resource } from "../model/resource-schema.js";
import { contentHash } from "../plan/content-hash.js";
import { exactJson } from "./exact-json.js";
import { openModuleSpec, type OpenedRawSpec } from "./load-module-spec.js";
import type { RawSpec } from "./load-yaml-spec.js";
import { readSpecText } from "./spec-text.js";
import { readStdinSpec, STDIN_LABEL, STDIN_SPEC } from "./stdin-spec.js";
import { specThrew } from "./spec-threw.js";
import { splitYamlDocuments } from "./yaml-documents.js";

export interface Spec {
  file: string;
  resources: Resource[];
  /** Provider packages the spec names explicitly. */
  providers: string[];
}

/** A spec file opened: the providers it lists (known before the host is), and its resources for a host. */
export interface OpenedSpec {
  file: string;
  providers: string[];
  build(host: HostFacts): Promise<Spec>;
}

export interface OpenSpecOptions {
  /**
   * Where a YAML spec's validated resources are kept between runs (the CLI passes the user's
   * cache): the same text, validated by the same tend for the same tend folders, is neither
   * parsed nor validated again; a config module's transpiled code is kept there too.
   */
  cache?: ContentCache;
  /**
   * `--user NAME`: the user whose services a YAML spec declares. Root may take such a spec from
   * a file that user can change, as it does only what they could do themselves; never a module,
   * whose code runs as root.
   */
  scopeUser?: string;
}

/** A YAML spec as the cache keeps it: validated resources, and the tend folders they were checked against. */
interface ValidatedYaml {
  reserved: string[];
  resources: Resource[];
}

/**
 * A YAML spec's documents as last validated, by file: each document's text hash and its resource
 * (null for a document without one), each valid alone. A spec edited since is validated again
 * only in the documents that changed (see parseDocuments).
 */
interface ValidatedDocuments {
  documents: { hash: string; resource: Resource | null }[];
}

/** The endings of a spec that is a module (tend.config.ts and its kin), not YAML. */
const MODULE_SPEC = /\.(?:[cm]?ts|[cm]?js|json)$/i;

/** Opens a spec file (YAML, or a config module, imported once). */
export async function openSpec(path: string, options: OpenSpecOptions = {}): Promise<OpenedSpec> {
  const stdin = path === STDIN_SPEC;
  const file = stdin ? STDIN_LABEL : path;
  const yaml = stdin || /\.ya?ml$/i.test(file);
  const scopeUid = yaml && options.scopeUser !== undefined ? lookupUser(options.scopeUser)?.uid : undefined;
  const problem = stdin ? undefined : inputFileProblem(file, "spec", scopeUid === undefined ? [] : [scopeUid]);
  if (problem) throw errors.spec(problem.message, { file, hint: problem.hint });
  if (!yaml && !MODULE_SPEC.test(file)) {
    throw errors.spec(`${file} is neither a YAML spec (.yaml, .yml) nor a module (.ts, .mts, .cts, .js, .mjs, .cjs, .json): tend tells them apart by the name's ending`, {
      file,
      hint: `Rename it to what it holds, or pipe a YAML spec in: tend plan -f - < ${file}`,
    });
  }
  if (!yaml) return openedFrom(file, await openModuleSpec(file, options.cache), options.cache);
  const text = stdin ? readStdinSpec() : await readSpecText(file);
  const { cache } = options;
  const key = cache ? cacheKey("yaml-spec", CORE_BUILD, text) : "";
  const cached = cache?.read<ValidatedYaml>("specs", key);
  // Parsed here, not at build, so a broken file is reported before anything about the host.
  const parsed = cached ? undefined : await parseDocuments(file, text, cache);
  return {
    file,
    providers: [],
    async build(host) {
      const reserved = reservedFolders(host);
      if (cached && sameList(cached.reserved, reserved)) return { file, resources: cached.resources, providers: [] };
      // The whole text's own errors, with its lines, when anything is wrong.
      const resources = (parsed?.documents && acrossDocuments(parsed.documents, reserved)) ?? (await validate(parsed?.raw ?? (await parseYaml(file, text)), reserved));
      cache?.write("specs", key, { reserved, resources } satisfies ValidatedYaml);
      return { file, resources, providers: [] };
    },
  };
}

/**
 * A YAML spec read for validation. With a cache, document by document (see splitYamlDocuments):
 * a document whose text was valid when this file was last validated keeps its resource, and only
 * the others are parsed and checked against their schema (an edit to one of 200 services parses
 * one), and kept for the next time; when no document changed, neither the YAML parser nor zod is
 * loaded. Anything a document alone gets wrong has the whole text parsed, whose errors (and
 * lines) are what the user sees.
 */
async function parseDocuments(file: string, text: string, cache: ContentCache | undefined): Promise<{ documents?: ValidatedDocuments["documents"]; raw?: RawSpec }> {
  const pieces = cache ? splitYamlDocuments(text) : undefined;
  if (!cache || !pieces) return { raw: await parseYaml(file, text) };
  const known = new Map((cache.read<ValidatedDocuments>("specs", documentsKey(file))?.documents ?? []).map((d) => [d.hash, d.resource]));
  let parsers: [typeof import("./load-yaml-spec.js"), typeof import("../model/schemas.js")] | undefined;
  const documents: ValidatedDocuments["documents"] = [];
  for (const piece of pieces) {
    const hash = contentHash(piece);
    let resource = known.get(hash);
    if (resource === undefined) {
      parsers ??= await Promise.all([import("./load-yaml-spec.js"), import("../model/schemas.js")]);
      const raw = await parsers[0].parseYamlSpec(file, piece).catch(() => undefined);
      resource = raw?.resources.length === 1 ? parsers[1].validateResource(raw.resources[0]) : raw?.resources.length === 0 ? null : undefined;
      if (resource === undefined) return { raw: await parseYaml(file, text) };
    }
    documents.push({ hash, resource });
  }
  // Each document is valid alone, whatever the rules between them find: kept for the next edit.
  if (parsers) cache.write("specs", documentsKey(file), { documents } satisfies ValidatedDocuments);
  return { documents };
}

/** The documents' resources, in order, when the rules between them hold (undefined otherwise). */
function acrossDocuments(documents: ValidatedDocuments["documents"], reserved: string[]): Resource[] | undefined {
  const resources = documents.flatMap((document) => (document.resource ? [document.resource] : []));
  const keys = new Set(resources.map((r) => `${r.type}:${r.name}`));
  return crossCheck(resources, () => ({}), { reserved }, keys, true).length === 0 ? resources : undefined;
}

/** The cache key of a YAML spec file's documents as last validated by this build. */
function documentsKey(file: string): string {
  return cacheKey("yaml-spec-documents", CORE_BUILD, resolve(file));
}

/** Loads and validates a spec file for a host. */
export async function loadSpec(file: string, host: HostFacts): Promise<Spec> {
  return (await openSpec(file)).build(host);
}

/**
 * A config module's resources are built on every run (they may depend on the host), but the same
 * data validated by the same tend for the same tend folders is not validated again: the cache
 * keeps the result under the data's exact text (see exactJson), so zod is not even loaded.
 */
function openedFrom(file: string, raw: OpenedRawSpec, cache: ContentCache | undefined): OpenedSpec {
  return {
    file,
    providers: raw.providers,
    async build(host) {
      const built = await raw.resources(host);
      const reserved = reservedFolders(host);
      // Reading what the module built runs its code too (a getter, a Proxy's trap).
      try {
        const data = cache ? exactJson(built.resources) : undefined;
        const key = data === undefined ? undefined : cacheKey("module-spec", CORE_BUILD, reserved.join("\0"), data);
        const cached = key ? cache?.read<Resource[]>("specs", key) : undefined;
        if (cached) return { file, resources: cached, providers: raw.providers };
        const resources = await validate(built, reserved);
        if (key) cache?.write("specs", key, resources);
        return { file, resources, providers: raw.providers };
      } catch (error) {
        throw specThrew(error, file, "failed while tend read the resources it built");
      }
    },
  };
}

async function parseYaml(file: string, text: string): Promise<RawSpec> {
  const { parseYamlSpec } = await import("./load-yaml-spec.js");
  return parseYamlSpec(file, text);
}

/** The zod validation, loaded only when a spec is validated at all. */
async function validate(raw: RawSpec, reserved: string[]): Promise<Resource[]> {
  const { validateSpec } = await import("../model/schemas.js");
  return validateSpec(raw.resources, raw.locate, { reserved });
}

/** tend's own folders on this host: the system state, the host user's state, the lock folder. */
function reservedFolders(host: HostFacts): string[] {
  const folders = ["/var/lib/tend", "/run/tend", `${host.home}/.local/state/tend`];
  const xdg = process.env.XDG_STATE_HOME;
  if (xdg && isNormalHostPath(xdg)) folders.push(`${xdg}/tend`);
  return folders;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
