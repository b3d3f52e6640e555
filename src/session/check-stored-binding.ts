import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProseError } from '../core/errors.ts';
import { parseBindingFile } from '../core/formats/binding-file.ts';
import { BINDING_KINDS } from '../core/model.ts';
import type { Finding } from '../verify/finding.ts';
import type { RunTarget } from './run-target.ts';
import { finding } from './session-rules.ts';

export interface BindingExpect {
  executionId?: number | null;
  kind?: string;
  /** Above this many UTF-8 bytes the value must be an attachment (sqlite.md "Large Outputs"; decision attachment-threshold). */
  thresholdBytes: number;
}

/**
 * What a binding holds once its location checked out: a binding file (filesystem) or a bindings row (sqlite,
 * postgres), in the seed's format and scope, its value in place under the threshold or in its attachment over it.
 */

export async function readFileBinding(
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
          `${shown} is headed for ${f.name}${inExecution(f.executionId)}, expected ${name}${inExecution(eid)}`,
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

export function checkRow(
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
        `the binding names attachment ${path}; ${name}${eid === null ? '' : ` in execution ${eid}`} ` +
          `is attached as ${want}`,
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

const inExecution = (eid: number | null) => (eid === null ? '' : ` execution_id ${eid}`);
