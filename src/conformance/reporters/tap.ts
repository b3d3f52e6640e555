import type { Outcome } from '../outcome.ts';
import type { Reporter, Write } from './reporter.ts';

/** TAP 14. Expected failures are `# TODO`; an unexpected pass is `not ok`, since it needs a person's attention. */
export function tapReporter(write: Write): Reporter {
  let n = 0;
  write('TAP version 14\n');
  return {
    header: (h) => write(`# backend ${h.backend.name}: ${h.cases} cases, suite ${h.suite.name} ${h.suite.version}\n`),
    result: (r) => {
      n += 1;
      const name = `${r.backend} ${r.id}`;
      write(tapLine(n, name, r.outcome));
    },
    footer: (backend, c) => write(`# ${backend}: ${c.passed} passed, ${c.failed} failed, ${c.errored} errored, ${c.skipped} skipped, ${c.xfailed} xfailed, ${c.xpassed} xpassed\n`),
    finish: () => write(`1..${n}\n`),
  };
}

function tapLine(n: number, name: string, o: Outcome): string {
  switch (o.status) {
    case 'passed': return `ok ${n} - ${name}\n`;
    case 'skipped': return `ok ${n} - ${name} # SKIP ${o.reason}\n`;
    case 'xfailed': return `not ok ${n} - ${name} # TODO ${o.reason}\n`;
    case 'xpassed': return `not ok ${n} - ${name}\n${diag({ message: `unexpected pass: expected to fail (${o.reason})` })}`;
    case 'failed': return `not ok ${n} - ${name}\n${diag({ message: o.message, at: `${o.at.file}:${o.at.line}`, step: o.step })}`;
    case 'errored': return `not ok ${n} - ${name}\n${diag({ message: `errored: ${o.error.code}: ${o.error.message}`, ...(o.at ? { at: `${o.at.file}:${o.at.line}` } : {}) })}`;
  }
}

function diag(fields: Record<string, string>): string {
  const lines = Object.entries(fields).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`);
  return `  ---\n${lines.join('\n')}\n  ...\n`;
}
