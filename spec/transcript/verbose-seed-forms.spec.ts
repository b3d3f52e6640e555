import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTranscript } from '../../src/transcript/parse-transcript.ts';
import { strip } from './_strip.ts';

// The seed's own ways of narrating bindings read as binds and reads, with the value kept when it is spelled out.
const read = (text: string) => {
  const r = parseTranscript(text);
  assert.equal(r.diagnostics, []);
  return r.events.map(strip);
};

test('Inputs received: block binds each input; output lines bind outputs', () => {
  assert.equal(
    read(
      '[Input] Inputs received:\n   topic = "quantum computing" (from caller)\n   depth = "deep" (from caller)\n[Output] output sources = ["arxiv:2401.1234", ...] (will return to caller)\n',
    ),
    [
      { kind: 'bind', name: 'topic', bindingKind: 'input', value: 'quantum computing' },
      { kind: 'bind', name: 'depth', bindingKind: 'input', value: 'deep' },
      { kind: 'bind', name: 'sources', bindingKind: 'output', value: '["arxiv:2401.1234", ...]' },
    ],
  );
});

test('<result> leaves the value unknown; "a, b bound" binds both; reassignment keeps no kind', () => {
  assert.equal(
    read(
      '[Binding] let research = <result>\n[Binding] a, b bound\n[Binding] research = "Updated research..." (reassignment, was: "AI safety...")\n',
    ),
    [
      { kind: 'bind', name: 'research', bindingKind: 'let' },
      { kind: 'bind', name: 'a' },
      { kind: 'bind', name: 'b' },
      { kind: 'bind', name: 'research', value: 'Updated research...' },
    ],
  );
});

test('an expression after = is kept raw rather than refused', () => {
  assert.equal(read('[Binding] let title = "Part " + n (execution_id: 2)\n'), [
    { kind: 'bind', name: 'title', bindingKind: 'let', value: '"Part " + n', executionId: 2 },
  ]);
});

test('Resolving and "with context:" are reads', () => {
  assert.equal(
    read(
      '[Binding] Resolving \'config\': found in execution_id 41 (parent scope)\n[Position] session "Handle error" with context: err\n',
    ),
    [
      { kind: 'read', names: ['config'] },
      { kind: 'statement', text: 'session "Handle error" with context: err', status: 'executing' },
      { kind: 'read', names: ['err'] },
    ],
  );
});

test.run();
