#!/usr/bin/env node
// CI's stages and its time budget (.ci/run; docs/running.md). A run past 90 minutes is a failed CI run whatever it
// checked, so the project keeps its own, lower budget here, in this one place, and fails the run that passes it:
//
//   node scripts/ci-budget.mjs start LEDGER                the run starts now (a new ledger)
//   node scripts/ci-budget.mjs stage LEDGER NAME -- CMD... runs CMD, adds its wall time to stage NAME, exits as CMD
//   node scripts/ci-budget.mjs report LEDGER               each stage's time and the total; exit 1 past the budget
//
// The ledger is a file of JSON lines, one per event. `report --budget-minutes M` replaces the budget for one report:
// spec/ci/ci-budget.spec.ts uses it to show a deliberately slowed fake run failing; .ci/run never passes it.
// Plain Node (no TypeScript, nothing installed): CI runs it before `npm ci` and on the machine's own Node.
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';

/** The budget of a whole `.ci/run`, in minutes: 50 of the 90 after which CI counts a run as failed. */
const BUDGET_MINUTES = 50;

const now = () => Date.now() / 1000;
const add = (ledger, event) => appendFileSync(ledger, JSON.stringify(event) + '\n');

function stage(ledger, name, command) {
  const started = now();
  const run = spawnSync(command[0], command.slice(1), { stdio: 'inherit' });
  const status = run.error ? 127 : (run.status ?? 128 + (constants.signals[run.signal] ?? 0));
  add(ledger, { stage: name, seconds: Math.round((now() - started) * 10) / 10, status });
  if (run.error) console.error(`ci-budget: could not start ${command[0]}: ${run.error.message}`);
  return status;
}

const clock = (s) => `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`;

/** The report's lines and whether the run kept to the budget, from the ledger's events and the time now. */
function judge(events, end, budgetMinutes = BUDGET_MINUTES) {
  const start = events.find((e) => e.start !== undefined)?.start ?? end;
  const stages = new Map();
  for (const e of events.filter((x) => x.stage)) {
    const seen = stages.get(e.stage) ?? { seconds: 0, failed: false };
    stages.set(e.stage, { seconds: seen.seconds + e.seconds, failed: seen.failed || e.status !== 0 });
  }
  const total = end - start;
  const other = total - [...stages.values()].reduce((a, b) => a + b.seconds, 0);
  const row = (label, s, note = '') => `ci: ${label.padEnd(16)} ${clock(s).padStart(7)}${note}`;
  const lines = [...stages].map(([name, s]) => row(`stage ${name}`, s.seconds, s.failed ? '  (failed)' : ''));
  lines.push(row('between stages', Math.max(0, other)));
  lines.push(row('total', total, ` of a ${budgetMinutes}-minute budget`));
  const over = total > budgetMinutes * 60;
  if (over) {
    const [slowest] = [...stages].sort((a, b) => b[1].seconds - a[1].seconds);
    lines.push(
      `ci: FAILED: the run took ${clock(total)}, past its budget of ${budgetMinutes} minutes` +
        (slowest ? ` (the longest stage: ${slowest[0]}, ${clock(slowest[1].seconds)})` : '') +
        '; the budget is BUDGET_MINUTES in scripts/ci-budget.mjs (docs/running.md says what each stage costs)',
    );
  }
  return { lines, over };
}

function report(ledger, args) {
  const at = args.indexOf('--budget-minutes');
  const budget = at < 0 ? BUDGET_MINUTES : Number(args[at + 1]);
  if (!(budget > 0)) return usage(`--budget-minutes takes a number of minutes above 0, got ${args[at + 1]}`);
  const events = readFileSync(ledger, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const { lines, over } = judge(events, now(), budget);
  console.log(lines.join('\n'));
  return over ? 1 : 0;
}

function usage(message) {
  console.error(
    `ci-budget: ${message}\nusage: ci-budget.mjs start LEDGER | stage LEDGER NAME -- CMD... | report LEDGER`,
  );
  return 2;
}

function main([verb, ledger, ...rest]) {
  if (!ledger) return usage('no ledger file given');
  if (verb === 'start') return (writeFileSync(ledger, JSON.stringify({ start: now() }) + '\n'), 0);
  if (verb === 'report') return report(ledger, rest);
  if (verb !== 'stage') return usage(`unknown command ${JSON.stringify(verb)}`);
  const [name, dashes, ...command] = rest;
  if (!name || dashes !== '--' || !command.length) return usage('stage takes NAME -- CMD...');
  return stage(ledger, name, command);
}

process.exitCode = main(process.argv.slice(2));
