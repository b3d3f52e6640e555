import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ProseError } from '../core/errors.ts';
import { parseBindingFile } from '../core/formats/binding-file.ts';
import { BINDING_KINDS } from '../core/model.ts';
import type { Finding } from '../verify/finding.ts';
import type { BindingBlock } from './parse-confirmation.ts';
import { parseLocation, type Location } from './parse-location.ts';
import { isInside, resolveMessagePath, sqliteRows, type PgQuery, type RunTarget } from './run-target.ts';
import { finding } from './session-rules.ts';

export interface BindingExpect {
  executionId?: number | null;
  kind?: string;
  /** Above this many UTF-8 bytes the value must be an attachment (sqlite.md "Large Outputs"; decision attachment-threshold). */
  thresholdBytes: number;
}

/** What the checker learned about the binding: the value (for the echo rule), when it could read it. */
export interface BindingCheck {
  findings: Finding[];
  value?: string;
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
  const at = (line: number) => ({ file: msgFile, line });
  const name = b.name.value;
  if (!b.location) {
    out.push(
      finding(
        'message.location-missing',
        `no "Location:" for binding ${name}`,
        at(b.name.line),
        'add the path or database coordinates you wrote to',
      ),
    );
    return { findings: out };
  }
  const loc = parseLocation(b.location.value);
  if ('error' in loc) {
    out.push(finding('message.location-form', loc.error, at(b.location.line)));
    return { findings: out };
  }
  if (t.backend && loc.form !== t.backend) {
    out.push(
      finding(
        'message.location-form',
        `a ${t.backend} run is located by ${placeOf(t.backend)}, not ${placeOf(loc.form)}`,
        at(b.location.line),
      ),
    );
    return { findings: out };
  }
  // The execution id the location names, and the one the message line names, must agree.
  let locEid: number | null = null;
  if (loc.form === 'directory') {
    const m = /__([1-9]\d*)\.md$/.exec(loc.path);
    locEid = m ? Number(m[1]) : null;
  } else if (loc.form === 'sqlite') locEid = loc.executionId;
  else locEid = typeof loc.where.execution_id === 'number' ? loc.where.execution_id : null;
  const eid = checkExecutionId(b, locEid, expect.executionId, msgFile, out);

  if (loc.form === 'directory') {
    const abs = resolveMessagePath(t, loc.path);
    if (!isInside(t.runDir, abs)) {
      out.push(
        finding(
          'message.location-outside-run',
          `${loc.path} is outside the run ${t.runRef}`,
          at(b.location.line),
          `write bindings under ${display(t, join(t.runDir, 'bindings'))}/`,
        ),
      );
      return { findings: out };
    }
    const want = join(t.runDir, 'bindings', eid === null ? `${name}.md` : `${name}__${eid}.md`);
    if (abs !== want) {
      out.push(
        finding(
          'message.location-mismatch',
          `binding ${name}${eid === null ? '' : ` in execution ${eid}`} lives at ${display(t, want)}, not ${loc.path}`,
          at(b.location.line),
        ),
      );
      return { findings: out };
    }
    return { findings: out, ...(await readFileBinding(abs, display(t, abs), name, eid, expect, out, t)) };
  }
  if (loc.form === 'sqlite') {
    const abs = resolveMessagePath(t, loc.db);
    if (!isInside(t.runDir, abs)) {
      out.push(
        finding(
          'message.location-outside-run',
          `${loc.db} is not the run's database`,
          at(b.location.line),
          `bindings of this run are in ${display(t, join(t.runDir, 'state.db'))}`,
        ),
      );
      return { findings: out };
    }
    if (abs !== join(t.runDir, 'state.db') || loc.table !== 'bindings' || loc.name !== name) {
      out.push(
        finding(
          'message.location-mismatch',
          `binding ${name} lives in ${display(t, join(t.runDir, 'state.db'))} (bindings table, name='${name}', ...)`,
          at(b.location.line),
        ),
      );
      return { findings: out };
    }
    const rows = await sqliteRows(
      abs,
      'SELECT name, execution_id, kind, value, attachment_path FROM bindings WHERE name = ? AND IFNULL(execution_id, -1) = IFNULL(?, -1)',
      [name, eid],
    );
    return { findings: out, ...checkRow(rows, display(t, abs), name, eid, expect, out, t) };
  }
  const w = loc.where;
  if (loc.table !== 'bindings' || w.name !== name || w.run_id !== t.runId) {
    out.push(
      finding(
        'message.location-mismatch',
        `binding ${name} of run ${t.runId} is openprose.bindings WHERE name='${name}' AND run_id='${t.runId}'`,
        at(b.location.line),
      ),
    );
    return { findings: out };
  }
  if (!query) {
    out.push(
      finding('message.unchecked', 'no PostgreSQL connection was given, so the row was not read', at(b.location.line)),
    );
    return { findings: out };
  }
  const rows = await query(
    'SELECT name, execution_id, kind, value, attachment_path FROM openprose.bindings WHERE run_id = $1 AND name = $2 AND COALESCE(execution_id, -1) = COALESCE($3::bigint, -1)',
    [t.runId, name, eid],
  );
  return { findings: out, ...checkRow(rows, 'openprose.bindings', name, eid, expect, out, t) };
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
        `the VM ran this session in ${expected === null ? 'root scope' : `execution ${expected}`}, the message says ${eid === null ? 'root scope' : `execution ${eid}`}`,
        where,
      ),
    );
  }
  return eid;
}

async function readFileBinding(
  abs: string,
  shown: string,
  name: string,
  eid: number | null,
  expect: BindingExpect,
  out: Finding[],
  t: RunTarget,
): Promise<{ value?: string }> {
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch {
    out.push(
      finding('binding.missing', `${shown} does not exist`, { file: shown }, 'write the binding file before returning'),
    );
    return {};
  }
  try {
    const f = parseBindingFile(text, shown);
    if (f.name !== name || f.executionId !== eid) {
      out.push(
        finding(
          'binding.scope',
          `${shown} is headed for ${f.name}${f.executionId === null ? '' : ` execution_id ${f.executionId}`}, expected ${name}${eid === null ? '' : ` execution_id ${eid}`}`,
          { file: shown, line: 1 },
        ),
      );
    }
    if (expect.kind !== undefined && f.kind !== expect.kind)
      out.push(finding('binding.kind', `kind is ${f.kind}, the VM asked for ${expect.kind}`, { file: shown, line: 3 }));
    if (f.attachment === undefined) return { value: inlineValue(f.value, expect, { file: shown }, out) };
    return attachedValue(t, f.attachment, name, eid, expect, { file: shown }, out);
  } catch (err) {
    if (!(err instanceof ProseError)) throw err;
    out.push(
      finding(
        'binding.format',
        err.message,
        { file: shown, line: err.location?.line ?? 1 },
        err.hint ?? 'follow session.md 6.1: # name, kind:, source: ```prose block, ---, value',
      ),
    );
    return {};
  }
}

function checkRow(
  rows: Record<string, unknown>[],
  table: string,
  name: string,
  eid: number | null,
  expect: BindingExpect,
  out: Finding[],
  t: RunTarget,
): { value?: string } {
  const row = `name='${name}', execution_id=${eid ?? 'NULL'}`;
  const r = rows[0];
  if (!r) {
    out.push(
      finding(
        'binding.missing',
        `no bindings row ${row}`,
        { table, row },
        'run the INSERT you were given before returning',
      ),
    );
    return {};
  }
  if (!(BINDING_KINDS as readonly unknown[]).includes(r.kind))
    out.push(
      finding('binding.format', `kind ${JSON.stringify(r.kind)} is not one of ${BINDING_KINDS.join(', ')}`, {
        table,
        row,
      }),
    );
  else if (expect.kind !== undefined && r.kind !== expect.kind)
    out.push(finding('binding.kind', `kind is ${String(r.kind)}, the VM asked for ${expect.kind}`, { table, row }));
  if (r.value == null && r.attachment_path == null)
    out.push(finding('binding.format', 'the row has neither a value nor an attachment_path', { table, row }));
  if (r.attachment_path != null) {
    const attached = attachedValue(t, String(r.attachment_path), name, eid, expect, { table, row }, out);
    if (r.value != null && Buffer.byteLength(String(r.value), 'utf8') > expect.thresholdBytes) {
      out.push(
        finding(
          'binding.attachment',
          `the row's value is ${Buffer.byteLength(String(r.value), 'utf8')} bytes beside its attachment`,
          { table, row },
          'leave value as a summary or NULL (sqlite.md "Large Outputs")',
        ),
      );
    }
    return attached;
  }
  return r.value == null ? {} : { value: inlineValue(String(r.value), expect, { table, row }, out) };
}

/** A value stored in place must fit under the threshold: a larger one belongs in attachments/. */
function inlineValue(
  value: string,
  expect: BindingExpect,
  where: { file?: string; table?: string; row?: string },
  out: Finding[],
): string {
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > expect.thresholdBytes) {
    out.push(
      finding(
        'binding.attachment',
        `the value is stored in place with ${bytes} bytes, over the ${expect.thresholdBytes}-byte threshold`,
        where,
        'write it to attachments/{name}.md and store the path (sqlite.md "Large Outputs")',
      ),
    );
  }
  return value;
}

/** The attachment a binding names: attachments/{name}[__{eid}].md of this run, present; its text is the value. */
function attachedValue(
  t: RunTarget,
  path: string,
  name: string,
  eid: number | null,
  expect: BindingExpect,
  where: { file?: string; table?: string; row?: string },
  out: Finding[],
): { value?: string } {
  const want = `attachments/${eid === null ? name : `${name}__${eid}`}.md`;
  if (path !== want) {
    out.push(
      finding(
        'binding.attachment',
        `the binding names attachment ${path}; ${name}${eid === null ? '' : ` in execution ${eid}`} is attached as ${want}`,
        where,
      ),
    );
    return {};
  }
  let value: string;
  try {
    value = readFileSync(join(t.runDir, want), 'utf8');
  } catch {
    out.push(
      finding(
        'binding.attachment',
        `the binding names ${want}, which is not in the run`,
        where,
        'write the attachment before the binding that points at it',
      ),
    );
    return {};
  }
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes <= expect.thresholdBytes) {
    out.push(
      finding(
        'binding.attachment',
        `${want} holds ${bytes} bytes, not over the ${expect.thresholdBytes}-byte threshold: store it in place`,
        where,
      ),
    );
  }
  return { value };
}

/** How a location of each storage kind reads in a finding: a file path, or the database's coordinates. */
const placeOf = (kind: Location['form']) => (kind === 'directory' ? 'a file path' : `${kind} coordinates`);

function display(t: RunTarget, abs: string): string {
  const r = relative(t.projectDir, abs);
  return r.startsWith('..') ? abs : r.split(sep).join('/');
}
