import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { endGroup, trackGroup } from './process-groups.ts';
import { StderrRing } from './stderr-ring.ts';
import { StdoutLines, type LineEvents } from './stdout-lines.ts';

export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

export interface PluginProcessOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  stderrBytes?: number;
  /** Longest stdout line accepted, in bytes (default DEFAULT_MAX_LINE_BYTES); a longer one is garbage, not a reply. */
  maxLineBytes?: number;
}

/** 64 MiB: far over any reply a value of the suite makes, and a bound on what one plugin line can make us hold. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Stdout's lines (whole, UTF-8) and its faults (overlong, not UTF-8; the process is still running), then the exit. */
export interface ProcessEvents extends LineEvents {
  exit(exit: ProcessExit): void;
}

const WINDOWS = process.platform === 'win32';

function spawnShell(command: string, opts: PluginProcessOptions): ChildProcess {
  const how = {
    cwd: opts.cwd,
    env: opts.env as NodeJS.ProcessEnv | undefined,
    stdio: ['pipe', 'pipe', 'pipe'] as ['pipe', 'pipe', 'pipe'],
  };
  // `detached` on Windows opens a console of its own rather than a process group, so it is POSIX only.
  return WINDOWS
    ? spawn(command, { ...how, shell: true, windowsHide: true })
    : spawn('/bin/sh', ['-c', command], { ...how, detached: true });
}

/**
 * One plugin process started through `/bin/sh -c` (on Windows `cmd.exe /d /s /c`, as Node's `shell: true` runs
 * it: decisions platform-shell), speaking lines over stdio. It runs in its own process group (on Windows: its
 * process tree) so `kill()` also ends what the shell started. The group ends with the plugin: when the process
 * exits, whatever it left running in its group is killed, and so is every group still live when prose-state exits
 * (process-groups.ts). Nothing here knows the protocol.
 */
export class PluginProcess {
  readonly stderr: StderrRing;
  private readonly child: ChildProcess;
  private readonly stdout: StdoutLines;
  private exitInfo: ProcessExit | undefined;
  private resolveExit!: (e: ProcessExit) => void;
  readonly exited: Promise<ProcessExit>;

  constructor(
    readonly command: string,
    private readonly events: ProcessEvents,
    opts: PluginProcessOptions = {},
  ) {
    this.stderr = new StderrRing(opts.stderrBytes ?? 8192);
    this.stdout = new StdoutLines(opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, events);
    this.child = spawnShell(command, opts);
    if (!WINDOWS && this.child.pid !== undefined) trackGroup(this.child.pid);
    this.exited = new Promise((r) => {
      this.resolveExit = r;
    });
    // A write to a plugin that died raises EPIPE on stdin; the exit report carries the evidence instead.
    this.child.stdin!.on('error', () => {});
    this.child.stderr!.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    this.child.stdout!.on('data', (chunk: Buffer) => this.stdout.push(chunk));
    // 'exit' can come before the last stderr bytes; 'close' waits for the pipes, which a grandchild may hold open.
    this.child.on('close', (code, signal) => this.finish(code, signal));
    this.child.on('exit', (code, signal) => {
      setTimeout(() => this.finish(code, signal), 100).unref();
    });
    this.child.on('error', (err) => {
      this.stderr.push(Buffer.from(`[harness] cannot start: ${err.message}\n`));
      this.finish(null, null);
    });
  }

  /** The first of close, exit (after a grace period) or a spawn error ends the process, once. */
  private finish(code: number | null, signal: string | null): void {
    if (this.exitInfo) return;
    this.exitInfo = { code, signal };
    // What the plugin started (`sleep 300 &`, a server it forked) must not outlive it.
    if (!WINDOWS && this.child.pid !== undefined) endGroup(this.child.pid);
    this.stdout.end();
    this.events.exit(this.exitInfo);
    this.resolveExit(this.exitInfo);
  }

  /** Stdout text received after the last newline (a reply the plugin never finished). */
  get partialLine(): string {
    return this.stdout.partial();
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  send(line: string): void {
    if (this.exitInfo || !this.child.stdin!.writable) return;
    this.child.stdin!.write(`${line}\n`);
  }

  /** Ends stdin: a plugin must exit when its input ends. */
  endInput(): void {
    if (this.child.stdin!.writable) this.child.stdin!.end();
  }

  /**
   * Kills the whole process group (the shell and what it started), by the id of the process we spawned, even when
   * that process has exited already: its children may still run in the group. Windows has no process groups to
   * signal: `taskkill /T /F` ends the tree (TerminateProcess on each), which needs the root still running.
   */
  kill(): void {
    if (this.child.pid === undefined) return;
    if (WINDOWS) {
      if (this.exitInfo) return;
      spawnSync('taskkill', ['/pid', String(this.child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      this.child.kill('SIGKILL');
      return;
    }
    endGroup(this.child.pid);
    if (!this.exitInfo) this.child.kill('SIGKILL');
  }

  /** Waits up to `ms` for the process to exit by itself, then kills it. */
  async stop(ms: number): Promise<ProcessExit> {
    this.endInput();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((r) => {
      timer = setTimeout(r, ms);
    });
    await Promise.race([this.exited, late]);
    clearTimeout(timer);
    if (!this.exitInfo) this.kill();
    return this.exited;
  }
}
