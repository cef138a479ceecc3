import { lexSettingValue, substituteDollars } from "./lex-setting-value.js";

/** The parts of a dinit service description tend reads: how other services are enabled from it. */
export interface ServiceDescription {
  /** `waits-for.d` values, as written (dinit refuses to enable through more than one). */
  waitsForD: string[];
  /** Names in `depends-on`, `depends-ms` and `waits-for`: fixed dependencies `dinitctl enable` refuses to add. */
  fixedDependencies: string[];
  /** `@meta enable-via NAME`: the service `dinitctl enable` adds this one to instead of `boot`. */
  enableVia?: string;
}

const SETTING = /^([A-Za-z0-9_.-]+)[ \t]*(=|:|\+=)(.*)$/;

/**
 * Reads the settings that matter for enabling from a description's text. Fragments pulled in with
 * `@include` are not followed, and a value that uses a variable (`$NAME`), which only the running
 * dinit can resolve, is left out.
 */
export function parseServiceDescription(text: string): ServiceDescription {
  const description: ServiceDescription = { waitsForD: [], fixedDependencies: [] };
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
    if (setting[1] === "depends-on" || setting[1] === "depends-ms" || setting[1] === "waits-for") {
      description.fixedDependencies.push(value);
    }
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
