import { ProseError } from '../core/errors.ts';

/**
 * The default of a switch over a closed union: the compiler refuses it while a member has no case, so a new member
 * (a storage kind, an outcome) cannot fall through silently; at run time a value outside the union errors, naming it.
 */
export function unreachable(value: never, what: string): never {
  throw new ProseError('E_CASE', `unknown ${what} ${JSON.stringify(value)}`);
}
