/** How output is styled: the CLI gives Node's util.styleText (or plain text); core only calls these. */
export interface Paint {
  green(text: string): string;
  yellow(text: string): string;
  red(text: string): string;
  cyan(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const same = (text: string) => text;

/** Plain text: no styling at all. */
export const PLAIN: Paint = { green: same, yellow: same, red: same, cyan: same, dim: same, bold: same };
