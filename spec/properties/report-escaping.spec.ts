import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeMarkdown } from '../../src/conformance/reporters/escape-markdown.ts';
import { escapeTapDescription, escapeTapLine } from '../../src/conformance/reporters/escape-tap.ts';
import { escapeTerminal } from '../../src/conformance/reporters/escape-terminal.ts';
import { escapeXml } from '../../src/conformance/reporters/escape-xml.ts';
import { githubReporter } from '../../src/conformance/reporters/github.ts';
import { junitReporter } from '../../src/conformance/reporters/junit.ts';
import { markdownReporter } from '../../src/conformance/reporters/markdown.ts';
import { prettyReporter } from '../../src/conformance/reporters/pretty.ts';
import type { Reporter, Write } from '../../src/conformance/reporters/reporter.ts';
import { tapReporter } from '../../src/conformance/reporters/tap.ts';
import { feed, reportText } from './_hostile-run.ts';

// Issue #34: whatever a plugin returns, each report stays readable in its format and data cannot act in it.
const RUNS = 100;

/** The whole report a reporter writes for the hostile run holding `s`. */
function report(make: (write: Write) => Reporter, s: string): string {
  let out = '';
  feed(
    make((chunk) => void (out += chunk)),
    s,
  );
  return out;
}

// Python's parser, one process for the whole batch: for each document, null when it parses, else the parse error,
// and the name of the first testcase as read back.
const PARSE_XML = `
import json, sys, xml.etree.ElementTree as ET
out = []
for doc in json.load(sys.stdin):
    try:
        root = ET.fromstring(doc.encode('utf-8', 'surrogatepass'))
        out.append([None, root.find('./testsuite/testcase').get('classname')])
    except Exception as e:
        out.append([str(e), None])
print(json.dumps(out))
`;

test('JUnit XML parses with xml.etree whatever the data, and names read back as written (U+FFFD for what XML cannot hold)', () => {
  const strings = fc.sample(reportText, RUNS);
  const docs = strings.map((s) => report(junitReporter, s));
  const py = spawnSync('python3', ['-c', PARSE_XML], { input: JSON.stringify(docs), encoding: 'utf8' });
  assert.is(py.status, 0, py.stderr);
  const parsed = JSON.parse(py.stdout) as [string | null, string | null][];
  parsed.forEach(([error, classname], i) => {
    const s = strings[i]!;
    assert.is(error, null, `${JSON.stringify(s)}: ${error}`);
    // An attribute's line breaks and tabs read back as spaces (XML attribute normalisation).
    const unescaped = escapeXml(s)
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    assert.is(classname, `${unescaped}.${unescaped}`.replace(/\r\n?/g, '\n').replace(/[\t\n]/g, ' '));
  });
});

/** What a TAP 14 consumer makes of a line of this report: anything but these would be read as data's own line. */
function tapKind(line: string, inYaml: boolean): string {
  if (inYaml) return line === '  ...' ? 'yaml-end' : /^ {2}[a-z]+: ".*"$/.test(line) ? 'yaml' : 'FORGED';
  if (line === 'TAP version 14' || /^1\.\.\d+$/.test(line)) return 'plan';
  if (line.startsWith('# ')) return 'comment';
  if (line === '  ---') return 'yaml-start';
  if (/^(not )?ok \d+ - /.test(line)) return 'test';
  return line === '' ? 'end' : 'FORGED';
}

test('TAP: every line is the plan, a comment, a test point or its YAML block, and data adds no directive', () => {
  fc.assert(
    fc.property(reportText, (s) => {
      const lines = report(tapReporter, s).split('\n');
      let inYaml = false;
      const tests: string[] = [];
      for (const line of lines) {
        const kind = tapKind(line, inYaml);
        assert.is.not(kind, 'FORGED', JSON.stringify(line));
        if (kind === 'yaml') JSON.parse(line.slice(line.indexOf(': ') + 2));
        if (kind === 'test') tests.push(line);
        inYaml = kind === 'yaml-start' || (inYaml && kind !== 'yaml-end');
      }
      // Four claims and six cases, numbered 1..10; only the skips and the expected failure carry a directive.
      assert.equal(
        tests.map((t) => Number(/^(?:not )?ok (\d+)/.exec(t)![1])),
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      );
      const directives = tests.map((t) => /[^\\](?:\\\\)*# (SKIP|TODO)/.exec(t.replace(/^(not )?ok \d+ - /, ' '))?.[1]);
      assert.equal(directives, [
        undefined,
        undefined,
        'SKIP',
        'SKIP',
        undefined,
        undefined,
        'SKIP',
        undefined,
        'TODO',
        undefined,
      ]);
    }),
    { numRuns: RUNS },
  );
});

test('TAP escapes keep text on one line', () => {
  fc.assert(
    fc.property(reportText, (s) => {
      assert.not.match(escapeTapLine(s), /[\n\r]/);
      assert.not.match(escapeTapDescription(s), /(^|[^\\])(\\\\)*#/);
    }),
    { numRuns: RUNS },
  );
});

// eslint-disable-next-line no-control-regex
const TERMINAL_CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/;

test('pretty: no control character but the newline reaches the terminal, ESC and CSI included', () => {
  fc.assert(
    fc.property(reportText, (s) => {
      assert.not.match(escapeTerminal(s), TERMINAL_CONTROL);
      const out = report((w) => prettyReporter(w, { verbose: true }), s);
      assert.not.match(out, TERMINAL_CONTROL, JSON.stringify(out));
    }),
    { numRuns: RUNS },
  );
});

test('Markdown: no `<` from data survives, and data starts no line of its own', () => {
  fc.assert(
    fc.property(reportText, (s) => {
      assert.not.match(escapeMarkdown(s), /[<>\n\r]/);
      // The report's own HTML is its anchors; every other `<` would be data's.
      const out = report(markdownReporter, s).replace(/<a id="[a-z0-9-]*"><\/a>/g, '');
      assert.not.ok(out.includes('<'), JSON.stringify(out));
      for (const line of out.split('\n')) assert.not.match(line, /^(Bail|::|ok |<)/);
    }),
    { numRuns: RUNS },
  );
});

test('GitHub: every line is an ::error command or the count line, so data starts no command of its own', () => {
  fc.assert(
    fc.property(reportText, (s) => {
      const lines = report((w) => githubReporter(w), s).split('\n');
      assert.is(lines.pop(), '');
      // One contradicted claim, then the failed, errored and unexpectedly passing cases.
      assert.is(lines.filter((l) => l.startsWith('::error ')).length, 4, JSON.stringify(lines));
      assert.is(lines.length, 5);
      assert.match(lines[4]!, /^conformance: 1 passed, 2 failed, 1 errored, 2 skipped$/);
    }),
    { numRuns: RUNS },
  );
});

test.run();
