/** The `[Install]` directives that decide where `systemctl enable` puts links. */
export interface InstallSection {
  wantedBy: string[];
  requiredBy: string[];
  alias: string[];
  /** Units enabled along with this one: a unit with only `Also=` is `indirect`. */
  also: string[];
}

/**
 * Reads `WantedBy=`, `RequiredBy=`, `Alias=` and `Also=` from a unit file's `[Install]` section: each a
 * space-separated list, repeatable, an empty assignment clearing what came before (systemd's
 * list rule).
 */
export function parseInstallSection(text: string): InstallSection {
  const found: InstallSection = { wantedBy: [], requiredBy: [], alias: [], also: [] };
  const fields: Record<string, keyof InstallSection> = { WantedBy: "wantedBy", RequiredBy: "requiredBy", Alias: "alias", Also: "also" };
  let section = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[") && line.endsWith("]")) {
      section = line.slice(1, -1);
      continue;
    }
    if (section !== "Install" || line.startsWith("#") || line.startsWith(";")) continue;
    const at = line.indexOf("=");
    const field = at > 0 ? fields[line.slice(0, at).trim()] : undefined;
    if (!field) continue;
    const values = line.slice(at + 1).trim().split(/\s+/).filter(Boolean);
    found[field] = values.length === 0 ? [] : [...found[field], ...values];
  }
  return found;
}
