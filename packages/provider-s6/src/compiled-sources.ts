import { createHash } from "node:crypto";
import { basename } from "node:path";
import type { Artifact, HostFiles, HostFileWriter } from "@tend/core/contract";
import { BUNDLE_DIR, CURRENT_DATABASE, DATABASE_DIR, SOURCE_DIR } from "./s6-layout.js";

/**
 * What tend compiled into one database, kept beside it as `<database>.sources` (as its conversion
 * file is): for each tend service, a digest of its source definition, and the members of the
 * `tend` bundle. A compiled database is a pure function of its sources, so this says what
 * s6-rc-db would read from it, without s6-rc's tools: an image root is observed from it, and a
 * database that predates the sources on disk (an apply stopped between its writes and its
 * compile) is seen and compiled again.
 */
export interface CompiledSources {
  /** Digest of each tend service's definition, by s6-rc name (`tend-web`). */
  services: Map<string, string>;
  /** The `tend` bundle's members. */
  bundle: Set<string>;
}

/** The parts of a definition tend writes, whatever else an admin adds beside them. */
interface Definition {
  type: string | null;
  run: string | null;
  finish: string | null;
  dependencies: string[];
}

const HEADER = `# Compiled by tend from ${SOURCE_DIR}: "service NAME DIGEST" for each tend service, "bundle NAME" for each member of the bundle tend.`;

export function manifestPath(database: string): string {
  return `${database}.sources`;
}

export function formatManifest(sources: CompiledSources): string {
  const lines = [HEADER];
  for (const name of [...sources.services.keys()].sort()) lines.push(`service ${name} ${sources.services.get(name)!}`);
  for (const name of [...sources.bundle].sort()) lines.push(`bundle ${name}`);
  return `${lines.join("\n")}\n`;
}

export function parseManifest(text: string): CompiledSources {
  const services = new Map<string, string>();
  const bundle = new Set<string>();
  for (const line of text.split("\n")) {
    const [kind, name, digest] = line.split(" ");
    if (kind === "service" && name && digest) services.set(name, digest);
    else if (kind === "bundle" && name) bundle.add(name);
  }
  return { services, bundle };
}

export function sameSources(a: CompiledSources, b: CompiledSources): boolean {
  return formatManifest(a) === formatManifest(b);
}

function digest(definition: Definition): string {
  return createHash("sha256").update(JSON.stringify(definition)).digest("hex").slice(0, 32);
}

/** The digest of a definition as tend renders it (`renderLongrun`'s artifacts). */
export function renderedDigest(name: string, artifacts: Artifact[]): string {
  const dir = `${SOURCE_DIR}/${name}`;
  const content = (file: string) => artifacts.find((a) => a.path === `${dir}/${file}`)?.content ?? null;
  const dependencies = artifacts.filter((a) => a.path.startsWith(`${dir}/dependencies.d/`)).map((a) => basename(a.path)).sort();
  return digest({ type: content("type"), run: content("run"), finish: content("finish"), dependencies });
}

/** The digest of a definition as it is on disk, or undefined when there is none. */
export async function diskDigest(name: string, files: HostFiles): Promise<string | undefined> {
  const dir = `${SOURCE_DIR}/${name}`;
  if (!(await files.isDirectory(dir))) return undefined;
  const [type, run, finish, dependencies] = await Promise.all([
    files.readFile(`${dir}/type`),
    files.readFile(`${dir}/run`),
    files.readFile(`${dir}/finish`),
    files.readDir(`${dir}/dependencies.d`),
  ]);
  return digest({ type, run, finish, dependencies: [...(dependencies ?? [])].sort() });
}

/** Every tend service in the source folder and the bundle's members, as a compile would see them now. */
export async function readSources(files: HostFiles): Promise<CompiledSources> {
  const services = new Map<string, string>();
  for (const entry of (await files.readDir(SOURCE_DIR)) ?? []) {
    if (!entry.startsWith("tend-")) continue;
    const found = await diskDigest(entry, files);
    if (found !== undefined) services.set(entry, found);
  }
  const bundle = new Set(((await files.readDir(`${BUNDLE_DIR}/contents.d`)) ?? []).filter((name) => name.startsWith("tend-")));
  return { services, bundle };
}

/** Records what `database` was compiled from. */
export async function writeManifest(database: string, sources: CompiledSources, files: HostFileWriter): Promise<void> {
  await files.writeFile(manifestPath(database), formatManifest(sources), { mode: 0o644 });
}

/** The database boot uses, if any: `/etc/s6/db/current`'s target, and whether it exists. */
export async function currentDatabase(files: HostFiles): Promise<{ path: string; exists: boolean } | undefined> {
  const target = await files.readLink(CURRENT_DATABASE);
  if (target === null) return (await files.isDirectory(CURRENT_DATABASE)) ? { path: CURRENT_DATABASE, exists: true } : undefined;
  const path = target.startsWith("/") ? target : `${DATABASE_DIR}/${target}`;
  return { path, exists: await files.isDirectory(path) };
}

/** The database boot uses and what it was compiled from, when tend compiled it (else undefined). */
export async function readCompiledSources(files: HostFiles): Promise<{ database: string; sources: CompiledSources } | undefined> {
  const current = await currentDatabase(files);
  if (!current?.exists) return undefined;
  const text = await files.readFile(manifestPath(current.path));
  return text === null ? undefined : { database: current.path, sources: parseManifest(text) };
}
