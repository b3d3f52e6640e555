import { ProseError, type ErrorCode } from '../core/errors.ts';
import { jsonOneLine } from '../core/json-line.ts';
import { timeoutAfterIo } from '../core/timeout-after-io.ts';
import { PluginError, type PluginEvidence } from './plugin-error.ts';
import { PluginProcess, type ProcessExit } from './plugin-process.ts';
import { newGroupsRefused } from './process-groups.ts';
import {
  DEFAULT_EXIT_GRACE_MS,
  DEFAULT_TIMEOUT_MS,
  type ExecOptions,
  type PluginHello,
  type PluginReply,
  type RequestType,
} from './protocol-messages.ts';
import { protocolValidator } from './protocol-validator.ts';
import { PROTOCOL_VERSION } from './protocol-version.ts';

interface Pending {
  label: string;
  expect: 'hello' | 'result';
  resolve(reply: PluginReply): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * One plugin process and the protocol spoken with it: numbered requests, replies matched by echoed seq, a timeout
 * per request and schema checks both ways. The first protocol break ends the process and fails what is in flight;
 * later requests fail at once with that evidence, so a broken plugin never hangs the run.
 */
export class ProtocolSession {
  private readonly proc: PluginProcess;
  private readonly pending = new Map<number, Pending>();
  private nextSeq = 0;
  private broken: PluginError | undefined;
  private exitExpected = false;
  private readonly timeoutMs: number;
  private readonly startTimeoutMs: number;

  constructor(
    readonly command: string,
    private readonly opts: ExecOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.startTimeoutMs = opts.startTimeoutMs ?? Math.max(this.timeoutMs, DEFAULT_TIMEOUT_MS);
    this.proc = new PluginProcess(
      command,
      {
        line: (text) => this.onLine(text),
        overlong: (limit) =>
          this.fail(
            `plugin wrote more than ${limit} bytes on stdout without a newline`,
            { received: this.proc.partialLine },
            undefined,
            'a protocol message is one line of JSON; the harness holds at most this much of one',
          ),
        notUtf8: (at, text) =>
          this.fail(
            `plugin wrote a line that is not valid UTF-8 (at byte ${at})`,
            { received: text },
            undefined,
            'protocol messages are UTF-8 text',
          ),
        exit: (exit) => this.onExit(exit),
      },
      { cwd: opts.cwd, env: opts.env, stderrBytes: opts.stderrBytes, maxLineBytes: opts.maxLineBytes },
    );
  }

  /** Starts a process and performs the handshake; any failure ends the process. */
  static async start(
    command: string,
    opts: ExecOptions = {},
  ): Promise<{ session: ProtocolSession; hello: PluginHello }> {
    const refused = newGroupsRefused();
    if (refused !== undefined) throw new PluginError(`not started: ${refused}`, { command, stderr: '' });
    const session = new ProtocolSession(command, opts);
    try {
      const reply = await session.send(
        'hello',
        { protocol: PROTOCOL_VERSION, suite: opts.suite ?? 'unknown' },
        'hello',
      );
      return { session, hello: reply as PluginHello };
    } catch (err) {
      session.proc.kill();
      if (err instanceof PluginError) throw err;
      const e = err as ProseError;
      throw session.error(`plugin refused the handshake: ${e.code} ${e.message}`, { request: 'hello (seq 0)' });
    }
  }

  /** Sends one request and resolves with its result object; a contract error reply rejects with its code. */
  async request(
    type: Exclude<RequestType, 'hello'>,
    body: Record<string, unknown>,
    label: string,
  ): Promise<Record<string, unknown>> {
    const reply = await this.send(type, body, label);
    return (reply as { result: Record<string, unknown> }).result;
  }

  /** `close`, then waits for the process to exit. A session that broke is only killed. */
  async close(): Promise<void> {
    if (this.broken || this.proc.hasExited) {
      this.proc.kill();
      await this.proc.exited;
      return;
    }
    // Exiting right after the close reply is the protocol; exiting before it is still a failure (a request pends).
    this.exitExpected = true;
    try {
      await this.send('close', {}, 'close');
    } finally {
      await this.proc.stop(this.opts.exitGraceMs ?? DEFAULT_EXIT_GRACE_MS);
    }
  }

  /** Ends stdin without `close` (the probe process of a factory), then waits for the exit. */
  async end(): Promise<void> {
    this.exitExpected = true;
    await this.proc.stop(this.opts.exitGraceMs ?? DEFAULT_EXIT_GRACE_MS);
  }

  private send(type: RequestType, body: Record<string, unknown>, what: string): Promise<PluginReply> {
    const seq = this.nextSeq++;
    const label = `${what} (seq ${seq})`;
    if (this.broken) {
      return Promise.reject(
        this.error(`not sent: the plugin broke on an earlier request (${this.broken.message.split('\n')[0]})`, {
          request: label,
        }),
      );
    }
    // What is validated is exactly what is written: undefined fields vanish in JSON. Line separators inside strings
    // are escaped, so a plugin whose reader splits on U+2028/U+2029 still gets one whole line (docs/protocol.md).
    const line = jsonOneLine({ type, seq, ...body });
    const bad = protocolValidator().request(JSON.parse(line));
    if (bad) {
      return Promise.reject(
        this.error(
          `harness request failed the protocol schema: ${bad.field} ${bad.rule}`,
          { request: label },
          bad.field,
        ),
      );
    }
    return new Promise<PluginReply>((resolve, reject) => {
      const ms = type === 'hello' ? this.startTimeoutMs : this.timeoutMs;
      // One poll phase before the verdict: a reply may be waiting in the pipe behind a held loop (cases side by side
      // under --jobs; timeout-after-io.ts).
      const timer = timeoutAfterIo(() => {
        if (this.pending.has(seq))
          this.fail(
            `no reply to ${label} within ${ms} ms`,
            this.proc.partialLine ? { received: this.proc.partialLine } : {},
          );
      }, ms);
      this.pending.set(seq, { label, expect: type === 'hello' ? 'hello' : 'result', resolve, reject, timer });
      this.opts.wire?.('sent', line);
      this.proc.send(line);
    });
  }

  private onLine(text: string): void {
    this.opts.wire?.('received', text);
    if (this.broken || text.trim() === '') return;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return this.fail(
        'plugin wrote a line that is not JSON on stdout',
        { received: text },
        undefined,
        'stdout carries protocol messages only; write logs to stderr',
      );
    }
    const m = msg as Record<string, unknown>;
    if (
      m &&
      typeof m === 'object' &&
      m.type === 'hello' &&
      typeof m.protocol === 'number' &&
      m.protocol !== PROTOCOL_VERSION
    ) {
      return this.fail(
        `protocol version mismatch: the plugin speaks protocol ${m.protocol}, this harness speaks protocol ${PROTOCOL_VERSION}`,
        { received: text },
        'protocol',
      );
    }
    const bad = protocolValidator().reply(msg);
    if (bad)
      return this.fail(
        `plugin message failed the protocol schema: ${bad.field} ${bad.rule}`,
        { received: text },
        bad.field,
      );
    const reply = msg as PluginReply;
    const p = this.pending.get(reply.seq);
    if (!p) {
      const waiting = [...this.pending.values()].map((x) => x.label).join(', ') || 'nothing';
      // Every seq below nextSeq was asked, and one not pending was answered already (a timeout ends the session).
      const which = reply.seq >= 0 && reply.seq < this.nextSeq ? ' a second time' : ', which was never asked';
      return this.fail(`plugin answered seq ${reply.seq}${which} (waiting: ${waiting})`, { received: text }, 'seq');
    }
    if (reply.type !== 'error' && (reply.type === 'hello') !== (p.expect === 'hello')) {
      return this.fail(`plugin answered ${p.label} with a "${reply.type}" message`, { received: text }, 'type');
    }
    this.pending.delete(reply.seq);
    clearTimeout(p.timer);
    if (reply.type === 'error') {
      p.reject(new ProseError(reply.code as ErrorCode, reply.message, { hint: reply.hint, location: reply.location }));
    } else {
      p.resolve(reply);
    }
  }

  private onExit(exit: ProcessExit): void {
    if (this.broken) return;
    if (this.exitExpected && this.pending.size === 0) return;
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    const doing = this.pending.size ? 'before answering' : 'while idle';
    const hint =
      exit.code === 127
        ? 'exit code 127: the shell did not find the command'
        : exit.code === 126
          ? 'exit code 126: the command is not executable'
          : undefined;
    this.fail(`plugin ${how} ${doing}`, { exitCode: exit.code, signal: exit.signal }, undefined, hint);
  }

  /** Breaks the session: every request in flight fails with the evidence, the process is ended. */
  private fail(what: string, extra: Partial<PluginEvidence>, field?: string, hint?: string): void {
    if (this.broken) return;
    const inFlight = [...this.pending.values()];
    this.pending.clear();
    this.broken = this.error(what, { ...extra, request: inFlight[0]?.label }, field, hint);
    for (const p of inFlight) {
      clearTimeout(p.timer);
      p.reject(p === inFlight[0] ? this.broken : this.error(what, { ...extra, request: p.label }, field, hint));
    }
    this.proc.kill();
  }

  private error(what: string, extra: Partial<PluginEvidence>, field?: string, hint?: string): PluginError {
    return new PluginError(
      what,
      { command: this.command, stderr: this.proc.stderr.text(), ...extra },
      { location: field ? { field } : undefined, hint },
    );
  }
}
