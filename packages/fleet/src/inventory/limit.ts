import { TendError } from "@tend/core";
import type { Inventory, InventoryHost } from "./load-inventory.js";

/**
 * The hosts `--limit PATTERN` selects. PATTERN is terms separated by `,` or `:`; a term is a host
 * or group name, or a glob over host names (`web*`, `db-?`); `!term` leaves its hosts out and
 * `&term` keeps only hosts that term also selects. A term that matches nothing is an error
 * (a typo must not silently shrink the run).
 */
export function limitHosts(inventory: Inventory, pattern: string | undefined): InventoryHost[] {
  if (pattern === undefined || pattern.trim() === "") return inventory.hosts;
  const terms = pattern.split(/[,:]/).map((t) => t.trim()).filter((t) => t !== "");
  let chosen = new Set<string>();
  const plain = terms.filter((t) => !t.startsWith("!") && !t.startsWith("&"));
  if (plain.length === 0) chosen = new Set(inventory.hosts.map((h) => h.name));
  for (const term of plain) for (const h of matching(inventory, term)) chosen.add(h);
  for (const term of terms.filter((t) => t.startsWith("&"))) {
    const also = new Set(matching(inventory, term.slice(1)));
    chosen = new Set([...chosen].filter((h) => also.has(h)));
  }
  for (const term of terms.filter((t) => t.startsWith("!"))) for (const h of matching(inventory, term.slice(1))) chosen.delete(h);
  return inventory.hosts.filter((h) => chosen.has(h.name));
}

function matching(inventory: Inventory, term: string): string[] {
  const byGroup = inventory.hosts.filter((h) => h.groups.includes(term)).map((h) => h.name);
  if (byGroup.length > 0 || inventory.groups.includes(term)) return byGroup;
  const glob = new RegExp(`^${term.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`);
  const found = inventory.hosts.filter((h) => glob.test(h.name)).map((h) => h.name);
  if (found.length === 0) {
    throw new TendError("TEND_USAGE", `--limit: \`${term}\` matches no host or group of ${inventory.file}`, { hint: `Hosts: ${inventory.hosts.map((h) => h.name).join(", ")}`, field: "limit" });
  }
  return found;
}
