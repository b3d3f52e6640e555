import { join } from 'node:path';
import { DEFAULT_DECISIONS } from '../core/decisions.ts';
import { segmentFileName } from '../core/numbering.ts';
import { SUMMARY_MAX_CHARS } from './check-subagent-output.ts';
import {
  attachmentRel,
  bindingLocation,
  memoryLocation,
  rel,
  type InstructionAgent,
  type InstructionBinding,
  type InstructionRequest,
} from './instruction-paths.ts';
import {
  BEGIN_FILE,
  BEGIN_LARGE,
  BEGIN_RETURN,
  BEGIN_SMALL,
  END_BRANCH,
  END_FILE,
  END_RETURN,
  lines,
  oneLine,
  PLACEHOLDER,
} from './instruction-text.ts';
import { fsAgent, fsBinding, fsLargeBinding } from './instructions-filesystem.ts';
import { pgAgent, pgBinding, pgLargeBinding } from './instructions-postgres.ts';
import { sqliteAgent, sqliteBinding, sqliteLargeBinding } from './instructions-sqlite.ts';
import type { SubagentStorageKind } from '../core/backend.ts';

/** Each storage kind's three sections: a small output stored as the value, a large one as an attachment, an agent's memory. */
const SECTIONS: Record<
  SubagentStorageKind,
  {
    binding: (r: InstructionRequest, b: InstructionBinding) => string;
    largeBinding: (r: InstructionRequest, b: InstructionBinding) => string;
    agent: (r: InstructionRequest, a: InstructionAgent) => string;
  }
> = {
  directory: { binding: fsBinding, largeBinding: fsLargeBinding, agent: fsAgent },
  sqlite: { binding: sqliteBinding, largeBinding: sqliteLargeBinding, agent: sqliteAgent },
  postgres: { binding: pgBinding, largeBinding: pgLargeBinding, agent: pgAgent },
};

/**
 * The exact text a VM hands a subagent for one binding (and, for a persistent agent, its memory and segment) on one
 * backend: where to write, the format or the statement with the VM's values bound, and what to return. Every
 * placeholder is named in the text; nothing else needs editing.
 */
export function buildInstructions(r: InstructionRequest): string {
  const parts: string[] = [];
  const b = r.binding;
  if (b?.executionId != null) parts.push(lines('Execution scope:', `  execution_id: ${b.executionId}`));
  const ret: string[] = [];
  if (b) {
    parts.push(bindingSections(r, b));
    ret.push(`Binding written: ${b.name}`, `Location: ${bindingLocation(r, b)}`);
    if (b.executionId !== null) ret.push(`Execution ID: ${b.executionId}`);
    ret.push(`Summary: ${PLACEHOLDER.returnSummary}`);
  }
  if (r.agent) {
    parts.push(SECTIONS[r.storage].agent(r, r.agent));
    if (ret.length) ret.push('');
    ret.push(
      `Memory updated: ${r.agent.name}`,
      `Location: ${memoryLocation(r, r.agent)}`,
      `Segment: ${segmentFileName(r.agent.name, r.agent.segment, r.segmentWidth ?? 3)}`,
    );
  }
  parts.push(
    lines(
      oneLine`When done, return exactly these lines to the VM (not your output: the VM tracks pointers, not values),
        with ${PLACEHOLDER.returnSummary} replaced by 1-2 sentences (at most ${SUMMARY_MAX_CHARS} characters) on what
        the binding holds:`,
      BEGIN_RETURN,
      ...ret,
      END_RETURN,
    ),
  );
  return parts.join('\n');
}

/** The two size branches for a binding: the value itself, or an attachment file and a row or file pointing at it. */
function bindingSections(r: InstructionRequest, b: InstructionBinding): string {
  const t = r.attachmentThresholdBytes ?? DEFAULT_DECISIONS.attachmentThresholdBytes;
  const backend = SECTIONS[r.storage];
  return lines(
    oneLine`Measure your output in UTF-8 bytes and follow the one section below that matches its size (sqlite.md
      "Large Outputs": a value over ${t} bytes goes to a file under attachments/).`,
    '',
    BEGIN_SMALL(t),
    `${backend.binding(r, b)}${END_BRANCH}`,
    '',
    BEGIN_LARGE(t),
    attachmentFile(r, b),
    `${backend.largeBinding(r, b)}${END_BRANCH}`,
  );
}

function attachmentFile(r: InstructionRequest, b: InstructionBinding): string {
  return lines(
    'First write your output to:',
    `  ${rel(r, join(r.target.runDir, attachmentRel(b)))}`,
    '',
    oneLine`Format: your output alone, verbatim, nothing added (the line ${PLACEHOLDER.value} replaced by it):`,
    BEGIN_FILE,
    PLACEHOLDER.value,
    END_FILE,
  );
}
