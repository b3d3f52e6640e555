// Runs the sqlite3 shim command as a process, for `prose-state sqlite3` while the CLI does not list it yet.
import { sqlite3Command } from '../../../src/cli/commands/sqlite3.ts';

process.exitCode = await sqlite3Command.run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
