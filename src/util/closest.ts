/** Edit distance (insertions, deletions, substitutions) between two strings. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({length: b.length + 1}, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The names a mistyped `word` most likely meant, best first: near in edit
 * distance (a third of the word's length, at least 2), or containing it.
 */
export function closestNames(word: string, names: readonly string[], max = 3): string[] {
  const lower = word.toLowerCase();
  const limit = Math.max(2, Math.floor(lower.length / 3));
  return names
    .map(name => ({name, distance: editDistance(lower, name.toLowerCase())}))
    .filter(({name, distance}) => distance <= limit || (lower.length >= 4 && name.includes(lower)))
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, max)
    .map(({name}) => name);
}
