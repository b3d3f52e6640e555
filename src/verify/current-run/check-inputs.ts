import { join } from 'node:path';
import type { RunSink } from './run-sink.ts';
import { isKind } from '../kit/is-kind.ts';
import { listNames } from './list-names.ts';
import { readBytes } from './read-bytes.ts';
import { checkUpstream } from './check-upstream.ts';
import type { VmLog } from './read-vm-log.ts';
import { splitLines } from './text-lines.ts';

type Sink = RunSink;
const CALLER = 'world-model/caller';

/**
 * Caller inputs (fs "Caller / Gateway Input Files"): each world-model/caller/{name}.md has the input header, and
 * each is bound in vm.log.md by `N→ [input] name ✓`, and the other way round; run-typed inputs are the header's
 * `upstream:`.
 */
export function checkInputs(run: string, log: VmLog | undefined, sink: Sink): void {
  const files = callerFiles(run);
  const runInputs = files.flatMap((name) => checkCallerFile(run, name, sink));
  if (log === undefined) return;
  checkUpstream(log.header.upstream, runInputs, sink);
  const bound = new Set<string>();
  for (const m of log.markers) {
    if (m.kind !== 'input') continue;
    bound.add(m.name);
    if (!files.includes(m.name))
      sink.add('vmlog.input', `line ${m.line} binds input ${m.name}, but ${CALLER}/${m.name}.md is missing`, {
        file: 'vm.log.md',
        line: m.line,
      });
  }
  for (const name of files)
    if (!bound.has(name))
      sink.add('vmlog.input', `${CALLER}/${name}.md has no "[input] ${name} ✓" marker in vm.log.md`, {
        file: `${CALLER}/${name}.md`,
      });
}

function callerFiles(run: string): string[] {
  const dir = join(run, CALLER);
  if (!isKind(dir, 'dir')) return [];
  return listNames(dir)
    .filter((n) => n.endsWith('.md'))
    .map((n) => n.slice(0, -3));
}

/** Checks one caller input; returns the run ids it names when it is run-typed. */
function checkCallerFile(run: string, name: string, sink: Sink): string[] {
  const file = `${CALLER}/${name}.md`;
  const fail = (message: string, line?: number): string[] => (sink.add('wm.caller', message, { file, line }), []);
  const read = readBytes(join(run, file), sink.maxFileBytes);
  if ('refused' in read) return [];
  if ('error' in read) return fail(`${file} ${read.error}`);
  const lines = splitLines(read.bytes).lines;
  const bad = lines.find((l) => l.text === undefined);
  if (bad) return fail(`line ${bad.n} is not UTF-8`, bad.n);
  const texts = lines.map((l) => l.text!);
  if (texts[0] !== `# ${name}`) return fail(`line 1 is not "# ${name}"`, 1);
  const end = texts.indexOf('---');
  if (end < 0) return fail('no "---" line ends the header');
  const header = new Map<string, { value: string; line: number }>();
  texts.slice(1, end).forEach((t, i) => {
    const m = /^([a-z_]+): (.*)$/.exec(t);
    if (m) header.set(m[1]!, { value: m[2]!, line: i + 2 });
    else if (t.trim() !== '')
      sink.add('wm.caller', `line ${i + 2} is not a "key: value" header line`, { file, line: i + 2 });
  });
  for (const [key, want] of [
    ['binding', 'input'],
    ['source', 'caller'],
  ] as const)
    if (header.get(key)?.value !== want)
      sink.add('wm.caller', `the header needs "${key}: ${want}"`, { file, line: header.get(key)?.line });
  const type = header.get('type');
  if (type && type.value !== 'run' && type.value !== 'run[]')
    sink.add('wm.caller', `type is ${JSON.stringify(type.value)}, not run or run[]`, { file, line: type.line });
  if (!type) return [];
  // fs "Run-Typed Inputs": the body is "run: {id}" (run) or a list of "- run: {id}" items (run[]).
  return texts.slice(end + 1).flatMap((t) => /^(?:- )?run: (\S+)$/.exec(t.trim())?.[1] ?? []);
}
