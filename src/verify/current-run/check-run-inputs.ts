import { basename, dirname, join } from 'node:path';
import { isRunId } from '../../core/run-id.ts';
import { isKind } from '../kit/owned-files.ts';
import { listNames } from './list-names.ts';
import { readBytes } from './read-bytes.ts';
import type { RunSink } from './run-sink.ts';
import { splitLines } from './text-lines.ts';

type Sink = RunSink;
const CALLER = 'world-model/caller';

/** One `run:` item of a run-typed input's body, with the fields under it and the line it starts on. */
interface RunItem {
  line: number;
  fields: Map<string, string>;
}

/**
 * fs "Run-Typed Inputs": the body of a `type: run` input is one run, of `type: run[]` a list of `- run:` items,
 * each with `path:`, `root:`, `status:`. A bare id resolves to `<openprose-root>/runs/{id}`: when this run sits in
 * a runs/ directory and the named run is beside it, `status: complete` is held against that run's vm.log.md.
 * The header's own shape is wm.caller's (check-inputs.ts); this reads only the body.
 */
export function checkRunInputs(run: string, sink: Sink): void {
  const dir = join(run, CALLER);
  if (!isKind(dir, 'dir')) return;
  for (const name of listNames(dir).filter((n) => n.endsWith('.md'))) {
    const file = `${CALLER}/${name}`;
    const read = readBytes(join(run, file), sink.maxFileBytes);
    if (!('bytes' in read)) continue; // wm.caller reports it
    const texts = splitLines(read.bytes).lines.map((l) => l.text ?? '');
    const end = texts.indexOf('---');
    const type = texts.slice(1, end < 0 ? 0 : end).find((t) => t.startsWith('type: '));
    if (end < 0 || (type !== 'type: run' && type !== 'type: run[]')) continue;
    const add = (message: string, line?: number) => sink.add('wm.caller-run', message, { file, line });
    const items = readItems(texts, end + 1);
    if (items.length === 0) add(`the ${type} input names no "run: {id}"`);
    if (type === 'type: run' && items.length > 1)
      add(`a type: run input names ${items.length} runs; run[] is a list`, items[1]!.line);
    for (const item of items) checkItem(run, item, sink.maxFileBytes, add);
  }
}

/** The items of the body: each starts at a `run:` (or `- run:`) line; `key: value` lines after it are its fields. */
function readItems(texts: readonly string[], from: number): RunItem[] {
  const items: RunItem[] = [];
  for (let i = from; i < texts.length; i++) {
    const m = /^\s*(-\s+)?([a-z_]+):\s*(.*)$/.exec(texts[i]!);
    if (!m) continue;
    if (m[2] === 'run') items.push({ line: i + 1, fields: new Map([['run', m[3]!.trim()]]) });
    else items.at(-1)?.fields.set(m[2]!, m[3]!.trim());
  }
  return items;
}

function checkItem(run: string, item: RunItem, maxBytes: number, add: (message: string, line?: number) => void): void {
  const id = item.fields.get('run')!;
  // fs "Resolution order": "~/{id}" is user scope and an absolute path is used as-is: neither is in this tree.
  if (id.startsWith('~/') || id.startsWith('/')) return;
  if (!isRunId(id))
    return add(`"run: ${id}" is not a run id {YYYYMMDD}-{HHMMSS}-{random6}, "~/{id}" or a path`, item.line);
  const path = item.fields.get('path');
  if (path !== undefined && path !== `<openprose-root>/runs/${id}` && !path.endsWith(`/runs/${id}`))
    add(`run ${id} has path ${JSON.stringify(path)}, not <openprose-root>/runs/${id}`, item.line);
  if (basename(dirname(run)) !== 'runs') return; // a run copied out of its root: nothing beside it to look at
  const named = join(dirname(run), id);
  // A named run no longer under runs/ may have been pruned: only one still there is held to its status.
  if (!isKind(named, 'dir')) return;
  if (item.fields.get('status') === 'complete' && !endsWithEnd(join(named, 'vm.log.md'), maxBytes))
    add(`run ${id} is "status: complete" but its vm.log.md has no ---end line`, item.line);
}

function endsWithEnd(log: string, maxBytes: number): boolean {
  const read = readBytes(log, maxBytes);
  if (!('bytes' in read)) return false;
  return splitLines(read.bytes).lines.some((l) => l.text?.startsWith('---end ') === true);
}
