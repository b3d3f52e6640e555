import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, release } from 'node:os';
import { which } from './which.ts';

/** What a reader needs to judge the figures: CPU, SHA extensions, runtime and the peer tools' versions. */
export function describeEnvironment(
  env: Record<string, string | undefined>,
  inBinary: boolean,
): Record<string, string | number | boolean> {
  let cpuinfo = '';
  try {
    cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    // not Linux
  }
  const flags = /^flags\s*:(.*)$/m.exec(cpuinfo)?.[1]?.split(/\s+/) ?? [];
  const out: Record<string, string | number | boolean> = {
    cpu: /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    shaNi: flags.includes('sha_ni'),
    kernel: release(),
    node: process.version,
    openssl: process.versions.openssl ?? 'unknown',
    v8: process.versions.v8,
    singleBinary: inBinary,
  };
  const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header
    ?.glibcVersionRuntime;
  if (glibc) out.glibc = glibc;
  for (const [tool, args] of [
    ['tar', ['--version']],
    ['sha256sum', ['--version']],
    ['git', ['--version']],
    ['openssl', ['version']],
    ['find', ['--version']],
  ] as const) {
    const path = which(tool, env);
    out[tool] = path
      ? (spawnSync(path, [...args], { encoding: 'utf8' }).stdout.split('\n')[0] ?? '').trim() || 'unknown'
      : 'absent';
  }
  return out;
}
