import { styleText } from "node:util";
import type { Paint } from "@tend/core/runtime";

/**
 * Whether to colour a stream, by the conventions of the ecosystem, strongest first: `--color` /
 * `--no-color`; FORCE_COLOR (any value but 0 or false forces it, as Node reads it); NO_COLOR
 * (no-color.org); TERM=dumb; and otherwise only on a terminal.
 */
export function colourWanted(stream: { isTTY?: boolean }, flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (flag !== undefined) return flag;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return Boolean(stream.isTTY);
}

/** Node's own styling, or plain text. */
export function paintFor(enabled: boolean): Paint {
  // Whether to colour is decided above, by flag and environment; styleText is not to second-guess it.
  const style = (format: Parameters<typeof styleText>[0]) => (text: string) => (enabled ? styleText(format, text, { validateStream: false }) : text);
  return { green: style("green"), yellow: style("yellow"), red: style("red"), cyan: style("cyan"), dim: style("dim"), bold: style("bold") };
}
