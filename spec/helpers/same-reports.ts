import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';

/** Durations are the one thing a parallel run may change (JSON durationMs, JUnit time="...", "probed in N ms", the HTML case table ms column). */
export const withoutDurations = (text: string) =>
  text
    .replace(/"durationMs":\d+/g, '"durationMs":0')
    .replace(/time="[\d.]+"/g, 'time="0"')
    .replace(/probed in \d+ ms/g, 'probed in 0 ms')
    .replace(/<td class="ms">\d+<\/td>/g, '<td class="ms">0</td>');

/** Two --report-dir directories hold the same files (at least five formats), equal apart from durations. */
export function assertSameReportDirs(actual: string, expected: string): void {
  const files = readdirSync(expected).sort();
  assert.equal(readdirSync(actual).sort(), files);
  assert.ok(files.length >= 5, files.join(', '));
  for (const f of files)
    assert.is(
      withoutDurations(readFileSync(join(actual, f), 'utf8')),
      withoutDurations(readFileSync(join(expected, f), 'utf8')),
      f,
    );
}
