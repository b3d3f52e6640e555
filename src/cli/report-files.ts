import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createReporters, REPORTERS } from '../conformance/reporters/create-reporters.ts';
import type { Reporter, ReporterOptions } from '../conformance/reporters/reporter.ts';

/** Files of --report-dir, one per format; pretty goes to the terminal and github's annotations to a CI log. */
const FILES: Record<string, string> = {
  json: 'report.jsonl',
  tap: 'report.tap',
  junit: 'report.junit.xml',
  md: 'report.md',
  html: 'report.html',
};

/** Every file format at once into `dir`, written when `flush` is called (after the run, or the merge, is over). */
export function createFileReports(dir: string, opts: ReporterOptions = {}) {
  mkdirSync(dir, { recursive: true });
  const buffers: Record<string, string[]> = {};
  const reporters = REPORTERS.filter((r) => FILES[r]).map((name) => {
    buffers[name] = [];
    return createReporters(name, (s) => buffers[name]!.push(s), opts);
  });
  return {
    reporter: reporters.reduce((a, b) => teeListener(a, b)),
    flush: () => {
      for (const [name, chunks] of Object.entries(buffers)) replaceFile(dir, FILES[name]!, chunks.join(''));
    },
  };
}

/**
 * Writes `file` in `dir` as a new file renamed over whatever holds the name. A symlink already there (stale, or
 * planted) is replaced, never followed, so its target keeps its bytes; replacing rather than refusing keeps a
 * rerun into the same --report-dir working, and a reader never sees half a report. The temp name is created
 * exclusively ('wx'), so a link planted at that name is not followed either.
 */
function replaceFile(dir: string, file: string, text: string): void {
  const temp = join(dir, `.${file}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, text, { flag: 'wx' });
    renameSync(temp, join(dir, file));
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/** One reporter that tells both (every method, the optional ones too: `Required` makes a new one a type error). */
export function teeListener(a: Reporter, b: Reporter): Reporter {
  const tee: Required<Reporter> = {
    header: (h) => {
      a.header(h);
      b.header(h);
    },
    capabilities: (r) => {
      a.capabilities(r);
      b.capabilities(r);
    },
    result: (r) => {
      a.result(r);
      b.result(r);
    },
    footer: (x, c, e) => {
      a.footer(x, c, e);
      b.footer(x, c, e);
    },
    finish: (all) => {
      a.finish(all);
      b.finish(all);
    },
    notJudged: (n) => {
      a.notJudged?.(n);
      b.notJudged?.(n);
    },
  };
  return tee;
}
