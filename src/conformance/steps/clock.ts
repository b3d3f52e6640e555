import type { Node } from 'yaml';
import type { SourcePos } from '../source-pos.ts';
import { caseError, checkKeys, toJs } from '../case-yaml.ts';
import { interpolate } from '../template.ts';
import { StepFailure, type StepKind } from './step-kind.ts';

/**
 * `clock: NAME` saves the harness's own reading of the time (ms since the epoch, which no time zone shifts) as
 * `${NAME}`; `clock: {instant: VALUE, from: NAME, to: NAME}` checks that VALUE, a UTC instant the backend wrote, lies
 * between two such readings, to the second. A backend that stamps local time where the spec writes UTC keeps the
 * right shape and is hours off, which only a reading taken around the call shows.
 */
export type ClockStep =
  | { kind: 'clock'; pos: SourcePos; save: string }
  | { kind: 'clock'; pos: SourcePos; instant: unknown; from: string; to: string };

const NAME = /^[A-Za-z_]\w*$/;
/** A run id's `YYYYMMDD-HHMMSS` (filesystem.md "Run ID Format") and an RFC 3339 UTC timestamp. */
const RUN_ID = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-[0-9a-f]{6}$/;
const ISO_Z = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?Z$/;

export const clockStep: StepKind<ClockStep> = {
  kind: 'clock',
  key: 'clock',
  load(node, { p, field, pos }) {
    checkKeys(p, node, new Set(['clock']), field);
    const body = toJs(p, node.get('clock', true) as Node);
    if (typeof body === 'string' && NAME.test(body)) return { kind: 'clock', pos, save: body };
    const b = (body ?? {}) as Record<string, unknown>;
    const names = typeof b.from === 'string' && NAME.test(b.from) && typeof b.to === 'string' && NAME.test(b.to);
    if (typeof body !== 'object' || Array.isArray(body) || !names || !('instant' in b) || Object.keys(b).length !== 3)
      throw caseError(
        p.file,
        pos.line,
        'clock takes a variable name (save a reading) or {instant: VALUE, from: NAME, to: NAME} (check one)',
        `${field}.clock`,
      );
    return { kind: 'clock', pos, instant: b.instant, from: b.from as string, to: b.to as string };
  },
  async run(step, { vars }) {
    if ('save' in step) {
      vars[step.save] = Date.now();
      return;
    }
    const value = interpolate(step.instant, vars);
    const [from, to] = [interpolate(`\${${step.from}}`, vars), interpolate(`\${${step.to}}`, vars)];
    const label = `clock ${JSON.stringify(value)} between ${step.from} and ${step.to}`;
    const verdict = judgeInstant(value, from, to);
    if (verdict) throw new StepFailure({ status: 'failed', at: step.pos, step: label, message: verdict, seen: value });
  },
  explain: (step, show) =>
    'save' in step
      ? `clock: save the harness's UTC reading as \${${step.save}}`
      : `clock: ${show(step.instant)} is a UTC instant between readings ${step.from} and ${step.to}, to the second`,
};

/** Why `value` is no UTC instant within [from, to] (whole seconds), or undefined when it is. */
export function judgeInstant(value: unknown, from: unknown, to: unknown): string | undefined {
  if (typeof from !== 'number' || typeof to !== 'number') return 'from and to must name clock readings';
  const m = typeof value === 'string' ? (RUN_ID.exec(value) ?? ISO_Z.exec(value)) : null;
  if (!m) return `${JSON.stringify(value)} is neither a run id's YYYYMMDD-HHMMSS nor a YYYY-MM-DDTHH:MM:SSZ timestamp`;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const at = Date.UTC(y, mo - 1, d, h, mi, s);
  const lo = Math.floor(from / 1000) * 1000;
  const hi = Math.floor(to / 1000) * 1000;
  if (at >= lo && at <= hi) return undefined;
  const off = Math.round((at - (at < lo ? lo : hi)) / 60_000);
  return (
    `${JSON.stringify(value)} reads as ${new Date(at).toISOString()}, but the call ran between ` +
    `${new Date(lo).toISOString()} and ${new Date(hi).toISOString()} (UTC): ${Math.abs(off)} minutes ` +
    `${off < 0 ? 'before' : 'after'}${process.env.TZ ? `; this run's TZ is ${process.env.TZ}: local time where UTC is due?` : ''}`
  );
}
