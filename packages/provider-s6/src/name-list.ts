/** The names s6-rc and s6-rc-db print, one a line. */
export function parseNameList(output: string): Set<string> {
  return new Set(output.split("\n").map((line) => line.trim()).filter((line) => line !== ""));
}
