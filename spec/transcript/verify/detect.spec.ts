import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { transcriptVerifier } from '../../../src/verify/transcript/transcript-verifier.ts';

// detect recognises narration of either dialect, and nothing else; verify names the file and lines.
test('detect: verbose and compact narration yes; prose, directories and missing paths no', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'transcript-detect-'));
  try {
    const put = (name: string, text: string) => {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    };
    assert.is(await transcriptVerifier.detect(put('v.md', 'Some chat\n[Position] Statement 1: x\n')), true);
    assert.is(await transcriptVerifier.detect(put('c.md', 'ok\n  1→ research ✓\n2→ ✓\n')), true);
    assert.is(await transcriptVerifier.detect(put('n.md', 'Notes\n#12 fixed the parser\n')), false);
    assert.is(await transcriptVerifier.detect(put('p.md', '# Title\n\nJust prose [with brackets].\n')), false);
    assert.is(await transcriptVerifier.detect(dir), false);
    assert.is(await transcriptVerifier.detect(join(dir, 'missing.md')), false);
    assert.is(transcriptVerifier.kind, 'transcript');
    const findings = await transcriptVerifier.verify(
      put('bad.md', '[Frame+] Entering block: a (execution_id: 1, depth: 1)\n[Program] Program Complete\n'),
      {},
    );
    assert.equal(
      findings.map((f) => [f.rule, f.file, f.line]),
      [['frame.unclosed', 'bad.md', 1]],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
