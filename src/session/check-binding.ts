import { join, relative, sep } from 'node:path';
import type { Finding } from '../verify/finding.ts';
import { checkRow, readFileBinding, type BindingExpect } from './check-stored-binding.ts';
import { bindingKindColumn } from './edition-paths.ts';
import { otherEditionPath, readBindingRows } from './edition-findings.ts';

export type { BindingExpect };
import type { BindingBlock } from './parse-confirmation.ts';
import { parseLocation, type Location } from './parse-location.ts';
import { isInside, resolveMessagePath, sqliteRows, type PgQuery, type RunTarget } from './run-target.ts';
import { finding } from './session-rules.ts';

/** What the checker learned about the binding: the value (for the echo rule), when it could read it. */
export interface BindingCheck {
  findings: Finding[];
  value?: string;
}

/** One binding block whose location parsed with the run's form: what each form's check needs. */
interface LocatedBinding {
  name: string;
  /** The execution id the message and its location agree on (or the location's, when they do not). */
  eid: number | null;
  t: RunTarget;
  expect: BindingExpect;
  query: PgQuery | undefined;
  /** Where in the message the location line is. */
  at: { file: string; line: number };
  out: Finding[];
}

/**
 * Checks the binding block against the run: the location has the seed's form for this backend, lies in the run,
 * is the one the name and execution id give, and the binding is there in the seed's format and scope.
 */
export async function checkBinding(
  b: BindingBlock,
  t: RunTarget,
  msgFile: string,
  query: PgQuery | undefined,
  expect: BindingExpect,
): Promise<BindingCheck> {
  const out: Finding[] = [];
  const name = b.name.value;
  if (!b.location) {
    const hint = 'add the path or database coordinates you wrote to';
    out.push(finding('message.location-missing', `no "Location:" for binding ${name}`, at(msgFile, b.name.line), hint));
    return { findings: out };
  }
  const where = at(msgFile, b.location.line);
  const loc = parseLocation(b.location.value);
  if ('error' in loc) {
    out.push(finding('message.location-form', loc.error, where));
    return { findings: out };
  }
  if (t.storage && loc.form !== t.storage) {
    const by = (form: string) => (form === 'directory' ? 'a file path' : `${form} coordinates`);
    out.push(
      finding('message.location-form', `a ${t.storage} run is located by ${by(t.storage)}, not ${by(loc.form)}`, where),
    );
    return { findings: out };
  }
  const eid = checkExecutionId(b, locationEid(loc), expect.executionId, msgFile, out);
  const located: LocatedBinding = { name, eid, t, expect, query, at: where, out };
  const stored =
    loc.form === 'directory'
      ? await checkFileLocation(loc, located)
      : loc.form === 'sqlite'
        ? await checkSqliteLocation(loc, located)
        : await checkPostgresLocation(loc, located);
  return { findings: out, ...stored };
}

const at = (file: string, line: number) => ({ file, line });

type FileLocation = Extract<Location, { form: 'directory' }>;
type SqliteLocation = Extract<Location, { form: 'sqlite' }>;
type PostgresLocation = Extract<Location, { form: 'postgres' }>;

/** The execution id a location names: a file's __N suffix, or the coordinates' execution_id. */
function locationEid(loc: Location): number | null {
  if (loc.form === 'directory') {
    const m = /__([1-9]\d*)\.md$/.exec(loc.path);
    return m ? Number(m[1]) : null;
  }
  if (loc.form === 'sqlite') return loc.executionId;
  return typeof loc.where.execution_id === 'number' ? loc.where.execution_id : null;
}

/** A filesystem binding: bindings/{name}[__{eid}].md of this run, then the file itself. */
async function checkFileLocation(loc: FileLocation, c: LocatedBinding): Promise<{ value?: string }> {
  const { t, name, eid } = c;
  const abs = resolveMessagePath(t, loc.path);
  if (!isInside(t.runDir, abs)) {
    const hint = `write bindings under ${display(t, join(t.runDir, 'bindings'))}/`;
    c.out.push(finding('message.location-outside-run', `${loc.path} is outside the run ${t.runRef}`, c.at, hint));
    return {};
  }
  const want = join(t.runDir, 'bindings', eid === null ? `${name}.md` : `${name}__${eid}.md`);
  if (abs !== want) {
    const scope = eid === null ? '' : ` in execution ${eid}`;
    c.out.push(
      finding(
        'message.location-mismatch',
        `binding ${name}${scope} lives at ${display(t, want)}, not ${loc.path}`,
        c.at,
      ),
    );
    return {};
  }
  return readFileBinding(abs, display(t, abs), name, eid, c.expect, c.out, t);
}

/** A sqlite binding: the bindings table of the run's state.db, then its row. */
async function checkSqliteLocation(loc: SqliteLocation, c: LocatedBinding): Promise<{ value?: string }> {
  const { t, name, eid } = c;
  const abs = resolveMessagePath(t, loc.db);
  const db = join(t.runDir, 'state.db');
  const v0 = otherEditionPath(t, abs, `<openprose-root>/${display(t, db)}`, c.at);
  if (v0) {
    c.out.push(v0);
    return {};
  }
  if (!isInside(t.runDir, abs)) {
    const hint = `bindings of this run are in ${display(t, db)}`;
    c.out.push(finding('message.location-outside-run', `${loc.db} is not the run's database`, c.at, hint));
    return {};
  }
  if (abs !== db || loc.table !== 'bindings' || loc.name !== name) {
    const want = `binding ${name} lives in ${display(t, db)} (bindings table, name='${name}', ...)`;
    c.out.push(finding('message.location-mismatch', want, c.at));
    return {};
  }
  const sql =
    `SELECT name, execution_id, ${bindingKindColumn(t)} AS kind, value, attachment_path FROM bindings ` +
    'WHERE name = ? AND IFNULL(execution_id, -1) = IFNULL(?, -1)';
  const rows = await readBindingRows(() => sqliteRows(abs, sql, [name, eid]), t, display(t, abs), c.out);
  return rows ? checkRow(rows, display(t, abs), name, eid, c.expect, c.out, t) : {};
}

/** A postgres binding: openprose.bindings of this run, then its row (when a connection was given). */
async function checkPostgresLocation(loc: PostgresLocation, c: LocatedBinding): Promise<{ value?: string }> {
  const { t, name, eid } = c;
  const w = loc.where;
  if (loc.table !== 'bindings' || w.name !== name || w.run_id !== t.runId) {
    const want = `binding ${name} of run ${t.runId} is openprose.bindings WHERE name='${name}' AND run_id='${t.runId}'`;
    c.out.push(finding('message.location-mismatch', want, c.at));
    return {};
  }
  if (!c.query) {
    c.out.push(finding('message.unchecked', 'no PostgreSQL connection was given, so the row was not read', c.at));
    return {};
  }
  const sql =
    `SELECT name, execution_id, ${bindingKindColumn(t)} AS kind, value, attachment_path FROM openprose.bindings ` +
    'WHERE run_id = $1 AND name = $2 AND COALESCE(execution_id, -1) = COALESCE($3::bigint, -1)';
  const query = c.query;
  const rows = await readBindingRows(() => query(sql, [t.runId, name, eid]), t, 'openprose.bindings', c.out);
  return rows ? checkRow(rows, 'openprose.bindings', name, eid, c.expect, c.out, t) : {};
}

function checkExecutionId(
  b: BindingBlock,
  locEid: number | null,
  expected: number | null | undefined,
  msgFile: string,
  out: Finding[],
): number | null {
  const line = b.executionId;
  let lineEid: number | null = null;
  if (line) {
    if (!/^[1-9]\d*$/.test(line.value))
      out.push(
        finding('message.execution-id', `"Execution ID: ${line.value}" is not a positive integer`, {
          file: msgFile,
          line: line.line,
        }),
      );
    else lineEid = Number(line.value);
  }
  const where = { file: msgFile, line: line?.line ?? b.location!.line };
  if (line && lineEid !== null && locEid === null)
    out.push(
      finding(
        'message.execution-id',
        `"Execution ID: ${lineEid}" but the location is root scope`,
        where,
        `inside a block invocation the binding is {name}__${lineEid}`,
      ),
    );
  if (!line && locEid !== null)
    out.push(
      finding(
        'message.execution-id',
        `the location is in execution ${locEid} but there is no "Execution ID: ${locEid}" line`,
        where,
        'add the line (filesystem.md "Inside block invocation")',
      ),
    );
  if (lineEid !== null && locEid !== null && lineEid !== locEid)
    out.push(
      finding('message.execution-id', `"Execution ID: ${lineEid}" but the location names execution ${locEid}`, where),
    );
  const eid = locEid ?? lineEid;
  if (expected !== undefined && eid !== expected) {
    out.push(
      finding(
        'message.execution-id',
        `the VM ran this session in ${scopeName(expected)}, the message says ${scopeName(eid)}`,
        where,
      ),
    );
  }
  return eid;
}

const scopeName = (eid: number | null | undefined) => (eid === null ? 'root scope' : `execution ${eid}`);

function display(t: RunTarget, abs: string): string {
  const r = relative(t.projectDir, abs);
  return r.startsWith('..') ? abs : r.split(sep).join('/');
}
