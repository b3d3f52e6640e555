import * as assert from 'uvu/assert';

/** Asserts that `fn` throws a usage error (E_USAGE) whose message matches. */
export function expectUsage(fn: () => unknown, message: RegExp): void {
  try {
    fn();
  } catch (err) {
    assert.is((err as { code?: string }).code, 'E_USAGE');
    assert.match((err as Error).message, message);
    return;
  }
  assert.unreachable('expected a usage error');
}
