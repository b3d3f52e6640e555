import { parseArgs } from 'node:util';
import { ProseError } from '../core/errors.ts';

export type OptionSpec = Record<
  string,
  { type: 'string' | 'boolean'; multiple?: boolean; short?: string; env?: string }
>;

/**
 * Parses a command's argv strictly: an unknown option is a usage error quoting it. Options with an `env` twin
 * take their value from the environment when the flag is absent.
 */
export function parseOptions<S extends OptionSpec>(argv: string[], spec: S, env: Record<string, string | undefined>) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: spec as never, allowPositionals: true, strict: true });
  } catch (err) {
    throw new ProseError('E_USAGE', (err as Error).message.replace(/\. To specify a positional argument.*$/s, ''), {
      hint: 'see --help',
    });
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  for (const [name, o] of Object.entries(spec)) {
    const fromEnv = o.env ? env[o.env] : undefined;
    if (values[name] === undefined && fromEnv !== undefined && fromEnv !== '') {
      values[name] =
        o.type === 'boolean' ? fromEnv !== '0' && fromEnv !== 'false' : o.multiple ? fromEnv.split(',') : fromEnv;
    }
  }
  return { values, positionals: parsed.positionals };
}
