import type { Decisions } from '../../core/decisions.ts';
import type { AgentLocation, Segment } from '../../core/model.ts';
import { segmentFileName } from '../../core/numbering.ts';
import { isoSeconds } from '../../core/time-format.ts';
import type { AgentSql } from './agent-sql.ts';
import { segmentGroup, type RowStamp, type RowWatch } from './mem-row-watch.ts';
import type { PgDb } from './pg-db.ts';
import { PgError } from './pg-error.ts';
import { checkStorableText } from './sql-literal.ts';

const SEGMENT_RETRIES = 50;

/** The last number of one agent's segments, as of a change count of its rows. */
interface Last {
  epoch: number;
  count: number;
  number: number;
}

/**
 * An agent's segments in openprose.agent_segments. The next number is computed inside the INSERT; two writers that
 * compute the same one collide on the unique index (23505) and the loser tries again, so numbers are never shared,
 * even across processes. On pg-mem, whose MAX() over an agent's rows scans the whole table (issue 35: 34 ms per
 * append at 1,000 segments), the number this store last appended is kept with the agent's change count
 * (mem-row-watch.ts): while no other change was made to the agent's rows, the next number is that one plus one and
 * goes in as a value; the unique index still refuses a number another writer took.
 */
export class SegmentSql {
  private readonly last = new Map<string, Last>();

  constructor(
    private readonly db: PgDb,
    private readonly agent: AgentSql,
    private readonly decisions: Decisions,
    private readonly watch?: RowWatch,
  ) {}

  async append(loc: AgentLocation, s: Omit<Segment, 'number' | 'file'>): Promise<Segment> {
    checkStorableText('prompt', s.prompt);
    checkStorableText('summary', s.summary);
    checkStorableText('timestamp', s.timestamp);
    const key = this.agent.key(loc);
    const group = segmentGroup(key);
    for (let attempt = 1; ; attempt++) {
      const before = this.watch?.stamp(group, '');
      const known = this.known(group, before);
      try {
        const n = await this.insert([...key, s.timestamp, s.prompt, s.summary], known);
        this.appended(group, before, n);
        return { number: n, file: segmentFileName(loc.agent, n, this.decisions.segmentWidth), ...s };
      } catch (err) {
        this.last.delete(group);
        if (!(err instanceof PgError && err.sqlState === '23505') || attempt >= SEGMENT_RETRIES) throw err;
        await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
      }
    }
  }

  async list(loc: AgentLocation): Promise<Segment[]> {
    const rows = await this.db.query<{
      segment_number: number;
      timestamp: string | null;
      created_at: Date | string;
      prompt: string | null;
      summary: string | null;
    }>(
      `SELECT segment_number, "timestamp", created_at, prompt, summary FROM openprose.agent_segments
       WHERE ${this.agent.where('agent_name')} ORDER BY segment_number`,
      this.agent.key(loc),
    );
    return rows.map((r) => ({
      number: Number(r.segment_number),
      file: segmentFileName(loc.agent, Number(r.segment_number), this.decisions.segmentWidth),
      // NULL only in the current edition: a row written as postgres.md's INSERT writes it (pg-current-segment-timestamp).
      timestamp: r.timestamp ?? isoSeconds(new Date(r.created_at)),
      prompt: r.prompt ?? '',
      summary: r.summary ?? '',
    }));
  }

  /** One INSERT: numbered `known + 1` when the last number is known, else by MAX() inside the statement. */
  private async insert(params: (string | null)[], known: number | undefined): Promise<number> {
    const a = this.agent;
    const rest = `$${a.next}::text, $${a.next + 1}::text, $${a.next + 2}::text`;
    const into = `INSERT INTO openprose.agent_segments (${a.columns('agent_name')}, segment_number, "timestamp", prompt, summary)`;
    const [row] =
      known === undefined
        ? await this.db.query<{ segment_number: number }>(
            `${into} SELECT ${a.marks()}, COALESCE(MAX(segment_number), 0) + 1, ${rest}
             FROM openprose.agent_segments WHERE ${a.where('agent_name')} RETURNING segment_number`,
            params,
          )
        : await this.db.query<{ segment_number: number }>(
            `${into} VALUES (${a.marks()}, $${a.next + 3}::integer, ${rest}) RETURNING segment_number`,
            [...params, known + 1],
          );
    return Number(row!.segment_number);
  }

  /** The agent's last number if nothing changed its rows since this store appended it. */
  private known(group: string, now: RowStamp | undefined): number | undefined {
    const held = this.last.get(group);
    return held && now && held.epoch === now.epoch && held.count === now.count ? held.number : undefined;
  }

  /**
   * Keeps `n` as the last number when the count moved by exactly our insert: no one else changed the agent's rows
   * meanwhile, and ours was numbered past every row there (MAX() + 1, or the known last + 1).
   */
  private appended(group: string, before: RowStamp | undefined, n: number): void {
    const after = this.watch?.stamp(group, '');
    if (!before || !after || after.epoch !== before.epoch || after.count !== before.count + 1) {
      this.last.delete(group);
      return;
    }
    this.last.set(group, { epoch: after.epoch, count: after.count, number: n });
  }
}
