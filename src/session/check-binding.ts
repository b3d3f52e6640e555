import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ProseError } from '../core/errors.ts';
import { parseBindingFile } from '../core/formats/binding-file.ts';
import { BINDING_KINDS } from '../core/model.ts';
import type { Finding } from '../verify/finding.ts';
import type { BindingBlock } from './parse-confirmation.ts';
import { parseLocation } from './parse-location.ts';
import { isInside, resolveMessagePath, sqliteRows, type PgQuery, type RunTarget } from './run-target.ts';
import { finding } from './session-rules.ts';

export interface BindingExpect { executionId?: number | null; kind?: string }

/** What the checker learned about the binding: the value (for the echo rule), when it could read it. */
export interface BindingCheck { findings: Finding[]; value?: string }

/**
 * Checks the binding block against the run: the location has the seed's form for this backend, lies in the run,
 * is the one the name and execution id give, and the binding is there in the seed's format and scope.
 */
export async function checkBinding(b: BindingBlock, t: RunTarget, msgFile: string, query: PgQuery | undefined, expect: BindingExpect): Promise<BindingCheck> {
  const out: Finding[] = [];
  const at = (line: number) => ({ file: msgFile, line });
  const name = b.name.value;
  if (!b.location) {
    out.push(finding('message.location-missing', `no "Location:" for binding ${name}`, at(b.name.line), 'add the path or database coordinates you wrote to'));
    return { findings: out };
  }
  const loc = parseLocation(b.location.value);
  if ('error' in loc) {
    out.push(finding('message.location-form', loc.error, at(b.location.line)));
    return { findings: out };
  }
  const wantForm = t.backend === 'filesystem' ? 'file' : t.backend;
  if (wantForm && loc.form !== wantForm) {
    out.push(finding('message.location-form', `a ${t.backend} run is located by ${wantForm === 'file' ? 'a file path' : `${t.backend} coordinates`}, not ${loc.form === 'file' ? 'a file path' : `${loc.form} coordinates`}`, at(b.location.line)));
    return { findings: out };
  }
  // The execution id the location names, and the one the message line names, must agree.
  let locEid: number | null = null;
  if (loc.form === 'file') {
    const m = /__([1-9]\d*)\.md$/.exec(loc.path);
    locEid = m ? Number(m[1]) : null;
  } else if (loc.form === 'sqlite') locEid = loc.executionId;
  else locEid = typeof loc.where.execution_id === 'number' ? loc.where.execution_id : null;
  const eid = checkExecutionId(b, locEid, expect.executionId, msgFile, out);

  if (loc.form === 'file') {
    const abs = resolveMessagePath(t, loc.path);
    if (!isInside(t.runDir, abs)) {
      out.push(finding('message.location-outside-run', `${loc.path} is outside the run ${t.runRef}`, at(b.location.line), `write bindings under ${display(t, join(t.runDir, 'bindings'))}/`));
      return { findings: out };
    }
    const want = join(t.runDir, 'bindings', eid === null ? `${name}.md` : `${name}__${eid}.md`);
    if (abs !== want) {
      out.push(finding('message.location-mismatch', `binding ${name}${eid === null ? '' : ` in execution ${eid}`} lives at ${display(t, want)}, not ${loc.path}`, at(b.location.line)));
      return { findings: out };
    }
    return { findings: out, ...(await readFileBinding(abs, display(t, abs), name, eid, expect, out)) };
  }
  if (loc.form === 'sqlite') {
    const abs = resolveMessagePath(t, loc.db);
    if (!isInside(t.runDir, abs)) {
      out.push(finding('message.location-outside-run', `${loc.db} is not the run's database`, at(b.location.line), `bindings of this run are in ${display(t, join(t.runDir, 'state.db'))}`));
      return { findings: out };
    }
    if (abs !== join(t.runDir, 'state.db') || loc.table !== 'bindings' || loc.name !== name) {
      out.push(finding('message.location-mismatch', `binding ${name} lives in ${display(t, join(t.runDir, 'state.db'))} (bindings table, name='${name}', ...)`, at(b.location.line)));
      return { findings: out };
    }
    const rows = await sqliteRows(abs, 'SELECT name, execution_id, kind, value, attachment_path FROM bindings WHERE name = ? AND IFNULL(execution_id, -1) = IFNULL(?, -1)', [name, eid]);
    return { findings: out, ...checkRow(rows, display(t, abs), name, eid, expect, out) };
  }
  const w = loc.where;
  if (loc.table !== 'bindings' || w.name !== name || w.run_id !== t.runId) {
    out.push(finding('message.location-mismatch', `binding ${name} of run ${t.runId} is openprose.bindings WHERE name='${name}' AND run_id='${t.runId}'`, at(b.location.line)));
    return { findings: out };
  }
  if (!query) {
    out.push(finding('message.unchecked', 'no PostgreSQL connection was given, so the row was not read', at(b.location.line)));
    return { findings: out };
  }
  const rows = await query('SELECT name, execution_id, kind, value, attachment_path FROM openprose.bindings WHERE run_id = $1 AND name = $2 AND COALESCE(execution_id, -1) = COALESCE($3::bigint, -1)', [t.runId, name, eid]);
  return { findings: out, ...checkRow(rows, 'openprose.bindings', name, eid, expect, out) };
}

function checkExecutionId(b: BindingBlock, locEid: number | null, expected: number | null | undefined, msgFile: string, out: Finding[]): number | null {
  const line = b.executionId;
  let lineEid: number | null = null;
  if (line) {
    if (!/^[1-9]\d*$/.test(line.value)) out.push(finding('message.execution-id', `"Execution ID: ${line.value}" is not a positive integer`, { file: msgFile, line: line.line }));
    else lineEid = Number(line.value);
  }
  const where = { file: msgFile, line: line?.line ?? b.location!.line };
  if (line && lineEid !== null && locEid === null) out.push(finding('message.execution-id', `"Execution ID: ${lineEid}" but the location is root scope`, where, `inside a block invocation the binding is {name}__${lineEid}`));
  if (!line && locEid !== null) out.push(finding('message.execution-id', `the location is in execution ${locEid} but there is no "Execution ID: ${locEid}" line`, where, 'add the line (filesystem.md "Inside block invocation")'));
  if (lineEid !== null && locEid !== null && lineEid !== locEid) out.push(finding('message.execution-id', `"Execution ID: ${lineEid}" but the location names execution ${locEid}`, where));
  const eid = locEid ?? lineEid;
  if (expected !== undefined && eid !== expected) {
    out.push(finding('message.execution-id', `the VM ran this session in ${expected === null ? 'root scope' : `execution ${expected}`}, the message says ${eid === null ? 'root scope' : `execution ${eid}`}`, where));
  }
  return eid;
}

async function readFileBinding(abs: string, shown: string, name: string, eid: number | null, expect: BindingExpect, out: Finding[]): Promise<{ value?: string }> {
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch {
    out.push(finding('binding.missing', `${shown} does not exist`, { file: shown }, 'write the binding file before returning'));
    return {};
  }
  try {
    const f = parseBindingFile(text, shown);
    if (f.name !== name || f.executionId !== eid) {
      out.push(finding('binding.scope', `${shown} is headed for ${f.name}${f.executionId === null ? '' : ` execution_id ${f.executionId}`}, expected ${name}${eid === null ? '' : ` execution_id ${eid}`}`, { file: shown, line: 1 }));
    }
    if (expect.kind !== undefined && f.kind !== expect.kind) out.push(finding('binding.kind', `kind is ${f.kind}, the VM asked for ${expect.kind}`, { file: shown, line: 3 }));
    return { value: f.value };
  } catch (err) {
    if (!(err instanceof ProseError)) throw err;
    out.push(finding('binding.format', err.message, { file: shown, line: err.location?.line ?? 1 }, err.hint ?? 'follow session.md 6.1: # name, kind:, source: ```prose block, ---, value'));
    return {};
  }
}

function checkRow(rows: Record<string, unknown>[], table: string, name: string, eid: number | null, expect: BindingExpect, out: Finding[]): { value?: string } {
  const row = `name='${name}', execution_id=${eid ?? 'NULL'}`;
  const r = rows[0];
  if (!r) {
    out.push(finding('binding.missing', `no bindings row ${row}`, { table, row }, 'run the INSERT you were given before returning'));
    return {};
  }
  if (!(BINDING_KINDS as readonly unknown[]).includes(r.kind)) out.push(finding('binding.format', `kind ${JSON.stringify(r.kind)} is not one of ${BINDING_KINDS.join(', ')}`, { table, row }));
  else if (expect.kind !== undefined && r.kind !== expect.kind) out.push(finding('binding.kind', `kind is ${String(r.kind)}, the VM asked for ${expect.kind}`, { table, row }));
  if (r.value == null && r.attachment_path == null) out.push(finding('binding.format', 'the row has neither a value nor an attachment_path', { table, row }));
  return r.value == null ? {} : { value: String(r.value) };
}

function display(t: RunTarget, abs: string): string {
  const r = relative(t.projectDir, abs);
  return r.startsWith('..') ? abs : r.split(sep).join('/');
}
