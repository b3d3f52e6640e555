import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release } from 'node:os';
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
    // Others' work on the machine when the run began (the run adds loadAverageEnd): 1, 5 and 15 minutes.
    loadAverageStart: loadAverage(),
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

/** The 1, 5 and 15 minute load averages, as "0.42 0.90 1.20". */
export function loadAverage(): string {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}
