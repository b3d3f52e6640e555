import type { ProgressSink } from '../conformance/progress.ts';
import { escapeTerminal } from '../conformance/reporters/escape-terminal.ts';

/**
 * test's progress on a terminal: one line on stderr, redrawn at most every 100 ms, saying how many cases are done
 * and what the longest step is doing (kills done of total, writes checked). Where stderr is not a terminal (CI
 * logs, pipes, specs) nothing is written at all.
 */
export function progressLine(
  stderr: { write(chunk: string): unknown; isTTY?: boolean },
  total: number,
): { sink: ProgressSink | undefined; caseDone(): void; clear(): void } {
  if (!stderr.isTTY) return { sink: undefined, caseDone: () => undefined, clear: () => undefined };
  let done = 0;
  let last = '';
  let shown = false;
  let drawn = 0;
  const draw = (force = false) => {
    const now = Date.now();
    if (!force && now - drawn < 100) return;
    drawn = now;
    shown = true;
    // The key names a case, which a suite or a backend chose: its control characters are shown, never emitted.
    stderr.write(`\r\x1b[K${done}/${total} cases${last ? `  ${escapeTerminal(last)}` : ''}`.slice(0, 160));
  };
  return {
    sink: {
      kill: (key, k, of) => {
        last = `${key}: kill ${k} of ${of}`;
        draw(k === of);
      },
      writesChecked: (key, writes) => {
        last = `${key}: ${writes} writes checked`;
        draw(true);
      },
    },
    caseDone: () => {
      done++;
      draw(done === total);
    },
    clear: () => {
      if (shown) stderr.write('\r\x1b[K');
      shown = false;
    },
  };
}
