import { lexSettingValue, substituteDollars } from "./lex-setting-value.js";

/** The parts of a dinit service description tend reads: how other services are enabled from it. */
export interface ServiceDescription {
  /** `waits-for.d` values, as written (dinit refuses to enable through more than one). */
  waitsForD: string[];
  /**
   * `depends-on`, `depends-ms` and `waits-for`, each with the type `dinitctl rm-dep` takes: fixed
   * dependencies `dinitctl enable` refuses to add.
   */
  dependencies: FixedDependency[];
  /** `@meta enable-via NAME`: the service `dinitctl enable` adds this one to instead of `boot`. */
  enableVia?: string;
}

/** A fixed dependency: `depends-on` is `need`, `depends-ms` is `milestone`, `waits-for` is itself. */
export interface FixedDependency {
  type: "need" | "milestone" | "waits-for";
  name: string;
}

const DEPENDENCY_TYPES: Record<string, FixedDependency["type"]> = { "depends-on": "need", "depends-ms": "milestone", "waits-for": "waits-for" };

const SETTING = /^([A-Za-z0-9_.-]+)[ \t]*(=|:|\+=)(.*)$/;

/**
 * Reads the settings that matter for enabling from a description's text. Fragments pulled in with
 * `@include` are not followed, and a value that uses a variable (`$NAME`), which only the running
 * dinit can resolve, is left out.
 */
export function parseServiceDescription(text: string): ServiceDescription {
  const description: ServiceDescription = { waitsForD: [], dependencies: [] };
  for (const raw of text.split("\n")) {
    const line = raw.replace(/^[ \t]+/, "").replace(/\r$/, "");
    if (line === "" || line.startsWith("#")) continue;
    if (line.startsWith("@")) {
      const words = safeWords(line.slice(1));
      if (words?.[0] === "meta" && words[1] === "enable-via" && words[2]) description.enableVia = words[2];
      continue;
    }
    const setting = SETTING.exec(line);
    if (!setting) continue;
    const value = safeWords(setting[3]!)?.join(" ");
    if (!value) continue;
    if (setting[1] === "waits-for.d") description.waitsForD.push(value);
    const type = Object.hasOwn(DEPENDENCY_TYPES, setting[1]!) ? DEPENDENCY_TYPES[setting[1]!] : undefined;
    if (type) description.dependencies.push({ type, name: value });
  }
  return description;
}

function safeWords(value: string): string[] | undefined {
  try {
    const words = lexSettingValue(value).map(substituteDollars);
    return words.every((word) => word !== undefined) ? (words as string[]) : undefined;
  } catch {
    return undefined;
  }
}
