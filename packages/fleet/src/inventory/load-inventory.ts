import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { inputFileProblem, TendError } from "@tend/core";
import { InventorySchema } from "./inventory-schema.js";

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

function inventoryError(file: string, message: string, where: { host?: string; group?: string; field?: string }): TendError {
  const at = where.host ? `host ${where.host}` : where.group ? `group ${where.group}` : "the inventory";
  return new TendError("TEND_FLEET_INVENTORY", `${file}: ${at}${where.field ? `, field ${where.field}` : ""}: ${message}`, {
    hint: "See the inventory format in the README (From one host to a fleet) or @tend/fleet/hosts-schema.json",
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
  let raw: unknown;
  try {
    raw = parse(text, { maxAliasCount: 0 });
  } catch (error) {
    throw inventoryError(file, `not valid YAML: ${(error as Error).message.split("\n")[0]}`, {});
  }
  const parsed = InventorySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const [top, name, ...rest] = issue.path.map(String);
    const where =
      top === "hosts" && name !== undefined
        ? { host: name, field: rest.join(".") || undefined }
        : top === "groups" && name !== undefined
          ? { group: name, field: rest.join(".") || undefined }
          : { field: issue.path.map(String).join(".") || undefined };
    const message = issue.code === "unrecognized_keys" ? `unknown field ${(issue as { keys: string[] }).keys.join(", ")}` : issue.message;
    throw inventoryError(file, message, Object.fromEntries(Object.entries(where).filter(([, v]) => v !== undefined)));
  }
  const inv = parsed.data;
  const groups = inv.groups ?? {};
  const memberOf = new Map<string, string[]>();
  for (const name of Object.keys(inv.hosts)) memberOf.set(name, [...(inv.hosts[name]?.groups ?? [])]);
  for (const [group, def] of Object.entries(groups)) {
    for (const host of def.hosts ?? []) {
      const list = memberOf.get(host);
      if (!list) throw inventoryError(file, `lists host ${host}, which is not in hosts`, { group, field: "hosts" });
      if (!list.includes(group)) list.push(group);
    }
  }
  const hosts: InventoryHost[] = [];
  for (const [name, def] of Object.entries(inv.hosts)) {
    const own = def ?? {};
    const inGroups = memberOf.get(name)!;
    for (const group of inGroups) if (!groups[group]) throw inventoryError(file, `unknown group ${group}`, { host: name, field: "groups" });
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
      if (shared) throw inventoryError(file, "host (the address) may be set on a host only", { host: name, field: "host" });
    }
    hosts.push({ name, ssh, groups: inGroups, facts });
  }
  if (hosts.length === 0) throw inventoryError(file, "no hosts", { field: "hosts" });
  return { file, hosts, groups: Object.keys(groups) };
}
