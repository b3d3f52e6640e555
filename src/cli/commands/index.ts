import type { Command } from '../io.ts';
import { backendsCommand } from './backends.ts';
import { benchCommand } from './bench.ts';
import { fingerprintCommand } from './fingerprint.ts';
import { instructionsCommand } from './instructions.ts';
import { selftestCommand } from './selftest.ts';
import { sqlite3Command } from './sqlite3.ts';
import { verifyCommand } from './verify.ts';
import { workerCommand } from './worker.ts';
import { testCommand } from './test.ts';

/** Every subcommand; `main` dispatches on the first word. */
export const COMMANDS: Command[] = [testCommand, backendsCommand, fingerprintCommand, verifyCommand, instructionsCommand, selftestCommand, benchCommand, sqlite3Command, workerCommand];
