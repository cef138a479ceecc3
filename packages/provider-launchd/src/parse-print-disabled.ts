import { blockLines } from "./print-sections.js";

const ENTRY = /^\s*"(.+)"\s*=>\s*(\S+)\s*$/;
const WORDS = new Map([
  ["disabled", true],
  ["true", true],
  ["enabled", false],
  ["false", false],
]);

/**
 * The overrides of `launchctl print-disabled <domain>`, label to "is disabled". macOS 13 and
 * later print `=> disabled` / `=> enabled`, earlier releases `=> true` / `=> false` (true meaning
 * disabled); both are read. Only the `disabled services` block counts: the `login item
 * associations` block after it names labels too. Undefined when the block is missing or never
 * closes, so a truncated answer is unknown rather than "nothing is disabled".
 */
export function parsePrintDisabled(text: string): Map<string, boolean> | undefined {
  const lines = blockLines(text, "disabled services");
  if (!lines) return undefined;
  const overrides = new Map<string, boolean>();
  for (const line of lines) {
    const match = ENTRY.exec(line);
    const disabled = match ? WORDS.get(match[2]!.toLowerCase()) : undefined;
    if (match && disabled !== undefined) overrides.set(match[1]!, disabled);
  }
  return overrides;
}
