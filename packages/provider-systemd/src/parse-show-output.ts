/**
 * `systemctl show -p A,B,… u1 u2 …`: one block of `Key=value` lines per unit asked for, in the
 * order asked, separated by blank lines. Properties come in systemd's own order, not the order
 * asked for, so nothing is read by line position. A block's `Id=` is the unit's real name, which
 * differs from the name asked for when that is an alias (`sshd.service` answers as
 * `ssh.service` on Debian), so blocks are matched to `units` by position, and by `Id` only if
 * their count does not match.
 */
export function parseShowOutput(text: string, units: readonly string[]): Map<string, Record<string, string>> {
  const blocks = text
    .split(/\n\s*\n/)
    .map(parseBlock)
    .filter((block) => block.Id !== undefined);
  const byUnit = new Map<string, Record<string, string>>();
  if (blocks.length === units.length) units.forEach((unit, i) => byUnit.set(unit, blocks[i]!));
  else for (const block of blocks) byUnit.set(block.Id!, block);
  return byUnit;
}

function parseBlock(block: string): Record<string, string> {
  const properties: Record<string, string> = {};
  for (const line of block.split("\n")) {
    const at = line.indexOf("=");
    if (at > 0) properties[line.slice(0, at)] = line.slice(at + 1);
  }
  return properties;
}
