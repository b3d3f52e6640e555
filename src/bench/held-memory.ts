import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * This process's heap and off-heap memory after a full collection, in MiB: what a backend instance holds, not what
 * it allocated on the way. `--expose-gc` is set at run time, so the CLI needs no flag for it.
 */
export function heldMiB(): number {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
  collect();
  const m = process.memoryUsage();
  return (m.heapUsed + m.external + m.arrayBuffers) / (1 << 20);
}
