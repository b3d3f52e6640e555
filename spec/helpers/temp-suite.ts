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

/** Collects what a command writes, for in-process CLI specs. */
export function captureIo(env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) }, env, cwd: process.cwd() },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}
