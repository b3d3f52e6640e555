/**
 * The process groups of plugins this process started and has not ended yet (POSIX: a plugin runs detached, in a
 * group of its own, so neither a terminal's Ctrl-C nor our own death reaches it). When prose-state exits, normally or
 * by SIGINT, SIGTERM or SIGHUP, every group still here is killed, synchronously: an 'exit' handler may not wait.
 */
const live = new Set<number>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let hooked = false;
let refusal: string | undefined;

/** SIGKILL to the group `pgid`; a group already gone (ESRCH) is fine. */
export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // ESRCH: no process is left in the group; EPERM cannot happen for a group we started.
  }
}

export function trackGroup(pgid: number): void {
  live.add(pgid);
  if (!hooked) hook();
}

/** Ends the group and forgets it. The group id stays ours until its last member is gone, so signalling it is safe. */
export function endGroup(pgid: number): void {
  killGroup(pgid);
  live.delete(pgid);
}

/**
 * From now on no plugin process starts (ProtocolSession.start fails with `why`): the run's deadline passed, and a
 * case still in flight must not start what nobody would end. For the CLI, which runs one suite per process.
 */
export function refuseNewGroups(why: string): void {
  refusal = why;
}

export function newGroupsRefused(): string | undefined {
  return refusal;
}

/** Kills every group still live (our exit, or the run's deadline passing: test --deadline). */
export function endAllGroups(): void {
  for (const pgid of live) killGroup(pgid);
  live.clear();
}

function hook(): void {
  hooked = true;
  process.on('exit', endAllGroups);
  for (const signal of SIGNALS) {
    const onSignal = (): void => {
      endAllGroups();
      // Ours was the only handler: the signal's default (ending the process) is what it would have done without us.
      process.off(signal, onSignal);
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
