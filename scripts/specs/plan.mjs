// What the spec runner decides before it starts a process: which spec files, in what order, which run alone, which
// are quick, and how a file's uvu output is counted. Pure functions over file names and the durations file, so
// spec/ci/spec-plan.spec.ts checks them without running a spec.

/** The line a worker writes after each file's output (a NUL first, so no spec's output can be mistaken for it). */
export const MARKER = '\u0000spec-file-done ';

/** A file the durations file does not know weighs the mean of those it does (1 s when it knows none). */
export function estimator(durations) {
  const known = Object.values(durations.seconds ?? {});
  const mean = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 1;
  return (file) => durations.seconds?.[file] ?? mean;
}

/**
 * The order the workers take files in: longest first, so each next file goes to the worker that frees first, the
 * least-loaded one (list scheduling); equal estimates keep name order. Files the durations file marks `alone` (with a
 * reason) run after the others, one at a time with every other worker stopped. Files of one `apart` set (with a
 * reason) never run at the same time as each other, but each may run beside any other file: `setOf(file)` names it.
 */
export function planRun(files, durations) {
  const weigh = estimator(durations);
  const alone = durations.alone ?? {};
  const byWeight = (a, b) => weigh(b) - weigh(a) || a.localeCompare(b);
  const sets = new Map(
    Object.entries(durations.apart ?? {}).flatMap(([name, { files: fs }]) => fs.map((f) => [f, name])),
  );
  return {
    shared: files.filter((f) => !(f in alone)).sort(byWeight),
    alone: files.filter((f) => f in alone).sort(byWeight),
    estimate: weigh,
    setOf: (file) => sets.get(file),
  };
}

/** The quick tier: every file measured at or under `limit` seconds, plus the files a change touches, whatever they cost. */
export function quickFiles(files, durations, limit, touched = new Set()) {
  const seconds = durations.seconds ?? {};
  return files.filter(
    (f) => touched.has(f) || (f in seconds && seconds[f] <= limit && !(f in (durations.alone ?? {}))),
  );
}

/**
 * The spec files a change touches: the spec files it edits, and those whose source names a changed module of src/
 * or scripts/ in an import (`.../name.ts'` or `.../name.mjs'`). Cheap and direct imports only: a spec that reaches a
 * changed module through another is left to the whole run.
 */
export function touchedSpecs(changed, specSources) {
  const touched = new Set(changed.filter((f) => specSources.has(f)));
  const modules = changed
    .filter((f) => /^(src|scripts)\/.*\.(ts|mjs)$/.test(f))
    .map((f) => f.slice(f.lastIndexOf('/') + 1));
  if (!modules.length) return touched;
  for (const [file, text] of specSources) {
    if (modules.some((m) => text.includes(`/${m}'`) || text.includes(`/${m}"`))) touched.add(file);
  }
  return touched;
}

// The colour sequences uvu writes; its totals are read from the text without them.
const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * Counts one file's uvu output. uvu counts in Total only the tests that ran, so failed = Total - Passed. A file that
 * printed no totals (it failed to load, or its worker died) counts one failure, so it can never pass silently.
 */
export function countOutput(text, broke) {
  const plain = text.replace(ANSI, '');
  const num = (label) => Number(new RegExp(`^\\s*${label}:\\s+(\\d+)`, 'm').exec(plain)?.[1] ?? NaN);
  const total = num('Total');
  if (Number.isNaN(total)) return { passed: 0, failed: 1, skipped: 0 };
  const passed = num('Passed');
  const failed = total - passed + (broke ? 1 : 0);
  return { passed, failed, skipped: num('Skipped') };
}

/** uvu's per-file totals block (Total, Passed, Skipped, Duration): the runner prints one for the whole run instead. */
export function withoutTotals(text) {
  return text.replace(/\n?\s*Total:[^\n]*\n[^\n]*Passed:[^\n]*\n[^\n]*Skipped:[^\n]*\n[^\n]*Duration:[^\n]*\n*$/, '\n');
}

/** The closing line CI parses: exactly this form, alone on a line. */
export function closingLine({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed, ${skipped} skipped`;
}
