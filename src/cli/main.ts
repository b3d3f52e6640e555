import { formatError, ProseError, toProseError } from '../core/errors.ts';
import { COMMANDS } from './commands/index.ts';
import { EXIT, type CliIo } from './io.ts';
import { VERSION } from './version.ts';

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `prose-state ${VERSION}: checks OpenProse state backends against the spec.

Usage: prose-state <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run prose-state <command> --help for a command's options; prose-state --version [--json] for the version.`;
}

/** The CLI, with its streams passed in so it runs in-process in specs. Returns the exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    io.stdout.write(usage() + '\n');
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    // --json adds the runtime, so `bench` can time the binary against a `node -e 0` of the same Node.
    io.stdout.write(
      rest.includes('--json')
        ? `${JSON.stringify({ version: VERSION, node: process.version, platform: `${process.platform}-${process.arch}` })}\n`
        : `prose-state ${VERSION}\n`,
    );
    return EXIT.ok;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    io.stderr.write(`prose-state: unknown command "${name}"\n\n${usage()}\n`);
    return EXIT.usage;
  }
  try {
    const command = await entry.load();
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(command.help + '\n');
      return EXIT.ok;
    }
    return await command.run(rest, io);
  } catch (err) {
    const e = toProseError(err);
    io.stderr.write(`prose-state ${name}: ${formatError(e)}\n`);
    if (!(err instanceof ProseError) && err instanceof Error && io.env.PROSE_STATE_DEBUG)
      io.stderr.write(`${err.stack}\n`);
    return e.code === 'E_USAGE' ? EXIT.usage : EXIT.harness;
  }
}
