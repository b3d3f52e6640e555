import type { Command } from '../io.ts';
import { backendsCommand } from './backends.ts';
import { fingerprintCommand } from './fingerprint.ts';
import { instructionsCommand } from './instructions.ts';
import { selftestCommand } from './selftest.ts';
import { verifyCommand } from './verify.ts';
import { workerCommand } from './worker.ts';
import { testCommand } from './test.ts';

/** Every subcommand; `main` dispatches on the first word. */
export const COMMANDS: Command[] = [testCommand, backendsCommand, fingerprintCommand, verifyCommand, instructionsCommand, selftestCommand, workerCommand];
