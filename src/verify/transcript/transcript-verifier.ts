import { realpathSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Finding, Verifier } from '../finding.ts';
import { readOwnedText, RefusedFile } from '../kit/owned-files.ts';
import { listReport } from '../kit/scan-tree.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../kit/tree-rules.ts';
import { parseTranscript } from '../../transcript/parse-transcript.ts';
import { checkTranscript } from './check-transcript.ts';
import { transcriptEdition, type TranscriptEdition } from './transcript-edition.ts';

/** Larger files are not conversations the seed has in mind (in-context is for < 30 statements). */
const MAX_BYTES = 16 * 1024 * 1024;
const VERBOSE =
  /^\s*\[(?:Program|Position|Binding|Input|Output|Import|Success|Warning|Parallel|Loop|Pipeline|Try|Flow|Frame\+|Frame-|CallStack)\]/m;
// A compact marker alone could be a stray `#12 fixed` in notes: two lines of them make a transcript.
const COMPACT = /^\s*(?:\d+→|∥ |loop:\d|#\d+ \S|---end\b)/gm;

/** Recognises a text file whose lines carry narration markers of either dialect; never throws. */
export async function looksLikeTranscript(path: string): Promise<boolean> {
  try {
    const s = await stat(path);
    if (!s.isFile() || s.size > MAX_BYTES) return false;
    const text = await readFile(path, 'utf8');
    return !text.includes('\0') && (VERBOSE.test(text) || (text.match(COMPACT)?.length ?? 0) >= 2);
  } catch {
    return false;
  }
}

/**
 * The edition a transcript file reads as (src/verify/transcript/transcript-edition.ts), for the report; a file it
 * cannot read is told v0, and `verify` then reports why it was not read.
 */
export async function transcriptEditionOf(path: string): Promise<TranscriptEdition> {
  try {
    return transcriptEdition(parseTranscript(readOwnedText(realpathSync(path), MAX_BYTES)));
  } catch (err) {
    if (!(err instanceof RefusedFile) && !isFsError(err)) throw err;
    return { edition: 'v0', evidence: 'the file could not be read, so nothing says otherwise' };
  }
}

const isFsError = (err: unknown) => err instanceof Error && typeof (err as { code?: unknown }).code === 'string';

export const transcriptVerifier: Verifier = {
  kind: 'transcript',
  detect: looksLikeTranscript,
  async verify(path, opts) {
    const max = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    let text: string;
    try {
      // The file the user named may be a link they chose; it is resolved once, then read as an owned file.
      text = readOwnedText(realpathSync(path), max);
    } catch (err) {
      if (!(err instanceof RefusedFile)) throw err;
      const out: Finding[] = [];
      const name = basename(path);
      if (err.why === 'too-large')
        listReport(out)('tree.too-large', `${name} is over the ${max}-byte cap: not read`, name);
      else listReport(out)('tree.special-file', `${name} is not a regular file; verify does not open it`, name);
      return out;
    }
    return checkTranscript(text, basename(path), opts.edition);
  },
};
