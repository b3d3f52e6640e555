/** The rows of docs/verify-rules.md's edition table: what the tree holds, the edition, the verifier. */
const ROWS: readonly [string, string, string][] = [
  ['a directory holding `vm.log.md`', 'current', '`current-run`, one run (imports too)'],
  ['a directory holding `state.md` or `state.db` (but for the next row)', 'v0', '`run-dir`'],
  [
    'a directory holding `state.db` and `root.prose.md`, no `program.prose` (a current SQLite run)',
    'current',
    '`current-sql-run`: its state.db by the current columns (`run-dir` with `--edition v0`)',
  ],
  [
    'a directory holding both, or neither but a run file (`root.prose.md`, `program.prose`, `compiled-intent.json`)',
    'none: refused (exit 3) until `--edition` names one',
    '',
  ],
  ['`.prose/`, or a project holding one', 'v0', '`prose-dir`'],
  [
    'a directory holding `runs/` whose runs are current (filesystem or SQLite)',
    'current',
    '`current-run` of the root: every run (a SQLite one by its state.db), then `state/`',
  ],
  ['a directory holding `runs/` whose runs are v0', 'v0', '`prose-dir` (a `.prose/` under another name)'],
  ['a directory holding `runs/` with runs of both editions', 'none: refused until `--edition` names one', ''],
  ['a directory holding `runs/` with no run yet', 'current with a `state/`, v0 without (as before)', ''],
  ['a directory holding `state/world-model/` or `state/agents/`, no `runs/`', 'current', '`current-run` of `state/`'],
  [
    'a transcript (a text file of narration markers)',
    'its first run line: `OpenProse Run Start` or `---end` current, `[Program]` or `OpenProse Program Start` v0; ' +
      'with none, compact markers current and verbose ones v0 (decision `transcript-edition`)',
    '`transcript`, the current edition adding `edition.v0-marker`',
  ],
  [
    'anything else (a SQLite file, a Reactor directory)',
    "the verifier's: `state-db` the edition its columns name; `world-model` v0; `reactor` none",
    'the first verifier whose detection accepts it',
  ],
];

/** docs/verify-rules.md's section on editions (src/verify/edition/tree-edition.ts decides). */
export function renderEditionSection(): string {
  return `## Which edition is judged

Each tree is judged by the text of its own edition (docs/editions.md), and every report says which and how: the text
report on the line before the summary (\`verify: edition current (detected: vm.log.md in the run directory)\`), the
JSON report as \`edition: {edition, source, evidence}\`, \`source\` being \`detected\`, \`given\` (\`--edition\`) or
\`kind\` (implied by \`--kind\`). The marker files decide (src/verify/edition/tree-edition.ts):

| the tree | edition | verified as |
|---|---|---|
${ROWS.map((r) => `| ${r.join(' | ')} |`).join('\n')}

\`--edition v0|current\` overrides the markers (a tree of both is then read as that edition's run or root); with
\`--kind\` it must be the kind's edition. \`--subagent-output\` checks the v0 reply only.`;
}
