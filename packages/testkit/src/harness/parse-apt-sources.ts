/** One `deb` source of apt: where packages of some suites and components come from. */
export interface AptSource {
  uri: string;
  suites: string[];
  components: string[];
}

/**
 * Reads the binary (`deb`) sources from an apt sources file: one-line format
 * (`sources.list`, `*.list`) or deb822 (`*.sources`). `deb-src` and disabled entries are skipped.
 */
export function parseAptSources(text: string, format: "one-line" | "deb822"): AptSource[] {
  return format === "deb822" ? parseDeb822(text) : parseOneLine(text);
}

function parseOneLine(text: string): AptSource[] {
  const sources: AptSource[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*/, "").replace(/\[[^\]]*\]/, " ").trim();
    const [type, uri, suite, ...components] = line.split(/\s+/);
    if (type !== "deb" || uri === undefined || suite === undefined) continue;
    sources.push({ uri, suites: [suite], components });
  }
  return sources;
}

function parseDeb822(text: string): AptSource[] {
  const sources: AptSource[] = [];
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    let last: string | undefined;
    for (const line of stanza.split("\n")) {
      if (line.startsWith("#")) continue;
      if (/^\s/.test(line) && last !== undefined) {
        fields.set(last, `${fields.get(last) ?? ""} ${line.trim()}`);
        continue;
      }
      const match = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
      if (!match) continue;
      last = match[1]!.toLowerCase();
      fields.set(last, match[2]!.trim());
    }
    const words = (name: string) => (fields.get(name) ?? "").split(/\s+/).filter(Boolean);
    if (!words("types").includes("deb") || fields.get("enabled")?.toLowerCase() === "no") continue;
    for (const uri of words("uris")) sources.push({ uri, suites: words("suites"), components: words("components") });
  }
  return sources;
}
