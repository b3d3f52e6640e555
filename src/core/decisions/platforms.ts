import type { DecisionRow } from './decision-row.ts';

/**
 * What the code assumes about the machine, made explicit for the binary's three targets (docs/binary.md): where
 * linux-x64, linux-arm64 and win-x64 differ, and what we do on each.
 */
export const PLATFORM_DECISIONS: DecisionRow[] = [
  {
    id: 'platform-targets',
    area: 'platforms',
    spec: 'The seeds assume a shell and a sqlite3 on the machine; sqlite.md lists how to install sqlite3 on macOS, Linux and Windows (winget).',
    choice:
      'The single binary is built for linux-x64 (glibc 2.28+), linux-arm64 (glibc 2.28+) and win-x64 (Windows 10 / Server 2016+), each from the official Node of that platform on the npm registry. macOS is not built: the registry has no Node 24 darwin-arm64 package to build from, and a macOS binary must be signed to run. Alpine/musl is not built: the official Node builds need glibc.',
    why: 'A build we cannot make offline from a pinned official Node, or cannot run anywhere we test, would be a file nobody has seen work.',
  },
  {
    id: 'platform-paths',
    area: 'platforms',
    spec: 'The seeds write paths with "/" (.prose/runs/{id}/bindings/x.md, ~/.prose/agents.db) and say nothing of "\\" or drive letters.',
    choice:
      'Paths are joined with node:path, so each platform uses its own separator on disk; every path we store or print relative to the project or home (state.md Index, attachment_path, memory paths, ~/ paths in instructions, artifact paths) uses "/" on every platform; an artifact path read with "\\" is read as "/". Names may not hold "/", "\\", ":", a trailing ".", or a Windows device name on any platform (decision names), so a name that is safe on Linux is safe on NTFS. Case-only twins share one file on NTFS (decisions names and canon-distinct-twins).',
    why: 'Stored state must read the same whichever platform wrote it; refusing Windows-unsafe names everywhere keeps a run directory portable.',
  },
  {
    id: 'platform-home',
    area: 'platforms',
    spec: 'User-scoped agents live in ~/.prose/ (sqlite.md: ~/.prose/agents.db; filesystem.md: ~/.prose/agents/{name}/).',
    choice:
      '~ is os.homedir(): $HOME on Linux, %USERPROFILE% on Windows (C:\\Users\\name); the user scope is ~/.prose/ under it. Paths inside the home are shown as ~/... with "/".',
    why: 'os.homedir() is where a Windows user profile lives; $HOME is usually unset there.',
  },
  {
    id: 'platform-atomic-replace',
    area: 'platforms',
    spec: 'filesystem.md writes state.md and binding files in place; the seeds say nothing of torn writes.',
    choice:
      'Every file we publish is written to a temp file beside it, fsynced, and renamed over the target (rename(2) on Linux; MoveFileEx with REPLACE_EXISTING on NTFS, atomic for a file on one volume). On Windows a rename over a file another program holds open without FILE_SHARE_DELETE (a virus scanner, an indexer) fails with EPERM/EACCES/EBUSY until it lets go: the rename is retried up to 10 times (~0.5 s) before the error is reported. Exclusive creation is a hard link of a synced temp file (CreateHardLink on NTFS; FAT and exFAT have no hard links and are not supported).',
    why: 'Readers must see the old or the new file, never half of one, on both kernels; Windows programs that briefly hold files open are common and transient.',
  },
  {
    id: 'platform-directory-sync',
    area: 'platforms',
    spec: 'The seeds do not mention durability.',
    choice:
      'After a rename the directory is fsynced on Linux, so the new name survives a power cut. On Windows there is no directory fsync (a directory cannot be opened as a file: EISDIR) and none is attempted: NTFS journals the rename itself.',
    why: 'The crash area kills processes, not machines: a killed process cannot lose a finished rename on either system, so the crash cases hold on both; only a power cut differs.',
  },
  {
    id: 'platform-locks',
    area: 'platforms',
    spec: 'sqlite.md: "SQLite handles locking automatically"; filesystem.md does not say how parallel writers are kept apart.',
    choice:
      "Our lock files (O_EXCL create, holder pid and host inside, a dead holder broken) work unchanged on Windows: process.kill(pid, 0) asks whether a pid lives there too. The sqlite native and posix engines take SQLite's own locks through node:sqlite, which is SQLite's win32 VFS on Windows (LockFileEx on the same lock bytes a sqlite3.exe uses). The wasm engine's view of a native sqlite3's locks reads /proc/locks, which is Linux only: elsewhere it sees none (the binary, on Node 24, uses the native engine).",
    why: "The lock protocol is ours on every platform; only the native sqlite3 interop needs the kernel's locks, and the native and posix engines ask SQLite itself for them.",
  },
  {
    id: 'platform-line-endings',
    area: 'platforms',
    spec: 'The seeds show files with "\\n" lines and say nothing of "\\r\\n".',
    choice:
      'Everything we write (state.md, binding files, segments, JSON Lines, reports) ends lines with "\\n" on every platform. Values are bytes: a value holding "\\r\\n" is stored and read back with "\\r\\n", and fingerprint hashes file contents as they are, so a CRLF file has another address than its LF twin on every platform (the same address on all three). Readers of our own formats accept "\\r\\n" where a person may have edited the file (segment files).',
    why: 'Converting line endings would change values and content addresses depending on where they were written.',
  },
  {
    id: 'platform-signals',
    area: 'platforms',
    spec: 'The seeds do not talk about processes dying.',
    choice:
      'The crash area kills a writer with SIGKILL; on Windows Node turns that into TerminateProcess, which likewise runs no handler and flushes nothing, so the crash cases mean the same. Plugin processes are killed as a group on Linux (kill(-pgid)); on Windows, which has no process groups, as a tree (taskkill /T /F).',
    why: 'A kill that gives the writer no chance to clean up is what the crash area needs, and both systems have one.',
  },
  {
    id: 'platform-shell',
    area: 'platforms',
    spec: 'The plugin protocol (ours) starts `exec:COMMAND` backends from a command line.',
    choice:
      "An exec: command runs through /bin/sh -c on Linux and through cmd.exe /d /s /c on Windows (Node's shell: true), so it is written in that platform's shell syntax.",
    why: "Each platform has one shell every machine has; a command line is the user's, in the user's shell.",
  },
  {
    id: 'platform-subagent-shell',
    area: 'platforms',
    spec: 'sqlite.md gives subagents shell commands (sqlite3 state.db "..."), with POSIX quoting and here-documents in our instructions; session.md expects the subagent to run them.',
    choice:
      "The scripted subagent runs the sqlite instructions' commands with /bin/sh. On Windows it refuses with E_UNSUPPORTED, and the conformance cases that run a scripted subagent on sqlite storage are skipped there, saying so. The filesystem (files only) and postgres (a script on a connection) subagents need no shell and run everywhere.",
    why: 'cmd.exe cannot run the POSIX quoting the instructions use, and translating it would test a translator instead of the instructions a subagent is given.',
  },
  {
    id: 'platform-cache-dir',
    area: 'platforms',
    spec: '(ours) The binary unpacks its conformance suite to a per-user folder on first use.',
    choice:
      "On Linux the folder ($TMPDIR/prose-state-<uid>) must be a directory owned by the user and not group or world writable, or the binary refuses it. On Windows there is no uid or mode to check (lstat reports 0 and 0o666) and %TEMP% is the user's own (under %LOCALAPPDATA%), so no check is made.",
    why: 'A shared /tmp lets another user plant the folder; a Windows temp folder is not shared.',
  },
  {
    id: 'platform-sqlite3-shim',
    area: 'platforms',
    spec: 'sqlite.md: the subagent runs `sqlite3 state.db "..."`.',
    choice:
      'The binary runs as the sqlite3 shim when invoked under the name sqlite3 (sqlite3.exe on Windows): a symlink on Linux, a copy or a hard link on Windows, where symlinks need a privilege.',
    why: 'The name the program was started under is the one signal that works the same on every platform.',
  },
];
