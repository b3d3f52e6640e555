import { isSkipped, type ScaleBackend, type ScaleResult } from './bench-report.ts';
import { table } from './markdown-table.ts';
import { SCALE_OPS } from './scale-ops.ts';

const ms = (n: number) => (n < 1 ? n.toFixed(3) : n < 10 ? n.toFixed(2) : n.toFixed(1));

/**
 * `bench --scale` as text: per backend, each operation's median at every size, its growth (largest / smallest) and
 * its fitted exponent; then what the process held and how long growing took.
 */
export function formatScale(scale: ScaleResult | { skipped: string }): string[] {
  if (isSkipped(scale)) return [`Scale: skipped (${scale.skipped})`, ''];
  const out = [
    `Scale: median ms per operation as one run grows (${scale.samples} samples per size; growth = largest / smallest;`,
    'exponent = log-log slope, 0 flat, 1 linear in the run)',
    '',
  ];
  for (const b of scale.backends) {
    if (isSkipped(b)) {
      out.push(`${b.name}: ${b.failed ? 'FAILED' : 'skipped'}: ${b.skipped}`, '');
      continue;
    }
    out.push(`${b.name}${b.spec ? ` (${b.spec})` : ''}`, '', scaleTable(b), '');
    out.push(
      `held: ${b.points.map((p) => `${p.heldMiB.toFixed(1)} MiB at ${p.size}`).join(', ')}; ` +
        `growing took ${b.points.map((p) => `${(p.growMs / 1000).toFixed(1)} s`).join(' + ')}`,
    );
    for (const [op, why] of Object.entries(b.unsupported ?? {})) out.push(`${op} not timed: ${why}`);
    if (b.unreached) out.push(`not reached: ${b.unreached.sizes.join(', ')} (${b.unreached.reason})`);
    out.push('');
  }
  return out;
}

function scaleTable(b: ScaleBackend): string {
  const ops = SCALE_OPS.filter((op) => b.points[0]?.ops[op] !== undefined);
  return table(
    ['operation', ...b.points.map((p) => `at ${p.size}`), 'growth', 'exponent'],
    ops.map((op) => [
      op,
      ...b.points.map((p) => ms(p.ops[op]!.ms)),
      b.growth[op] === undefined ? '-' : `${b.growth[op]!.toFixed(2)}x`,
      b.exponents[op] === undefined ? '-' : b.exponents[op]!.toFixed(2),
    ]),
  );
}
