import { readFileSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { Backend, BackendFactory, StorageKind } from '../core/backend.ts';
import { ProseError } from '../core/errors.ts';
import { checkEntries, checkHashesTo } from './check-directory.ts';
import { match, show } from './match.ts';
import { interpolate, type Vars } from './template.ts';
import { unreachable } from './unreachable.ts';

/** What a layout step checks (steps/layout.ts reads it from the case). */
export interface LayoutCheck {
  /** The storage kind this check belongs to; on other kinds it is not applicable and is counted as such. */
  storage: Exclude<StorageKind, 'other'>;
  /**
   * A path relative to the project directory (`~/` for the home directory): on directory storage, and on sqlite and
   * postgres for the files beside the database (attachments/).
   */
  file?: string;
  exists?: boolean;
  equals?: unknown;
  contains?: unknown;
  matches?: string;
  /** `file` is a directory holding exactly these entries (dotfiles included), no more, no fewer. */
  entries?: string[];
  /** `file` is a directory whose OPWM1 address (every file but this one) is the text of this file in it. */
  hashesTo?: string;
  /** sqlite: the database file relative to the project directory. */
  db?: string;
  query?: string;
  params?: unknown[];
  rows?: unknown;
}

/**
 * Checks one layout expectation against the backend's storage. Returns 'n/a' when the step is for another
 * storage kind or the backend does not declare `layout:KIND`, undefined when it holds, or the failure message.
 */
export async function checkLayout(
  step: LayoutCheck,
  factory: BackendFactory,
  backend: Backend,
  vars: Vars,
): Promise<string | undefined | 'n/a'> {
  // The kind says what the storage is; only layout:KIND claims it follows the seed's layout and may be read.
  if (factory.kind !== step.storage || !factory.capabilities.includes(`layout:${step.storage}`)) return 'n/a';
  const view = backend.storage?.();
  if (!view || view.kind !== step.storage) {
    return (
      `the backend declares capability layout:${step.storage} but the harness has no ${step.storage} view of its storage` +
      ' (a module plugin returns one from storage(); an exec plugin gets one only for kind directory)'
    );
  }
  const s = interpolate(step, vars) as LayoutCheck;
  switch (view.kind) {
    case 'directory': {
      return checkStored(s, view);
    }
    case 'transcript':
      return checkText(s, await view.text(), 'transcript');
    case 'sqlite': {
      // A file of a SQL-kind run directory (attachments/ beside state.db) is checked as on directory storage.
      if (s.file !== undefined) return checkStored(s, view);
      const rows = await view.query(s.db!, s.query!, s.params ?? []);
      return match(s.rows, rows, `${s.db}: ${s.query}`);
    }
    case 'postgres': {
      if (s.file !== undefined) {
        if (!view.dirs)
          return `the backend keeps files beside its postgres storage but its view names no project directory (StorageView.dirs)`;
        return checkStored(s, view.dirs);
      }
      const rows = await view.query(s.query!, s.params ?? []);
      return match(s.rows, rows, s.query!);
    }
    default:
      return unreachable(view, 'storage view');
  }
}

/** `s.file` checked as text, or as a directory where the step names its `entries` or what it `hashesTo`. */
function checkStored(s: LayoutCheck, dirs: { projectDir: string; homeDir?: string }): string | undefined {
  const path = storagePath(s.file!, dirs);
  if (s.entries === undefined && s.hashesTo === undefined) return checkText(s, readText(path), s.file!);
  const kind = kindAt(path);
  if (kind !== 'dir') return `${s.file} ${kind === 'missing' ? 'does not exist' : 'is not a directory'}`;
  if (s.entries !== undefined) {
    const wrong = checkEntries(path, s.file!, s.entries);
    if (wrong !== undefined) return wrong;
  }
  return s.hashesTo === undefined ? undefined : checkHashesTo(path, s.file!, s.hashesTo);
}

/** A path under the project (or `~/` the home) directory; refuses one that leaves it. */
function storagePath(file: string, dirs: { projectDir: string; homeDir?: string }): string {
  const home = file.startsWith('~/');
  if (home && dirs.homeDir === undefined)
    throw new ProseError('E_CASE', `layout file ${file}: this storage keeps no files in the home directory`);
  const base = resolve(home ? dirs.homeDir! : dirs.projectDir);
  const path = join(base, home ? file.slice(2) : file);
  if (!resolve(path).startsWith(base + sep))
    throw new ProseError('E_CASE', `layout file ${file} is outside the storage`);
  return path;
}

function kindAt(path: string): 'dir' | 'other' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'other';
  } catch {
    return 'missing';
  }
}

/** A file's text; undefined when it does not exist, '' for a directory. */
function readText(path: string): string | undefined {
  try {
    return statSync(path).isDirectory() ? '' : readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function checkText(s: LayoutCheck, text: string | undefined, what: string): string | undefined {
  const exists = s.exists ?? true;
  if (text === undefined) return exists ? `${what} does not exist` : undefined;
  if (!exists) return `${what} exists but should not`;
  if (s.equals !== undefined && text !== s.equals)
    return `${what}: expected exactly ${show(s.equals)}, saw ${show(text)}`;
  if (s.contains !== undefined) {
    const wants = Array.isArray(s.contains) ? s.contains : [s.contains];
    for (const w of wants)
      if (!text.includes(String(w))) return `${what}: expected to contain ${show(w)}, saw ${show(text)}`;
  }
  if (s.matches !== undefined && !new RegExp(s.matches, 'mu').test(text))
    return `${what}: expected to match /${s.matches}/m, saw ${show(text)}`;
  return undefined;
}
