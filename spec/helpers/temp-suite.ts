import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Writes a throwaway suite with the given case files; returns its directory. */
export function tempSuite(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'prose-suite-'));
  mkdirSync(join(dir, 'cases'));
  writeFileSync(join(dir, 'suite.yaml'), 'name: temp\nversion: 0.0.1\n');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'cases', name), text);
  return dir;
}

/** The smallest valid case file: area `a`, one case `a/one` (a missing name is E_NOT_FOUND); specs edit it. */
export const ONE_CASE_FILE = `area: a
cases:
  - id: a/one
    title: one
    steps:
      - op: resolve
        args: { name: x }
        error: E_NOT_FOUND
`;

/** A case file with one case that passes, one that fails on purpose and one skipped for a capability nobody declares. */
export const PASS_FAIL_SKIP_CASES = `area: a
cases:
  - id: a/passes
    title: a missing name is not found
    steps:
      - op: resolve
        args: { name: x }
        error: E_NOT_FOUND
  - id: a/fails
    title: expects the wrong thing on purpose
    steps:
      - op: resolve
        args: { name: x }
        expect: { value: y }
  - id: a/skips
    title: needs a capability nobody declares here
    requires: [layout:postgres]
    steps:
      - op: resolve
        args: { name: x }
        error: E_NOT_FOUND
`;

/** Collects what a command writes, for in-process CLI specs. */
export function captureIo(env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      stdout: { write: (s: string) => out.push(s) },
      stderr: { write: (s: string) => err.push(s) },
      env,
      cwd: process.cwd(),
    },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}
