import { spawnSync } from 'node:child_process';
import { which } from './which.ts';

/**
 * Whole-process peers: what someone would run instead of our fingerprint to get "a hash of this tree". Each is a
 * shell pipeline over DIR (passed as $1, never spliced into the script). LC_ALL=C makes `sort` byte-ordered.
 */
export interface Peer {
  name: string;
  script: string;
  needs: string[];
}

export const PEERS: Peer[] = [
  { name: 'tar|sha256sum', script: 'tar --sort=name -cf - -C "$1" . | sha256sum', needs: ['sh', 'tar', 'sha256sum'] },
  {
    name: 'tar|openssl',
    script: 'tar --sort=name -cf - -C "$1" . | openssl dgst -sha256',
    needs: ['sh', 'tar', 'openssl'],
  },
  {
    name: 'find|sort|xargs sha256sum',
    script: 'find "$1" -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum',
    needs: ['sh', 'find', 'sort', 'xargs', 'sha256sum'],
  },
  {
    name: 'git hash-object',
    script: 'find "$1" -type f | sort | git hash-object --stdin-paths | sha256sum',
    needs: ['sh', 'find', 'sort', 'git', 'sha256sum'],
  },
];

export type PeerRunner = { peer: Peer; run: () => void } | { peer: Peer; skipped: string };

/** Checks a peer's tools and runs it once on `dir`; a peer that fails is skipped with its stderr as the reason. */
export function preparePeer(peer: Peer, dir: string, env: Record<string, string | undefined>): PeerRunner {
  const missing = peer.needs.filter((t) => !which(t, env));
  if (missing.length > 0) return { peer, skipped: `not on PATH: ${missing.join(', ')}` };
  const childEnv = { ...env, LC_ALL: 'C' };
  const run = (): string => {
    const r = spawnSync('sh', ['-c', peer.script, 'peer', dir], {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (r.error) throw r.error;
    if (r.status !== 0 || r.stderr.trim() !== '' || !/[0-9a-f]{64}/.test(r.stdout)) {
      throw new Error(`exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n')[0]}`);
    }
    return r.stdout;
  };
  try {
    run();
  } catch (err) {
    return { peer, skipped: `failed: ${(err as Error).message}` };
  }
  return { peer, run };
}
