import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Verifier } from '../finding.ts';
import { checkTranscript } from './check-transcript.ts';

/** Larger files are not conversations the seed has in mind (in-context is for < 30 statements). */
const MAX_BYTES = 16 * 1024 * 1024;
const MARKER = /^\s*(?:\[(?:Program|Position|Binding|Input|Output|Import|Success|Warning|Parallel|Loop|Pipeline|Try|Flow|Frame\+|Frame-|CallStack)\]|\d+→|∥ |loop:\d|#\d+ \S)/m;

/** Recognises a text file whose lines carry narration markers of either dialect; never throws. */
export async function looksLikeTranscript(path: string): Promise<boolean> {
  try {
    const s = await stat(path);
    if (!s.isFile() || s.size > MAX_BYTES) return false;
    const text = await readFile(path, 'utf8');
    return !text.includes('\0') && MARKER.test(text);
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
