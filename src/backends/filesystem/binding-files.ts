import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { ProseError } from '../../core/errors.ts';
import { parseBindingFile, type BindingFile } from '../../core/formats/binding-file.ts';
import type { BindingRecord, ExecutionId } from '../../core/model.ts';
import { FileMemo } from './file-memo.ts';
import { SortedListing } from './sorted-listing.ts';
import type { IndexEntries } from './state-md.ts';

const SCOPED_FILE = /^(.+)__([1-9]\d*)\.md$/;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
/** A value up to this size is held with its parsed file; a longer one is read again when listed. */
const HELD_VALUE_BYTES = 4096;

type IndexRow = IndexEntries['bindings'][number];

/** What is memoized of one binding file: the parsed file (its value only when short) and its state.md Index row. */
interface Held {
  file: Omit<BindingFile, 'value'> & { value?: string };
  row: IndexRow;
}

/**
 * A run's `bindings/` directory read as binding records. Listing a run (resume, listBindings, state.md's Index)
 * stats every file but parses only those whose inode, size or times changed since they were last parsed
 * (file-memo.ts), so a binding another writer rewrote in place is read again and the others are not.
 */
export class BindingFiles {
  private readonly memo = new FileMemo<Held>();
  private readonly listing = new SortedListing();

  constructor(private readonly rel: (abs: string) => string) {}

  /** A binding file as written (an attachment's value not read); undefined when there is none. */
  parse(file: string): BindingFile | undefined {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    const text = decodeUtf8(bytes, this.rel(file));
    try {
      return parseBindingFile(text, this.rel(file));
    } catch (err) {
      throw new ProseError('E_CORRUPT', (err as Error).message, { location: (err as ProseError).location, cause: err });
    }
  }

  /** The binding in `file` with its value (an attachment's read from `runDir`); undefined when there is none. */
  record(runDir: string, file: string): BindingRecord | undefined {
    const parsed = this.parse(file);
    return parsed && this.toRecord(runDir, file, parsed);
  }

  /** Every binding of the run, in file name order, each checked against its file's name. */
  list(runDir: string): BindingRecord[] {
    return this.each(runDir, (file, entry) => {
      const held = this.held(file, entry);
      if (!held) return undefined;
      if (held.file.value !== undefined) return this.toRecord(runDir, file, held.file as BindingFile);
      const parsed = this.parse(file);
      if (parsed) checkFileName(entry, parsed, () => this.rel(file));
      return parsed && this.toRecord(runDir, file, parsed);
    });
  }

  /** The Index rows of state.md: one object per binding file, the same object while the file is unchanged. */
  index(runDir: string): IndexRow[] {
    return this.each(runDir, (file, entry) => this.held(file, entry)?.row);
  }

  clear(): void {
    this.memo.clear();
    this.listing.clear();
  }

  private held(file: string, entry: string): Held | undefined {
    return this.memo.get(file, () => {
      const parsed = this.parse(file);
      if (!parsed) return undefined;
      checkFileName(entry, parsed, () => this.rel(file));
      const { value, ...rest } = parsed;
      const row = { name: parsed.name, kind: parsed.kind, executionId: parsed.executionId };
      return { file: Buffer.byteLength(value, 'utf8') <= HELD_VALUE_BYTES ? parsed : rest, row };
    });
  }

  private toRecord(runDir: string, file: string, parsed: BindingFile): BindingRecord {
    let value = parsed.value;
    if (parsed.attachment !== undefined) {
      if (!/^attachments\/[^/]+$/.test(parsed.attachment))
        throw new ProseError(
          'E_CORRUPT',
          `attachment path ${JSON.stringify(parsed.attachment)} is not under attachments/`,
          { location: { file: this.rel(file) } },
        );
      try {
        value = readFileSync(join(runDir, parsed.attachment), 'utf8');
      } catch {
        throw new ProseError('E_CORRUPT', `attachment ${parsed.attachment} is missing`, {
          location: { file: this.rel(file) },
        });
      }
    }
    return {
      name: parsed.name,
      kind: parsed.kind,
      value,
      executionId: parsed.executionId,
      ...(parsed.source ? { source: parsed.source } : {}),
      attached: parsed.attachment !== undefined,
    };
  }

  private each<T>(runDir: string, read: (file: string, entry: string) => T | undefined): T[] {
    const dir = join(runDir, 'bindings');
    if (!existsSync(dir)) return [];
    const out: T[] = [];
    for (const entry of this.listing.names(dir)) {
      if (entry.startsWith('.') || !entry.endsWith('.md')) continue; // temp files of writes in flight
      const v = read(`${dir}${sep}${entry}`, entry); // path.join's normalizing cost more than the stat, per file
      if (v !== undefined) out.push(v);
    }
    return out;
  }
}

/** Bytes that are not UTF-8 were not written by us: reading them as U+FFFD would hand back a different value. */
function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new ProseError('E_CORRUPT', `${file} is not valid UTF-8`, {
      location: { file },
      hint: 'the file was changed outside the backend; restore it',
    });
  }
}

/** A binding file is named after the binding it holds (`name.md`, or `name__{execution_id}.md` in a frame). */
function checkFileName(entry: string, rec: { name: string; executionId: ExecutionId | null }, rel: () => string): void {
  const scoped = SCOPED_FILE.exec(entry);
  const expectName = scoped ? scoped[1] : entry.slice(0, -3);
  const expectId = scoped ? Number(scoped[2]) : null;
  if (rec.name !== expectName || rec.executionId !== expectId) {
    throw new ProseError(
      'E_CORRUPT',
      `binding file ${entry} holds ${rec.name} (execution_id ${rec.executionId ?? 'root'})`,
      { location: { file: rel() } },
    );
  }
}
