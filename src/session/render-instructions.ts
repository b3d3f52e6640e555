import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SubagentStorageKind } from '../core/backend.ts';
import { ProseError } from '../core/errors.ts';
import { BEGIN_FILE, BEGIN_RETURN, END_FILE, END_RETURN, lines, oneLine, PLACEHOLDER } from './instruction-text.ts';

/** What the VM knows when it spawns a render (prose.md "4b. Spawn Session"). */
export interface RenderRequest {
  storage: SubagentStorageKind;
  /** `<openprose-root>`: the project directory holding `runs/`. */
  projectDir: string;
  runId: string;
  node: string;
  /** The node's declared `### Maintains` (or `### Returns`) outputs: one workspace file each. */
  outputs: string[];
  /** The node's declared errors (the names an __error.md may give). */
  errors: string[];
  inputs: { name: string; path: string }[];
  /** The nodes this one may delegate to (its `### Shape` delegates). */
  delegates: string[];
}

export const ERROR_NAME = '{error-name}';
export const REQUEST_ID = '{id}';

/**
 * The prompt the VM gives a render in the current edition on directory storage: prose.md "4b. Spawn Session" with
 * the run's values filled in, the reply in prose.md's wording (decision render-reply) and the __error.md heading
 * `# Error:` (decision error-file-heading). SQL storage has no render contract in the current texts: refused.
 */
export function buildRenderInstructions(r: RenderRequest): string {
  if (r.storage !== 'directory')
    throw new ProseError('E_UNSUPPORTED', `the current edition defines no render contract for ${r.storage} storage`, {
      hint:
        'the current sqlite.md and postgres.md ("Responsibility Separation", "What spawned sessions return") give ' +
        'only the v0 binding confirmation; use --edition v0, or --backend filesystem for a render',
    });
  const ws = `workspace/${r.node}`;
  const contractFile = join(r.projectDir, 'runs', r.runId, 'sources', `${r.node}.prose.md`);
  return [prompt(r, ws, contractFile), ...(r.delegates.length ? [delegation(r, ws)] : []), signaling(r, ws)].join('\n');
}

/** prose.md "Runtime Delegation": the request file, the yield, and what the VM answers. */
function delegation(r: RenderRequest, ws: string): string {
  const req = (d: string) => `${ws}/__delegate/${d}/${REQUEST_ID}.md`;
  return lines(
    '## Delegation',
    '',
    oneLine`You may delegate to: ${r.delegates.join(', ')}. Write the request to the file below (${REQUEST_ID} an
      identifier you choose, such as req-001), then return only these lines instead of completing:`,
    BEGIN_RETURN,
    ...r.delegates.flatMap((d) => [`Delegate: ${d}`, `Request: ${req(d)}`]),
    END_RETURN,
    oneLine`(name only the delegates you call). The VM answers "Delegation complete: {delegate}/${REQUEST_ID}" and
      "Response: ${ws}/__delegate/{delegate}/${REQUEST_ID}-response.md"; read the response and continue.`,
  );
}

function readContract(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').replace(/\n+$/, '');
  } catch {
    return undefined;
  }
}

/** prose.md 4b's prompt up to the outputs: the contract, the inputs, the workspace and the files to write. */
function prompt(r: RenderRequest, ws: string, contractFile: string): string {
  return lines(
    'Edition: current (prose.md "4b. Spawn Session"; decisions render-reply, error-file-heading)',
    '',
    `You are rendering an OpenProse node: ${r.node}.`,
    '',
    '## Your Contract',
    '',
    readContract(contractFile) ?? `(the contract is runs/${r.runId}/sources/${r.node}.prose.md: read it first)`,
    '',
    '## Your Inputs',
    '',
    ...(r.inputs.length
      ? ['Read these files for your input data:', ...r.inputs.map((i) => `- ${i.name}: ${i.path}`)]
      : ['This node has no inputs.']),
    '',
    '## Your Workspace',
    '',
    `Write all your work to: <openprose-root>/runs/${r.runId}/${ws}/`,
    `(<openprose-root> is ${r.projectDir}; every path below is relative to runs/${r.runId}/)`,
    '',
    oneLine`This is your private working directory: notes, drafts, scratch work. Write nothing outside it: the VM
        alone writes world-model/, receipts/, vm.log.md and state/, and publishes your outputs itself
        (filesystem.md "Who Writes What").`,
    '',
    '## Required Outputs',
    '',
    'When you are done, write these files to your workspace:',
    '',
    ...r.outputs.map((o) => `- ${o}: ${ws}/${o}.md`),
  );
}

/** prose.md 4b's "Error Signaling" and "When Complete", with decision render-reply's wording. */
function signaling(r: RenderRequest, ws: string): string {
  return lines(
    '## Error Signaling',
    '',
    oneLine`If you cannot satisfy your outputs' postconditions, write ${ws}/__error.md instead of
        your outputs; its format is exactly the text between the markers, ${ERROR_NAME} replaced:`,
    BEGIN_FILE,
    `# Error: ${ERROR_NAME}`,
    '{description and any partial data}',
    END_FILE,
    `The error name is one of: ${r.errors.length ? r.errors.join(', ') : '(none declared)'}`,
    '',
    '## When Complete',
    '',
    oneLine`Return exactly these lines (a confirmation, not your output), ${PLACEHOLDER.returnSummary} replaced by
        1-2 sentences:`,
    BEGIN_RETURN,
    `Render complete: ${r.node}`,
    'Outputs written:',
    ...r.outputs.map((o) => `  - ${o}: ${ws}/${o}.md`),
    `Summary: ${PLACEHOLDER.returnSummary}`,
    END_RETURN,
    '',
    `OR if errored, these (${ERROR_NAME} the name in __error.md):`,
    BEGIN_RETURN,
    `Render error: ${r.node}`,
    `Error: ${ERROR_NAME}`,
    `Details: ${ws}/__error.md`,
    END_RETURN,
  );
}
