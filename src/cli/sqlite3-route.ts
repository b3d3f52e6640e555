import { basename } from 'node:path';

/**
 * When the binary runs through a link named `sqlite3`, its arguments are this command's. Pass `process.argv0` (the
 * name as invoked): `process.argv[0]` is the resolved execPath, which never carries the link's name.
 */
export function sqlite3Route(argv0: string, rest: readonly string[]): string[] | undefined {
  const name = basename(argv0).replace(/\.(exe|cmd|js|mjs|ts)$/i, '');
  return name === 'sqlite3' ? ['sqlite3', ...rest] : undefined;
}
