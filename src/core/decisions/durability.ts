import type { DecisionRow } from './decision-row.ts';

/** What `durable` promises and how the crash and crash-states areas hold a backend to it. */
export const DURABILITY_DECISIONS: DecisionRow[] = [
  {
    id: 'crash-state-model',
    area: 'durability',
    spec: 'filesystem.md "Resuming Execution" and sqlite.md "Atomic transactions" expect committed state to survive a crash; no version says which crash (a killed process, a power cut) or which file system.',
    choice:
      "The crash-states area checks the weak POSIX model, one fixed model (not an option): after a crash the disk holds a prefix of the operations the writer issued (what a killed process leaves), possibly with the next write torn at a 4096-byte block boundary inside it (a write within one block never tears: page-cache writeback and disks keep a block whole), or that prefix less any one operation no earlier fsync had made durable. A write or truncate is durable once its file is fsynced (fsync/fdatasync); a name (create, rename and link by the new name, unlink, mkdir, rmdir) once the directory holding it is fsynced; everything once sync/syncfs returns. One omission at a time, as ALICE explores, not every subset. Writes through mmap and io_uring are not seen (libuv is run with UV_USE_IO_URING=0; SQLite's -shm index, written through mmap, is left out of every state, SQLite rebuilds it), and the replay of the whole log must reproduce the state the writer left or the case errors.",
    why: 'A backend declaring durable must survive a power cut on any POSIX file system, not only on ext4 data=ordered, which orders a rename after the data of the renamed file and commits metadata in order (its states are a subset of these). Taking the weaker model holds every backend to what POSIX promises; an option would let a backend pass by naming the file system it was tested on, which its users do not choose.',
  },
  {
    id: 'crash-in-process',
    area: 'durability',
    spec: 'The seed gives no way to crash a backend that runs only inside the VM process.',
    choice:
      'A backend declaring durable but not multi-process is crash-checked in one process: the runner drops the backend without closing it at seeded points (after 0..7 acknowledged writes) and opens a fresh instance on the same storage, which must hold every acknowledged write whole. Dropped instances are closed only after every check.',
    why: 'durable is a promise about what survives, whatever else a backend declares; a write answered before it is made is lost by a crash in one process as surely as by a kill of another.',
  },
];
