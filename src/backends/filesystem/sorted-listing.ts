import { readdirSync } from 'node:fs';

/**
 * A directory's names in sorted order, as `readdirSync(dir).sort()` gives them, without sorting every call: a
 * directory lists its entries in an order of its own that entries added later do not disturb (ext4's hash order,
 * a linear directory's slots), so when the new listing is the last one with names inserted, only those are placed
 * into the last sorted list. Any other change (a name gone, an order that moved) sorts afresh. The directory is
 * read every call: nothing is taken on trust.
 */
export class SortedListing {
  private readonly last = new Map<string, { listed: string[]; sorted: string[] }>();

  names(dir: string): string[] {
    const listed = readdirSync(dir);
    const seen = this.last.get(dir);
    const added = seen && insertedInto(seen.listed, listed);
    let sorted: string[];
    if (added === undefined) sorted = [...listed].sort();
    else {
      sorted = [...seen!.sorted];
      for (const name of added) sorted.splice(insertionPoint(sorted, name), 0, name);
    }
    this.last.set(dir, { listed, sorted });
    return sorted;
  }

  clear(): void {
    this.last.clear();
  }
}

/** The names of `now` that are not in `before`, when `now` is `before` with only those inserted; else undefined. */
function insertedInto(before: string[], now: string[]): string[] | undefined {
  if (now.length < before.length) return undefined;
  const added: string[] = [];
  let j = 0;
  for (const name of now) {
    if (j < before.length && name === before[j]) j++;
    else added.push(name);
  }
  return j === before.length && added.length === now.length - before.length ? added : undefined;
}

/** Where `name` goes in the sorted `names` (the default sort's order: UTF-16 code units). */
function insertionPoint(names: string[], name: string): number {
  let lo = 0;
  let hi = names.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (names[mid]! < name) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
