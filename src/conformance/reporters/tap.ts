import type { CapabilityVerdict } from '../probes/capability-verdict.ts';
import type { Outcome } from '../outcome.ts';
import { isFailure, notExercised } from './claims.ts';
import type { Reporter, Write } from './reporter.ts';
import { notJudgedLine } from '../edition-runs.ts';
import { cutShortNote, quickNote } from './run-notes.ts';
import { unreachable } from '../unreachable.ts';
import { escapeTapDescription, escapeTapLine as line } from './escape-tap.ts';

/**
 * TAP 14. Expected failures are `# TODO`; an unexpected pass is `not ok`, since it needs a person's attention.
 * Each capability probe is a test point too: a contradicted claim or an errored probe is `not ok`, an unprobed
 * capability (or an undeclared one with nothing to refuse) is `# SKIP` with its reason.
 */
export function tapReporter(write: Write): Reporter {
  let n = 0;
  write('TAP version 14\n');
  return {
    header: (h) =>
      write(
        `# backend ${line(h.backend.name)}: edition ${line(h.edition)}, ${h.cases} cases, ` +
          `suite ${line(h.suite.name)} ${line(h.suite.version)}` +
          `${h.probes === 'skipped' ? '; capability probes skipped (--no-probe)' : ''}\n${quickNote(h) ? `# ${line(quickNote(h)!)}\n` : ''}`,
      ),
    notJudged: (n) => write(`# backend ${line(notJudgedLine(n))}\n`),
    capabilities: (r) => {
      for (const v of r.verdicts) {
        n += 1;
        write(claimLine(n, `${r.backend} capability ${v.capability}`, v));
      }
    },
    result: (r) => {
      n += 1;
      const name = `${r.backend} ${r.id}`;
      write(tapLine(n, name, r.outcome));
    },
    footer: (backend, c, extra) =>
      write(
        `# ${line(backend)}: ${c.passed} passed, ${c.failed} failed, ${c.errored} errored, ${c.skipped} skipped, ` +
          `${c.xfailed} xfailed, ${c.xpassed} xpassed\n${cutShortNote(extra) ? `# ${line(cutShortNote(extra)!)}\n` : ''}`,
      ),
    finish: () => write(`1..${n}\n`),
  };
}

function tapLine(n: number, raw: string, o: Outcome): string {
  const name = escapeTapDescription(raw);
  switch (o.status) {
    case 'passed':
      return `ok ${n} - ${name}\n`;
    case 'skipped':
      return `ok ${n} - ${name} # SKIP ${line(o.reason)}\n`;
    case 'xfailed':
      return `not ok ${n} - ${name} # TODO ${line(o.reason)}\n`;
    case 'xpassed':
      return `not ok ${n} - ${name}\n${diag({ message: `unexpected pass: expected to fail (${o.reason})` })}`;
    case 'failed':
      return `not ok ${n} - ${name}\n${diag({ message: o.message, at: `${o.at.file}:${o.at.line}`, step: o.step })}`;
    case 'errored':
      return `not ok ${n} - ${name}\n${diag({
        message: `errored: ${o.error.code}: ${o.error.message}`,
        ...(o.at ? { at: `${o.at.file}:${o.at.line}` } : {}),
      })}`;
    default:
      return unreachable(o, 'outcome');
  }
}

function claimLine(n: number, raw: string, v: CapabilityVerdict): string {
  const name = escapeTapDescription(raw);
  if (v.verdict === 'unprobed' || notExercised(v))
    return `ok ${n} - ${name} # SKIP ${v.verdict === 'unprobed' ? 'unprobed: ' : ''}${line(v.detail ?? '')}\n`;
  if (v.verdict === 'ok') return `ok ${n} - ${name}\n`;
  const message = isFailure(v) ? `contradicted claim: ${v.verdict}` : 'errored: the probe could not tell';
  return `not ok ${n} - ${name}\n${diag({ message, verdict: v.verdict, declared: String(v.declared), detail: v.detail ?? '' })}`;
}

function diag(fields: Record<string, string>): string {
  // JSON strings are YAML double-quoted scalars; NEL, LS and PS are spelled as escapes, since YAML 1.1 breaks lines there.
  const quoted = (v: string) =>
    JSON.stringify(v).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const lines = Object.entries(fields).map(([k, v]) => `  ${k}: ${quoted(v)}`);
  return `  ---\n${lines.join('\n')}\n  ...\n`;
}
