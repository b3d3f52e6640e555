import { isMap, type Node } from 'yaml';
import { DECISION_CHOICES, type Decisions } from '../core/decisions.ts';
import { caseError, toJs, type Parsed } from './case-yaml.ts';

/** The decisions that are a choice between readings (skipRule, semanticDiff): the only ones a case can be gated on. */
export type ReadingKey = 'skipRule' | 'semanticDiff';
export type Readings = Partial<Pick<Decisions, ReadingKey>>;

/**
 * A `readings:` field (file or case): `{skipRule: before-render}` says the case checks that reading of the decision
 * and runs only when the run pins it. Each key a choice decision, each value one of its readings.
 */
export function readingsOf(p: Parsed, node: Node | undefined, field: string): Readings | undefined {
  if (node === undefined) return undefined;
  const line = node.range ? p.lc.linePos(node.range[0]).line : 1;
  const value = isMap(node) ? (toJs(p, node) as Record<string, unknown>) : null;
  const choices = Object.entries(DECISION_CHOICES);
  if (!value || Object.keys(value).length === 0)
    throw caseError(
      p.file,
      line,
      `"readings" maps a decision to one of its readings, e.g. {skipRule: before-render}`,
      field,
    );
  for (const [key, reading] of Object.entries(value)) {
    const known = choices.find(([k]) => k === key)?.[1];
    if (!known)
      throw caseError(
        p.file,
        line,
        `"readings" names ${JSON.stringify(key)}; known: ${choices.map(([k]) => k).join(', ')}`,
        field,
      );
    if (typeof reading !== 'string' || !known.includes(reading))
      throw caseError(
        p.file,
        line,
        `readings.${key} is one of ${known.join(', ')}, got ${JSON.stringify(reading)}`,
        field,
      );
  }
  return value as Readings;
}

/** Why a case gated on readings does not run under these decisions, if it does not; the reason names the flag. */
export function readingSkip(readings: Readings | undefined, decisions: Decisions): string | undefined {
  for (const [key, reading] of Object.entries(readings ?? {}) as [ReadingKey, string][]) {
    if (decisions[key] !== reading)
      return `checks the ${reading} reading of decision ${key}; this run pins ${decisions[key]} (--decision ${key}=${reading} runs it)`;
  }
  return undefined;
}
