import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Verifier } from '../finding.ts';
import { checkTranscript } from './check-transcript.ts';

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

export const transcriptVerifier: Verifier = {
  kind: 'transcript',
  detect: looksLikeTranscript,
  async verify(path) {
    const text = await readFile(path, 'utf8');
    return checkTranscript(text, basename(path));
  },
};
