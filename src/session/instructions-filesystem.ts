import { join } from 'node:path';
import { formatBindingFile } from '../core/formats/binding-file.ts';
import { formatSegmentFile } from '../core/formats/segment-file.ts';
import { segmentFileName } from '../core/numbering.ts';
import {
  agentDir,
  attachmentRel,
  bindingLocation,
  rel,
  type InstructionAgent,
  type InstructionBinding,
  type InstructionRequest,
} from './instruction-paths.ts';
import {
  BEGIN_FILE,
  END_FILE,
  lines,
  MEMORY_TEMPLATE,
  oneLine,
  PLACEHOLDER,
  SUMMARY_TEMPLATE,
} from './instruction-text.ts';

/** The filesystem backend's instructions: files a subagent writes itself, in the formats of core/formats/. */

export function fsBinding(r: InstructionRequest, b: InstructionBinding): string {
  const file = formatBindingFile({ ...bindingFields(b), value: PLACEHOLDER.value });
  return lines(
    'When you complete this task, write your output to:',
    `  ${bindingLocation(r, b)}`,
    '',
    oneLine`Format: exactly the text between the markers, with the line ${PLACEHOLDER.value} replaced by your output,
      verbatim:`,
    BEGIN_FILE,
    file,
    END_FILE,
  );
}

export function fsLargeBinding(r: InstructionRequest, b: InstructionBinding): string {
  // Decision fs-attachment-header: an attachment: header line and a one-line summary as the value.
  const a = attachmentRel(b);
  const file = formatBindingFile({
    ...bindingFields(b),
    value: `(attached: ${PLACEHOLDER.bytes} bytes in ${a})`,
    attachment: a,
  });
  return lines(
    'Then write the binding file to:',
    `  ${bindingLocation(r, b)}`,
    '',
    oneLine`Format: exactly the text between the markers, with ${PLACEHOLDER.bytes} replaced by the size of your output
      in UTF-8 bytes:`,
    BEGIN_FILE,
    file,
    END_FILE,
  );
}

export function fsAgent(r: InstructionRequest, a: InstructionAgent): string {
  const dir = agentDir(r, a);
  const seg = segmentFileName(a.name, a.segment, r.segmentWidth ?? 3);
  const segment = formatSegmentFile(
    { number: a.segment, timestamp: PLACEHOLDER.timestamp, prompt: a.prompt, summary: SUMMARY_TEMPLATE },
    r.segmentWidth ?? 3,
  );
  return lines(
    'Your memory is at:',
    `  ${rel(r, join(dir, 'memory.md'))}`,
    '',
    oneLine`Read it first to understand your prior context. When done, replace it with your compacted state in this
      structure (specific locations, numbers and names; every decision dated, with its rationale):`,
    BEGIN_FILE,
    `${MEMORY_TEMPLATE(a.name)}${END_FILE}`,
    '',
    'Also write your segment record to:',
    `  ${rel(r, join(dir, seg))}`,
    '',
    oneLine`Format: exactly this, with ${PLACEHOLDER.timestamp} the current UTC time (ISO 8601, e.g.
      2026-01-15T14:32:15Z) and the {...} lines filled in:`,
    BEGIN_FILE,
    `${segment}${END_FILE}`,
  );
}

const bindingFields = (b: InstructionBinding) => ({
  name: b.name,
  kind: b.kind,
  executionId: b.executionId,
  source: b.source,
});
