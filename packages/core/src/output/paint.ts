/** Colour for a terminal; plain text when `enabled` is false (not a TTY, or NO_COLOR set). */
export function painter(enabled: boolean) {
  const wrap = (code: number) => (text: string) => (enabled ? `\u001b[${code}m${text}\u001b[0m` : text);
  return { green: wrap(32), yellow: wrap(33), red: wrap(31), cyan: wrap(36), dim: wrap(2), bold: wrap(1) };
}

export type Paint = ReturnType<typeof painter>;

/** Colour only on a terminal, and never when NO_COLOR is set (no-color.org). */
export function colourWanted(stream: { isTTY?: boolean }): boolean {
  return Boolean(stream.isTTY) && !("NO_COLOR" in process.env && process.env.NO_COLOR !== "");
}
