import { readFileSync } from "node:fs";
import { LineCounter, parseDocument, type Document } from "yaml";
import { inputFileProblem, TendError, TendErrors } from "@tend/core";
import { InventorySchema } from "./inventory-schema.js";
import { inventoryIssueMessage } from "./inventory-issue.js";

/** How to reach one host. */
export interface SshDestination {
  /** Address or ssh_config alias. */
  host: string;
  user?: string;
  port?: number;
  identity?: string;
  jump?: string;
  /** ssh_config options, by name. */
  options: Record<string, string>;
}

/** One host of the inventory, its groups and facts resolved. */
export interface InventoryHost {
  name: string;
  ssh: SshDestination;
  groups: string[];
  /** Group facts (in group order), then the host's own over them. */
  facts: Record<string, unknown>;
}

export interface Inventory {
  file: string;
  hosts: InventoryHost[];
  groups: string[];
}

function inventoryError(file: string, message: string, where: { host?: string; group?: string; field?: string; line?: number | undefined }): TendError {
  const at = where.host ? `host ${where.host}` : where.group ? `group ${where.group}` : "the inventory";
  return new TendError("TEND_FLEET_INVENTORY", `${file}: ${at}${where.field ? `, field ${where.field}` : ""}: ${message}`, {
    hint: "See the inventory format in the README (From one host to a fleet) or @tend/fleet/hosts-schema.json",
    file,
    ...(where.line !== undefined ? { line: where.line } : {}),
    ...(where.field ? { field: where.field } : {}),
    ...(where.host ? { resource: where.host } : {}),
  });
}

/** Reads and checks `tend.hosts.yaml`; every error names the host (or group) and the field. */
export function loadInventory(file: string): Inventory {
  const problem = inputFileProblem(file, "inventory");
  if (problem) throw new TendError("TEND_FLEET_INVENTORY", problem.message, { hint: problem.hint });
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new TendError("TEND_FLEET_INVENTORY", `cannot read the inventory ${file}: ${(error as Error).message}`, { hint: "Pass --hosts with the path of tend.hosts.yaml" });
  }
  return parseInventory(text, file);
}

export function parseInventory(text: string, file = "tend.hosts.yaml"): Inventory {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const lineAt = (offset: number | undefined) => (offset === undefined ? undefined : lineCounter.linePos(offset).line);
  if (doc.errors.length > 0) throw inventoryError(file, `not valid YAML: ${doc.errors[0]!.message.split("\n")[0]}`, { line: lineAt(doc.errors[0]!.pos[0]) });
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 0 });
  } catch (error) {
    throw inventoryError(file, `not valid YAML: ${(error as Error).message.split("\n")[0]}`, {});
  }
  const parsed = InventorySchema.safeParse(raw);
  if (!parsed.success) {
    const found = parsed.error.issues.slice(0, 10).map((issue) => issueError(file, raw, issue, (path) => lineAt(nodeStart(doc, path))));
    throw found.length === 1 ? found[0]! : new TendErrors(found);
  }
  const lineOf = (...path: string[]) => lineAt(nodeStart(doc, path));
  const inv = parsed.data;
  const groups = inv.groups ?? {};
  const memberOf = new Map<string, string[]>();
  for (const name of Object.keys(inv.hosts)) memberOf.set(name, [...(inv.hosts[name]?.groups ?? [])]);
  for (const [group, def] of Object.entries(groups)) {
    for (const host of def.hosts ?? []) {
      const list = memberOf.get(host);
      if (!list) throw inventoryError(file, `lists host ${host}, which is not in hosts`, { group, field: "hosts", line: lineOf("groups", group, "hosts") });
      if (!list.includes(group)) list.push(group);
    }
  }
  const hosts: InventoryHost[] = [];
  for (const [name, def] of Object.entries(inv.hosts)) {
    const own = def ?? {};
    const inGroups = memberOf.get(name)!;
    for (const group of inGroups) if (!groups[group]) throw inventoryError(file, `unknown group ${group}`, { host: name, field: "groups", line: lineOf("hosts", name, "groups") });
    const layers = [inv.defaults ?? {}, ...inGroups.map((g) => groups[g] ?? {}), own];
    const ssh: SshDestination = { host: name, options: {} };
    const facts: Record<string, unknown> = {};
    for (const layer of layers) {
      if (layer.host !== undefined) ssh.host = layer.host;
      if (layer.user !== undefined) ssh.user = layer.user;
      if (layer.port !== undefined) ssh.port = layer.port;
      if (layer.identity !== undefined) ssh.identity = layer.identity;
      if (layer.jump !== undefined) ssh.jump = layer.jump;
      for (const [k, v] of Object.entries(layer.ssh ?? {})) ssh.options[k] = v === true ? "yes" : v === false ? "no" : String(v);
      if ("facts" in layer && layer.facts) Object.assign(facts, layer.facts);
    }
    if (!("host" in own) || own.host === undefined) {
      // A group or the defaults giving one address to many hosts is almost always a mistake.
      const shared = layers.slice(0, -1).find((l) => l.host !== undefined);
      if (shared) throw inventoryError(file, "host (the address) may be set on a host only", { host: name, field: "host", line: lineOf("hosts", name) });
    }
    hosts.push({ name, ssh, groups: inGroups, facts });
  }
  if (hosts.length === 0) throw inventoryError(file, "no hosts", { field: "hosts", line: lineOf("hosts") });
  return { file, hosts, groups: Object.keys(groups) };
}

/** One schema issue as an error that names the host or group, the field and its line. */
function issueError(file: string, raw: unknown, issue: Parameters<typeof inventoryIssueMessage>[0], lineOf: (path: PropertyKey[]) => number | undefined): TendError {
  const path = issue.path.map(String);
  const [top, name, ...rest] = path;
  const keyed = issue.code === "unrecognized_keys" ? [...path, (issue as { keys: string[] }).keys[0]!] : path;
  const value = path.reduce<unknown>((at, key) => (at !== null && typeof at === "object" ? (at as Record<string, unknown>)[key] : undefined), raw);
  const part = top === "hosts" && name !== undefined ? "host" : top === "groups" && name !== undefined ? "group" : top === "defaults" && path.length === 1 ? "defaults" : "inventory";
  const where =
    top === "hosts" && name !== undefined
      ? { host: name, field: rest.join(".") || undefined }
      : top === "groups" && name !== undefined
        ? { group: name, field: rest.join(".") || undefined }
        : { field: path.join(".") || undefined };
  const message = inventoryIssueMessage(issue, value, part);
  return inventoryError(file, message, Object.fromEntries(Object.entries({ ...where, line: lineOf(keyed) }).filter(([, v]) => v !== undefined)));
}

/** Where the node at `path` starts, or the nearest node above it that the file holds. */
function nodeStart(doc: Document, path: PropertyKey[]): number | undefined {
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === "object" && node.range) return node.range[0];
  }
  return undefined;
}
