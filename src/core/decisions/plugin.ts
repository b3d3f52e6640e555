import type { DecisionRow } from './decision-row.ts';

/** Choices of the plugin layer: module plugins and the stdio protocol (conformance/plugins/reference/README.md). */
export const PLUGIN_DECISIONS: DecisionRow[] = [
  {
    id: 'plugin-protocol-version',
    area: 'plugins',
    spec: 'The seeds define no plugin protocol; the toolkit defines one (JSON Lines over stdio, bowtie-style).',
    choice:
      'Protocol version 1. The harness sends hello {protocol: 1}; a plugin answering any other version is E_PLUGIN naming both versions; there is no negotiation. Any breaking change bumps the version and regenerates conformance/schema/protocol.schema.json.',
    why: 'An exact match is the only version rule a third party cannot misread; esbuild does the same.',
  },
  {
    id: 'plugin-seq',
    area: 'plugins',
    spec: 'None.',
    choice:
      'Every request carries seq (hello is 0, then 1, 2, ... per process); every reply echoes it. A reply whose seq no request in flight has is E_PLUGIN. Replies may come in any order.',
    why: 'An echoed seq catches a plugin answering the wrong request, or answering late after a timeout.',
  },
  {
    id: 'plugin-line-framing',
    area: 'plugins',
    spec: 'None: JSON Lines says one JSON text per line, not which characters end a line.',
    choice:
      "A protocol line ends at \\n only (one \\r before it may be dropped). Both sides write U+2028, U+2029 and U+0085 inside strings as \\u escapes, so a reader that also splits on them (Node's readline, Python's str.splitlines) still gets whole messages; the harness reads on \\n only.",
    why: "JSON.stringify leaves those three raw and common line readers split on them: a name holding U+2028 cut the reference plugin's request in two and the call timed out instead of answering E_INVALID_NAME.",
  },
  {
    id: 'plugin-call-args-loose',
    area: 'plugins',
    spec: 'None.',
    choice:
      'The call envelope is schema-checked, but args only has to be an object: the per-op argument shapes are in $defs/args for implementers, not enforced by the harness. Non-object args answer E_INVALID_ARGUMENT without being sent.',
    why: 'Cases send wrong arguments on purpose and expect the backend to answer E_INVALID_ARGUMENT; a strict envelope would turn those into harness errors.',
  },
  {
    id: 'plugin-error-codes',
    area: 'plugins',
    spec: 'None.',
    choice:
      "A plugin may answer every error code except E_USAGE, E_CASE and E_PLUGIN (the harness's own). E_BACKEND and E_IO are for the plugin failing internally.",
    why: 'A plugin cannot report that the harness or the protocol broke; only the harness sees that.',
  },
  {
    id: 'plugin-failure',
    area: 'plugins',
    spec: 'None.',
    choice:
      'A crash, a timeout (default 10 s per request), a line that is not JSON, a message failing the schema, a wrong seq or a reply of the wrong type makes the call E_PLUGIN with the evidence (request, what was received, exit status, the last 8 KiB of stderr); the process is killed and later calls on that instance fail at once. The next open starts a new process.',
    why: 'The runner maps E_PLUGIN to errored for the case and carries on; a broken plugin must never hang the run.',
  },
  {
    id: 'plugin-process-per-open',
    area: 'plugins',
    spec: 'Restart = close the instance, open a new one on the same storage.',
    choice:
      'Every open starts a new process (hello, open, calls, close); close waits 2 s for the exit, then kills the process group. The factory starts one extra process at load time to learn name, kind and capabilities; every later hello must declare the same.',
    why: 'A restart that kept the process would not test durability; a declaration that changes between processes would make capability checks meaningless.',
  },
  {
    id: 'plugin-line-limit',
    area: 'plugins',
    spec: 'None.',
    choice:
      'A reply line may be up to 64 MiB of UTF-8; a longer line without a newline is E_PLUGIN. Blank lines are ignored; a trailing \\r is dropped.',
    why: 'Large binding values (attachments are over 100 KiB) travel inline in results.',
  },
  {
    id: 'plugin-storage-view',
    area: 'plugins',
    spec: "Layout expectations read a backend's storage.",
    choice:
      "An exec plugin of kind directory declaring layout:directory exposes the env's projectDir and homeDir as its storage view; other kinds expose none over the protocol.",
    why: 'A directory can be read by the harness directly; a database would need a query channel the protocol does not have yet.',
  },
  {
    id: 'plugin-module-export',
    area: 'plugins',
    spec: 'None.',
    choice:
      'A module plugin exports its factory as `factory` (preferred) or as the default export, with name, kind, capabilities and open(env); description is optional. Errors thrown with a contract `code` property keep that code; anything else is E_BACKEND.',
    why: 'Plain JavaScript plugins can then answer contract errors without importing the toolkit.',
  },
  {
    id: 'capability-probes',
    area: 'plugins',
    spec: 'Declared capabilities are checked both ways (a declared one works; an undeclared one answers E_UNSUPPORTED).',
    choice:
      'project/user/custom scopes, imports, world-model (commitWorldModel then readPublished) and receipts (an empty ledger for a new run; with world-model, two commits append two receipts carrying their content hashes, chained by prev): undeclared, the first call must answer E_UNSUPPORTED. attachments undeclared: a large value is stored inline (attached false). durable undeclared: the run is gone after a restart (E_NOT_FOUND). layout:* undeclared: storage() is not a view of that kind. concurrent-writers and multi-process have no refusal to check and are probed only when declared. A capability with operations but no probe yet: undeclared, its first operation must answer E_UNSUPPORTED; declared, it is reported unprobed with the reason (subagent-writes: the cases requiring it exercise it). A probe ending in E_PLUGIN, E_BACKEND, E_IO, a plain exception or a timeout (the step timeout) is errored, not a contradiction.',
    why: 'Only some capabilities gate a call; for the others the off behaviour is what the seed implies. A backend that breaks says nothing about its claims, as an errored case says nothing about conformance.',
  },
  {
    id: 'capability-claims-in-test',
    area: 'plugins',
    spec: 'None.',
    choice:
      '`prose-state test` probes every backend of the run on fresh storage (disposed after), after its header and before its cases, and every report shows the verdicts (JSON Lines: one `capabilities` record per backend). A contradicted claim (claimed-but-broken, undeclared-but-works, undeclared-half-works) fails the run with exit 1, as a failed case does; an errored probe is exit 3 unless something failed; unprobed is shown with its reason and fails nothing. --no-probe (PROSE_STATE_NO_PROBE) skips the probes; the header then says `probes: skipped`.',
    why: 'A claim the behaviour contradicts decides which cases run or are skipped, so it is a conformance failure of its own; undeclared-but-works too, since the design says an undeclared capability answers unsupported.',
  },
];
