import { main } from '../../src/cli/main.ts';
import { captureIo } from './temp-suite.ts';

/** Runs the CLI in-process; the exit code and what it wrote. */
export async function runCli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const c = captureIo();
  const code = await main(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}
