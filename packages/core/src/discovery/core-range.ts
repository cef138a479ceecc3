/**
 * Whether this core's `version` satisfies a provider's peer `range` on `@tend/core`, as semver
 * decides with prereleases included. The ranges packages publish (`>=0.1.0 <1.0.0`, `0.3.2`,
 * alternatives joined by `||`) are decided here; any other form (`^`, `~`, x-ranges, hyphens,
 * prereleases, loose spacing) by semver itself, loaded only then: its 50 kB and the regular
 * expressions it builds at load were most of a millisecond of every start.
 */
export async function satisfiesCoreRange(version: string, range: string): Promise<boolean> {
  const decided = plainRangeSatisfied(version, range);
  if (decided !== undefined) return decided;
  const { default: semver } = await import("semver");
  return semver.satisfies(version, range, { includePrerelease: true });
}

type Triple = [number, number, number];

/** Up to 15 digits, no leading zero: what semver reads the same way as a safe integer. */
const PART = "(0|[1-9]\\d{0,14})";
const VERSION = new RegExp(`^${PART}\\.${PART}\\.${PART}$`);
const COMPARATOR = new RegExp(`^(>=|<=|>|<|=)?${PART}\\.${PART}\\.${PART}$`);

/** The answer for a plain version against comparators of plain versions, or undefined for anything else. */
export function plainRangeSatisfied(version: string, range: string): boolean | undefined {
  const have = VERSION.exec(version);
  if (!have) return undefined;
  const v: Triple = [Number(have[1]), Number(have[2]), Number(have[3])];
  let satisfied = false;
  for (const set of range.split("||")) {
    const comparators = set.trim().split(/ +/);
    if (comparators.length === 0 || comparators[0] === "") return undefined;
    let all = true;
    for (const comparator of comparators) {
      const match = COMPARATOR.exec(comparator);
      if (!match) return undefined;
      const order = compare(v, [Number(match[2]), Number(match[3]), Number(match[4])]);
      const op = match[1] ?? "=";
      const holds = op === ">=" ? order >= 0 : op === "<=" ? order <= 0 : op === ">" ? order > 0 : op === "<" ? order < 0 : order === 0;
      if (!holds) all = false;
    }
    if (all) satisfied = true;
  }
  return satisfied;
}

function compare(a: Triple, b: Triple): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}
