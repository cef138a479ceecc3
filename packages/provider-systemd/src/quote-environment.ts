import { escapeInQuotes } from "./quote-command-line.js";

/**
 * One variable as an `Environment=` value: always quoted, as the seed writes it
 * (`Environment="RUST_LOG=info"`). systemd expands `%` specifiers here, not `$`, and undoes
 * C-style escapes inside the quotes.
 */
export function quoteEnvironment(name: string, value: string): string {
  return `"${escapeInQuotes(`${name}=${value}`.replace(/%/g, "%%"))}"`;
}
