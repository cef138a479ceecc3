/** The `[Install]` directives that decide where `systemctl enable` puts links. */
export interface InstallSection {
  wantedBy: string[];
  requiredBy: string[];
  alias: string[];
  /** Units enabled along with this one: a unit with only `Also=` is `indirect`. */
  also: string[];
  /**
   * False when the section holds something this reader does not interpret the way systemd does:
   * a continued line, quoting or escapes, a `%` specifier, `DefaultInstance=`, or `UpheldBy=`
   * (which systemd 252 ignores and later releases link). Callers that
   * must be exact ask systemctl then.
   */
  plain: boolean;
}

type ListField = "wantedBy" | "requiredBy" | "alias" | "also";

const FIELDS: Record<string, ListField> = { WantedBy: "wantedBy", RequiredBy: "requiredBy", Alias: "alias", Also: "also" };

/**
 * Reads `WantedBy=`, `RequiredBy=`, `Alias=` and `Also=` from a unit file's
 * `[Install]` section: each a space-separated list, repeatable, an empty assignment clearing what
 * came before (systemd's list rule).
 */
export function parseInstallSection(text: string): InstallSection {
  const found: InstallSection = { wantedBy: [], requiredBy: [], alias: [], also: [], plain: true };
  let section = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[") && line.endsWith("]")) {
      section = line.slice(1, -1);
      continue;
    }
    if (section !== "Install" || line.startsWith("#") || line.startsWith(";")) continue;
    if (line.endsWith("\\")) found.plain = false;
    const at = line.indexOf("=");
    const key = at > 0 ? line.slice(0, at).trim() : "";
    if (key === "DefaultInstance" || key === "UpheldBy") found.plain = false;
    const field = FIELDS[key];
    if (!field) continue;
    const value = line.slice(at + 1).trim();
    if (/["'\\%]/.test(value)) found.plain = false;
    const values = value.split(/\s+/).filter(Boolean);
    found[field] = values.length === 0 ? [] : [...found[field], ...values];
  }
  return found;
}

/** Whether `systemctl enable` would make any link for the unit (else it is static or indirect). */
export function hasInstallRules(install: InstallSection): boolean {
  return install.wantedBy.length + install.requiredBy.length + install.alias.length > 0;
}
