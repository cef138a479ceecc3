/** The edit distance between two words (insertions, deletions, substitutions, transpositions). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The closest of `known` to `word`, when it is close enough to be a likely typo ("did you mean"). */
export function closest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let distance = Infinity;
  for (const candidate of known) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < distance) {
      best = candidate;
      distance = d;
    }
  }
  return best !== undefined && distance <= Math.max(1, Math.floor(best.length / 3)) ? best : undefined;
}
