import type { Finding } from '../verify/finding.ts';
import { finding as ruleFinding } from '../verify/kit/finding-sink.ts';
import type { RuleTable } from '../verify/kit/rule-table.ts';
import type { Where } from './session-rules.ts';

/**
 * The rules of a render's reply in the current edition (decisions render-reply and error-file-heading): what
 * `verify --subagent-output` reports when the run is a current-edition run. docs/session-protocol.md lists them.
 */
export const RENDER_RULES = {
  'render.reply-missing': {
    severity: 'error',
    enforces:
      'prose.md "4b. Spawn Session" ("When Complete") and session.md 4.2/4.3: the reply starts "Render complete:", ' +
      '"Render error:" (prose.md), "Render committed:", "Render failed:" (session.md), or is a "Delegate:" request',
  },
  'render.reply-v0': {
    severity: 'error',
    enforces:
      'decision render-reply: "Binding written:" and "Memory updated:" are the v0 reply; a render of the current ' +
      'edition writes its workspace and returns a render reply',
  },
  'render.reply-mixed': {
    severity: 'error',
    enforces:
      "decision render-reply: a reply follows one form, prose.md's (Render complete/Outputs written, Render " +
      "error) or session.md's (Render committed/World-model/Receipt, Render failed), never lines of both",
  },
  'render.line-form': {
    severity: 'error',
    enforces: 'each reply line is "Key: value" with a key of its form, once, in the order the text gives',
  },
  'render.node-mismatch': {
    severity: 'error',
    enforces: "the reply names the node the VM rendered, and its paths lie in that node's workspace",
  },
  'render.summary': {
    severity: 'error',
    enforces:
      'prose.md "When Complete" "Summary: {1-2 sentence summary}", session.md 4.2: present, at most summaryMaxChars',
  },
  'render.output-missing': {
    severity: 'error',
    enforces: 'prose.md "Required Outputs": each output the reply lists exists under workspace/{node}/',
  },
  'render.output-outside-workspace': {
    severity: 'error',
    enforces:
      'prose.md "Your Workspace" "Write all your work to ... workspace/{node-name}/"; session.md 2.1: an output ' +
      "path lies in the render's own workspace",
  },
  'render.world-model-write': {
    severity: 'error',
    enforces:
      'fs "Who Writes What": world-model/{node}/* + .version by the VM (commit_world_model), never the render ' +
      '(decision wm-single-writer; the op answers E_ROLE): no reply path lies in world-model/ or state/',
  },
  'render.error-file': {
    severity: 'error',
    enforces:
      'prose.md "Error Signaling", session.md 3.2, decision error-file-heading: an error reply has ' +
      'workspace/{node}/__error.md whose first line is "# Error: name" or "# Render failed: name", the reply\'s ' +
      'Error: name, and Details: names that file',
  },
  'render.error-file-unexpected': {
    severity: 'error',
    enforces:
      'prose.md "4c. Receive Confirmation" step 1: a completed render leaves no __error.md (the VM would fail it)',
  },
  'render.world-model-mismatch': {
    severity: 'error',
    enforces:
      'session.md 4.2 "World-model:": the node\'s published world-model, and the address in parentheses its .version',
  },
  'render.receipt-mismatch': {
    severity: 'error',
    enforces: 'session.md 4.2 "Receipt:": the status of the newest receipt of the node in receipts/{node}.jsonl',
  },
  'render.delegate-request': {
    severity: 'error',
    enforces:
      'prose.md "Runtime Delegation": each "Delegate: name" is followed by "Request: ' +
      'workspace/{node}/__delegate/{name}/{id}.md", a file the render wrote before yielding',
  },
  'render.extra-text': {
    severity: 'warning',
    enforces: 'prose.md "When Complete": a confirmation, not the output; other lines are ignored by the VM',
  },
} as const satisfies RuleTable;

export type RenderRule = keyof typeof RENDER_RULES;

export function renderFinding(rule: RenderRule, message: string, where: Where, hint?: string): Finding {
  return ruleFinding(RENDER_RULES, rule, message, { file: where.file, line: where.line, hint });
}
