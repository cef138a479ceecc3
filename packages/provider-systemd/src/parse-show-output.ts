/**
 * `systemctl show -p A,B,… u1 u2 …`: one block of `Key=value` lines per unit, blocks separated
 * by a blank line. Properties come in systemd's own order, not the order asked for, so blocks
 * are keyed by their `Id=` (ask for it) rather than by position or line.
 */
export function parseShowOutput(text: string): Map<string, Record<string, string>> {
  const units = new Map<string, Record<string, string>>();
  for (const block of text.split(/\n\s*\n/)) {
    const properties: Record<string, string> = {};
    for (const line of block.split("\n")) {
      const at = line.indexOf("=");
      if (at > 0) properties[line.slice(0, at)] = line.slice(at + 1);
    }
    if (properties.Id) units.set(properties.Id, properties);
  }
  return units;
}
