import type { CommandEntry } from '../io.ts';

/**
 * Every subcommand; `main` dispatches on the first word. Each module is imported when its command runs, not before:
 * the bundled binary evaluates only what the command uses, which keeps `--version` near a bare `node -e 0`.
 */
export const COMMANDS: CommandEntry[] = [
  {
    name: 'test',
    summary: 'run the conformance suite against backends',
    load: async () => (await import('./test.ts')).testCommand,
  },
  {
    name: 'report',
    summary: 'merge the JSON Lines reports of test --shard into one, or diff two reports',
    load: async () => (await import('./report.ts')).reportCommand,
  },
  {
    name: 'backends',
    summary: 'list the built-in backends and their declared capabilities',
    load: async () => (await import('./backends.ts')).backendsCommand,
  },
  {
    name: 'fingerprint',
    summary: 'print the OPWM1 content address of a directory or file',
    load: async () => (await import('./fingerprint.ts')).fingerprintCommand,
  },
  {
    name: 'verify',
    summary: 'check run state on disk (.prose/, a run dir, state.db, ...) against the spec',
    load: async () => (await import('./verify.ts')).verifyCommand,
  },
  {
    name: 'instructions',
    summary: 'print what a VM tells a subagent: where and how to write a binding or agent segment, and what to return',
    load: async () => (await import('./instructions.ts')).instructionsCommand,
  },
  {
    name: 'selftest',
    summary: 'run the suite on built-in buggy backends (mutants) and report which ones it catches',
    load: async () => (await import('./selftest.ts')).selftestCommand,
  },
  {
    name: 'bench',
    summary: 'benchmark fingerprinting, receipts and backends against same-run limits and peers',
    load: async () => (await import('./bench.ts')).benchCommand,
  },
  {
    name: 'sqlite3',
    summary: 'run SQL on a state.db like the sqlite3 CLI (list and -json output)',
    load: async () => (await import('./sqlite3.ts')).sqlite3Command,
  },
  {
    name: 'worker',
    summary: 'run a write workload on a backend (the child process of the crash and concurrency areas)',
    load: async () => (await import('./worker.ts')).workerCommand,
  },
  {
    name: 'case-worker',
    summary: 'run the cases the runner sends (the child process of test --jobs N above 1)',
    load: async () => (await import('./case-worker.ts')).caseWorkerCommand,
  },
];
