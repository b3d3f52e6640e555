import type { RunSink } from './run-sink.ts';

type Sink = RunSink;

/**
 * fs "Format" and prose.md "Event Store": `upstream:` lists the run ids of all run-typed inputs and is omitted when
 * there are none. `fromInputs` are the `run:` ids of world-model/caller/ files with `type: run` or `type: run[]`.
 */
export function checkUpstream(
  upstream: readonly string[] | undefined,
  fromInputs: readonly string[],
  sink: Sink,
): void {
  const where = { file: 'vm.log.md', line: upstream === undefined ? 1 : 2 };
  if (upstream === undefined) {
    if (fromInputs.length > 0)
      sink.add(
        'vmlog.upstream',
        `run-typed inputs name ${fromInputs.join(', ')}, but the header has no upstream:`,
        where,
      );
    return;
  }
  const missing = fromInputs.filter((id) => !upstream.includes(id));
  const extra = upstream.filter((id) => !fromInputs.includes(id));
  if (missing.length > 0) sink.add('vmlog.upstream', `upstream: leaves out ${missing.join(', ')}`, where);
  if (extra.length > 0)
    sink.add('vmlog.upstream', `upstream: lists ${extra.join(', ')}, which no run-typed input names`, where);
}
