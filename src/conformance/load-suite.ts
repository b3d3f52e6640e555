import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type YAMLMap } from 'yaml';
import { STORAGE_KINDS, SUBAGENT_STORAGE_KINDS } from '../core/backend.ts';
import { isCapability, type Capability } from '../core/capabilities.ts';
import { isErrorCode, ProseError } from '../core/errors.ts';
import { isOpName, OPS } from '../core/ops.ts';
import { SESSION_RULES } from '../session/session-rules.ts';
import {
  DEVIATIONS,
  PLANT_STORAGES,
  type Case,
  type LayoutStep,
  type PlantStep,
  type SourcePos,
  type Step,
  type SubagentStep,
  type Suite,
} from './case-types.ts';
import { plantPathProblem } from './plant.ts';
import { WORKLOADS, type Workload } from './workload.ts';

const CASE_KEYS = new Set(['id', 'title', 'spec', 'requires', 'run', 'steps']);
const FILE_KEYS = new Set(['area', 'spec', 'cases']);
const OP_KEYS = new Set(['op', 'args', 'as', 'expect', 'error', 'message', 'save']);
const LAYOUT_KEYS = new Set([
  'layout',
  'file',
  'exists',
  'equals',
  'contains',
  'matches',
  'db',
  'query',
  'params',
  'rows',
]);
/** The storage kinds a layout step may check: every kind with a layout (not `other`). */
const STORAGES = new Set<string>(STORAGE_KINDS.filter((k) => k !== 'other'));
const ID = /^[a-z0-9-]+\/[a-z0-9][a-z0-9.-]*$/;

/** Loads `suite.yaml` and every `cases/**.yaml` under `dir`; every error carries file, line and field. */
export function loadSuite(dir: string): Suite {
  const meta = readYaml(join(dir, 'suite.yaml'));
  const metaObj = meta.doc.toJSON() as { name?: unknown; version?: unknown };
  if (typeof metaObj?.name !== 'string' || typeof metaObj?.version !== 'string') {
    throw caseError(meta.file, 1, 'suite.yaml needs "name" and "version" strings');
  }
  const cases: Case[] = [];
  const seen = new Map<string, SourcePos>();
  for (const path of yamlFiles(join(dir, 'cases'))) {
    for (const c of loadCaseFile(path)) {
      checkPlantRequires(c);
      const prev = seen.get(c.id);
      if (prev)
        throw caseError(c.pos.file, c.pos.line, `case id "${c.id}" is already used at ${prev.file}:${prev.line}`, 'id');
      seen.set(c.id, c.pos);
      cases.push(c);
    }
  }
  return { name: metaObj.name, version: metaObj.version, dir, cases };
}

function yamlFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    throw new ProseError('E_CASE', `no cases directory at ${dir}`, {
      hint: 'a suite holds suite.yaml and cases/*.yaml',
    });
  }
  return entries.flatMap((e) => {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) return yamlFiles(p);
    return /\.ya?ml$/.test(e) ? [p] : [];
  });
}

interface Parsed {
  doc: ReturnType<typeof parseDocument>;
  lc: LineCounter;
  file: string;
}

function readYaml(path: string): Parsed {
  const file = relative(process.cwd(), path) || path;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ProseError('E_CASE', `cannot read ${file}: ${(err as Error).message}`);
  }
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const { line, col } = lc.linePos(first.pos[0]);
    throw new ProseError('E_CASE', first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''), {
      location: { file, line, column: col },
    });
  }
  return { doc, lc, file };
}

/** A node as plain data, with anchors and aliases resolved against its document (cases may share values). */
function toJs(p: Parsed, node: Node): unknown {
  return node.toJS(p.doc);
}

function caseError(file: string, line: number, message: string, field?: string): ProseError {
  return new ProseError('E_CASE', message, { location: { file, line, ...(field ? { field } : {}) } });
}

function loadCaseFile(path: string): Case[] {
  const p = readYaml(path);
  const top = p.doc.contents;
  const at = (n: Node | null | undefined): number => (n?.range ? p.lc.linePos(n.range[0]).line : 1);
  if (!isMap(top)) throw caseError(p.file, 1, 'a case file is a mapping with "area" and "cases"');
  checkKeys(p, top, FILE_KEYS, 'file');
  const area = str(p, top, 'area', true)!;
  const fileSpec = str(p, top, 'spec', false) ?? '';
  const list = top.get('cases', true);
  if (!isSeq(list)) throw caseError(p.file, at(top), '"cases" must be a list', 'cases');
  return list.items.map((item, i) => {
    if (!isMap(item)) throw caseError(p.file, at(item as Node), `cases[${i}] must be a mapping`, `cases[${i}]`);
    checkKeys(p, item, CASE_KEYS, `cases[${i}]`);
    const id = str(p, item, 'id', true)!;
    if (!ID.test(id) || !id.startsWith(`${area}/`)) {
      throw caseError(
        p.file,
        at(item),
        `case id "${id}" must look like "${area}/some-name" (lowercase, digits, "-", ".")`,
        `cases[${i}].id`,
      );
    }
    const reqNode = item.get('requires', true) as Node | undefined;
    const reqList = isSeq(reqNode) ? (toJs(p, reqNode) as unknown[]) : reqNode === undefined ? [] : null;
    if (!reqList || !reqList.every(isCapability))
      throw caseError(p.file, at(reqNode ?? item), `requires must list known capabilities`, `${id}.requires`);
    const runNode = item.get('run', true);
    const run = runNode === undefined ? true : (runNode as { value?: unknown }).value;
    if (typeof run !== 'boolean')
      throw caseError(p.file, at(runNode as Node), '"run" must be true or false', `${id}.run`);
    const stepsNode = item.get('steps', true);
    if (!isSeq(stepsNode) || stepsNode.items.length === 0)
      throw caseError(p.file, at(item), `case ${id} needs a non-empty "steps" list`, `${id}.steps`);
    const steps = stepsNode.items.map((s, j) => loadStep(p, s as Node, `${id}.steps[${j}]`));
    // A reader of the case must see why it skips, so a capability its steps need is listed, not added silently.
    const missing = impliedCapabilities(steps).filter(([cap]) => !(reqList as Capability[]).includes(cap));
    if (missing.length) {
      const [cap, why] = missing[0]!;
      throw caseError(
        p.file,
        at(reqNode ?? item),
        `case ${id} has a ${why} step, which needs capability ${cap}: list it in "requires"`,
        `${id}.requires`,
      );
    }
    return {
      id,
      area,
      title: str(p, item, 'title', true)!,
      spec: str(p, item, 'spec', false) ?? fileSpec,
      requires: [...new Set(reqList as Capability[])],
      run,
      steps,
      pos: { file: p.file, line: at(item) },
    };
  });
}

function loadWorkerStep(p: Parsed, node: YAMLMap, field: string, pos: SourcePos): Step {
  const crash = node.has('crash');
  const key = crash ? 'crash' : 'concurrent';
  checkKeys(p, node, new Set([key]), field);
  const body = toJs(p, node.get(key, true) as Node) as Record<string, unknown>;
  const allowed = crash ? ['workload', 'kills', 'max-delay-ms', 'in-process'] : ['workload', 'writers', 'each'];
  for (const k of Object.keys(body ?? {}))
    if (!allowed.includes(k))
      throw caseError(p.file, pos.line, `unknown field "${k}"; allowed: ${allowed.join(', ')}`, `${field}.${key}.${k}`);
  if (!WORKLOADS.includes(body.workload as never))
    throw caseError(p.file, pos.line, `workload must be one of ${WORKLOADS.join(', ')}`, `${field}.${key}.workload`);
  const int = (k: string, d?: number): number => {
    const v = body[k] ?? d;
    if (!Number.isSafeInteger(v) || (v as number) < 1)
      throw caseError(p.file, pos.line, `"${k}" must be a positive whole number`, `${field}.${key}.${k}`);
    return v as number;
  };
  const inProcess = body['in-process'] ?? false;
  if (typeof inProcess !== 'boolean')
    throw caseError(p.file, pos.line, '"in-process" must be true or false', `${field}.${key}.in-process`);
  return crash
    ? {
        kind: 'crash',
        pos,
        workload: body.workload as Workload,
        kills: int('kills'),
        maxDelayMs: int('max-delay-ms', 40),
        inProcess,
      }
    : { kind: 'concurrent', pos, workload: body.workload as Workload, writers: int('writers'), each: int('each') };
}

/**
 * The capabilities a case's steps need whatever it checks: a restart reopens what was committed; crash workers open
 * the same storage from other processes and only what is durable survives them; concurrent workers write at once;
 * a subagent step writes into the storage itself.
 */
function impliedCapabilities(steps: Step[]): [Capability, string][] {
  const out: [Capability, string][] = [];
  if (containsKind(steps, 'restart')) out.push(['durable', 'restart']);
  if (containsKind(steps, 'crash')) out.push(['durable', 'crash']);
  // A crash simulated in the runner's process needs no second process; a killed writer process does.
  if (containsStep(steps, (s) => s.kind === 'crash' && !s.inProcess)) out.push(['multi-process', 'crash']);
  if (containsKind(steps, 'crash-states')) out.push(['durable', 'crash-states'], ['multi-process', 'crash-states']);
  if (containsKind(steps, 'concurrent'))
    out.push(['multi-process', 'concurrent'], ['concurrent-writers', 'concurrent']);
  if (containsKind(steps, 'mixed-writers')) {
    for (const cap of ['multi-process', 'concurrent-writers', 'layout:sqlite', 'native-sqlite3-beside'] as const)
      out.push([cap, 'mixed-writers']);
  }
  if (containsKind(steps, 'subagent')) out.push(['subagent-writes', 'subagent']);
  return out;
}

function loadCrashStatesStep(p: Parsed, node: YAMLMap, field: string, pos: SourcePos): Step {
  const { body, int } = stepFields(p, node, 'crash-states', field, pos, ['workload', 'start', 'count', 'max-states']);
  if (!WORKLOADS.includes(body.workload as never))
    throw caseError(
      p.file,
      pos.line,
      `workload must be one of ${WORKLOADS.join(', ')}`,
      `${field}.crash-states.workload`,
    );
  return {
    kind: 'crash-states',
    pos,
    workload: body.workload as Workload,
    start: int('start', 0, 0),
    count: int('count', 1),
    maxStates: int('max-states', 1, 200),
  };
}

function loadMixedWritersStep(p: Parsed, node: YAMLMap, field: string, pos: SourcePos): Step {
  const { int } = stepFields(p, node, 'mixed-writers', field, pos, ['ours', 'cli', 'each', 'readers', 'kills']);
  return {
    kind: 'mixed-writers',
    pos,
    ours: int('ours', 1),
    cli: int('cli', 1),
    each: int('each', 1),
    readers: int('readers', 0, 0),
    kills: int('kills', 0, 0),
  };
}

/** A step's mapping under `key`, its fields checked against `allowed`, and a reader of its whole numbers. */
function stepFields(p: Parsed, node: YAMLMap, key: string, field: string, pos: SourcePos, allowed: string[]) {
  checkKeys(p, node, new Set([key]), field);
  const body = (toJs(p, node.get(key, true) as Node) ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(body))
    if (!allowed.includes(k))
      throw caseError(p.file, pos.line, `unknown field "${k}"; allowed: ${allowed.join(', ')}`, `${field}.${key}.${k}`);
  const int = (k: string, min: number, d?: number): number => {
    const v = body[k] ?? d;
    if (!Number.isSafeInteger(v) || (v as number) < min)
      throw caseError(p.file, pos.line, `"${k}" must be a whole number of at least ${min}`, `${field}.${key}.${k}`);
    return v as number;
  };
  return { body, int };
}

export function containsKind(steps: Step[], kind: Step['kind']): boolean {
  return containsStep(steps, (s) => s.kind === kind);
}

function containsStep(steps: Step[], is: (s: Step) => boolean): boolean {
  return steps.some((s) => is(s) || (s.kind === 'repeat' && containsStep(s.steps, is)));
}

const SUBAGENT_FIELDS = new Set([
  'binding',
  'kind',
  'executionId',
  'source',
  'agent',
  'scope',
  'prompt',
  'value',
  'summary',
  'memory',
  'segmentSummary',
  'deviate',
]);

function loadSubagentStep(p: Parsed, node: YAMLMap, field: string, pos: SourcePos): SubagentStep {
  checkKeys(p, node, new Set(['subagent', 'findings', 'refused', 'save']), field);
  const body = toJs(p, node.get('subagent', true) as Node) as Record<string, unknown> | null;
  const err = (msg: string, f: string) => caseError(p.file, pos.line, msg, `${field}.${f}`);
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw err('"subagent" is a mapping (binding, value, summary, ...)', 'subagent');
  for (const k of Object.keys(body))
    if (!SUBAGENT_FIELDS.has(k))
      throw err(`unknown field "${k}"; allowed: ${[...SUBAGENT_FIELDS].join(', ')}`, `subagent.${k}`);
  if (body.binding === undefined && body.agent === undefined)
    throw err("a subagent writes a binding, an agent's memory, or both", 'subagent');
  for (const k of ['value', 'summary'])
    if (body[k] === undefined) throw err(`"${k}" is required (what the subagent produces)`, `subagent.${k}`);
  if (body.scope !== undefined && !['execution', 'project', 'user'].includes(body.scope as string))
    throw err('scope is execution, project or user', 'subagent.scope');
  if (body.deviate !== undefined && !DEVIATIONS.includes(body.deviate as never))
    throw err(`deviate is one of ${DEVIATIONS.join(', ')}`, 'subagent.deviate');
  const save = node.get('save');
  if (save !== undefined && typeof save !== 'string') throw err('"save" must be a variable name', 'save');
  const { kind, ...rest } = body;
  const refused = loadRefused(p, node.get('refused', true) as Node | undefined, err);
  if (refused !== false && body.deviate === undefined)
    throw err('only a deviating subagent (deviate:) can expect its write refused', 'refused');
  return {
    kind: 'subagent',
    pos,
    ...rest,
    ...(kind !== undefined ? { bindingKind: kind } : {}),
    refused,
    findings: loadFindings(p, node.get('findings', true) as Node | undefined, err),
    ...(save !== undefined ? { save: save as string } : {}),
  } as SubagentStep;
}

/**
 * Planted state is written by someone else (as a subagent writes) and read by a reopened backend: a case that plants
 * lists `subagent-writes` and `durable`, so a reader of the YAML sees why it skips.
 */
function checkPlantRequires(c: Case): void {
  const plant = findStep(c.steps, 'plant');
  if (!plant) return;
  const missing = (['durable', 'subagent-writes'] as const).find((cap) => !c.requires.includes(cap));
  if (missing)
    throw caseError(
      c.pos.file,
      c.pos.line,
      `case ${c.id} has a plant step (line ${plant.pos.line}), which needs capability ${missing}: list it in "requires"`,
      `${c.id}.requires`,
    );
}

function findStep(steps: Step[], kind: Step['kind']): Step | undefined {
  for (const s of steps) {
    const found = s.kind === kind ? s : s.kind === 'repeat' ? findStep(s.steps, kind) : undefined;
    if (found) return found;
  }
  return undefined;
}

const PLANT_KEYS = new Set(['plant', 'files', 'db', 'sql']);

function loadPlantStep(p: Parsed, node: YAMLMap, field: string, pos: SourcePos): PlantStep {
  checkKeys(p, node, PLANT_KEYS, field);
  const js = toJs(p, node) as Record<string, unknown>;
  // The line of the field at fault (its key's value), the step's line when the field is missing.
  const lineOf = (f: string) => {
    const n = node.get(f.split('.')[0]!, true) as Node | undefined;
    return n?.range ? p.lc.linePos(n.range[0]).line : pos.line;
  };
  const err = (msg: string, f: string) => caseError(p.file, lineOf(f), msg, `${field}.${f}`);
  if (!(PLANT_STORAGES as readonly unknown[]).includes(js.plant))
    throw err(`plant must be one of ${PLANT_STORAGES.join(', ')}`, 'plant');
  const storage = js.plant as PlantStep['storage'];
  const step: PlantStep = { kind: 'plant', pos, storage };
  if (js.files !== undefined) {
    const files = js.files as Record<string, unknown>;
    if (!files || typeof files !== 'object' || Array.isArray(files) || Object.keys(files).length === 0)
      throw err('"files" is a non-empty mapping of path to content', 'files');
    for (const [path, content] of Object.entries(files)) {
      const problem = plantPathProblem(path);
      if (problem) throw err(problem, `files.${path}`);
      if (typeof content !== 'string')
        throw err('file content is a string (a YAML block scalar keeps the seed text verbatim)', `files.${path}`);
    }
    step.files = files as Record<string, string>;
  }
  if (js.sql !== undefined) {
    if (storage === 'directory') throw err('directory storage has no SQL; plant files', 'sql');
    if (typeof js.sql !== 'string' || js.sql.trim() === '') throw err('"sql" is a non-empty string', 'sql');
    step.sql = js.sql;
  }
  if (js.db !== undefined) {
    if (storage !== 'sqlite') throw err('"db" names a SQLite file and goes with plant: sqlite', 'db');
    const problem = typeof js.db === 'string' ? plantPathProblem(js.db) : '"db" is a path';
    if (problem) throw err(problem, 'db');
    step.db = js.db as string;
  }
  if (storage === 'sqlite' && (step.sql === undefined) !== (step.db === undefined))
    throw err('plant: sqlite runs "sql" on "db": give both or neither', step.db ? 'sql' : 'db');
  if (!step.files && !step.sql) throw err('a plant step plants "files", "sql", or both', 'plant');
  return step;
}

function loadRefused(
  p: Parsed,
  node: Node | undefined,
  err: (msg: string, f: string) => ProseError,
): SubagentStep['refused'] {
  const js = node === undefined ? false : toJs(p, node);
  if (typeof js === 'boolean') return js;
  const map = js as Record<string, unknown>;
  if (
    !map ||
    typeof map !== 'object' ||
    Array.isArray(map) ||
    !SUBAGENT_STORAGE_KINDS.every((k) => typeof map[k] === 'boolean') ||
    Object.keys(map).length !== SUBAGENT_STORAGE_KINDS.length
  ) {
    throw err('refused is true, false, or a map of them by storage (directory, sqlite, postgres)', 'refused');
  }
  return map as SubagentStep['refused'];
}

function loadFindings(
  p: Parsed,
  node: Node | undefined,
  err: (msg: string, f: string) => ProseError,
): SubagentStep['findings'] {
  const js = node === undefined ? [] : toJs(p, node);
  const list = (v: unknown, f: string): string[] => {
    if (!Array.isArray(v))
      throw err('findings is a list of rule ids (or a map of such lists by storage: directory, sqlite, postgres)', f);
    for (const r of v)
      if (!(typeof r === 'string' && r in SESSION_RULES))
        throw err(`unknown rule ${JSON.stringify(r)} (docs/session-protocol.md lists them)`, f);
    return v as string[];
  };
  if (Array.isArray(js)) return list(js, 'findings');
  if (!js || typeof js !== 'object') return list(js, 'findings');
  const map = js as Record<string, unknown>;
  for (const k of Object.keys(map))
    if (!SUBAGENT_STORAGE_KINDS.includes(k as never))
      throw err(`findings by storage: unknown kind "${k}"`, `findings.${k}`);
  return Object.fromEntries(
    SUBAGENT_STORAGE_KINDS.map((k) => [k, list(map[k], `findings.${k}`)]),
  ) as SubagentStep['findings'];
}

function loadStep(p: Parsed, aliased: Node, field: string): Step {
  // A step may be an alias of one written earlier in the file (`- *seed-run`: the same planted state in several cases).
  const node = (isAlias(aliased) ? aliased.resolve(p.doc) : aliased) as Node;
  const line = aliased?.range ? p.lc.linePos(aliased.range[0]).line : 1;
  const pos: SourcePos = { file: p.file, line };
  if (isScalar(node) && node.value === 'restart') return { kind: 'restart', pos };
  if (!isMap(node))
    throw caseError(
      p.file,
      line,
      'a step is a mapping (op:, layout:, plant:, repeat:, crash:, crash-states:, concurrent:, mixed-writers:, subagent:) or the word restart',
      field,
    );
  if (node.has('restart')) {
    checkKeys(p, node, new Set(['restart']), field);
    const body = toJs(p, node.get('restart', true) as Node) as Record<string, unknown> | null;
    if (!body || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).some((k) => k !== 'project')) {
      throw caseError(p.file, line, 'restart takes {project: NAME} (or is the word restart alone)', `${field}.restart`);
    }
    if (typeof body.project !== 'string' || !/^[a-z0-9][a-z0-9-]{0,39}$/.test(body.project)) {
      throw caseError(
        p.file,
        line,
        'restart.project is a lowercase name ([a-z0-9-], at most 40): the directory the case moves to',
        `${field}.restart.project`,
      );
    }
    return { kind: 'restart', pos, project: body.project };
  }
  if (node.has('repeat')) {
    checkKeys(p, node, new Set(['repeat', 'steps']), field);
    const inner = node.get('steps', true);
    if (!isSeq(inner)) throw caseError(p.file, line, 'repeat needs "steps"', `${field}.steps`);
    return {
      kind: 'repeat',
      pos,
      times: toJs(p, node.get('repeat', true) as Node),
      steps: inner.items.map((s, k) => loadStep(p, s as Node, `${field}.steps[${k}]`)),
    };
  }
  if (node.has('crash') || node.has('concurrent')) return loadWorkerStep(p, node, field, pos);
  if (node.has('mixed-writers')) return loadMixedWritersStep(p, node, field, pos);
  if (node.has('crash-states')) return loadCrashStatesStep(p, node, field, pos);
  if (node.has('subagent')) return loadSubagentStep(p, node, field, pos);
  if (node.has('plant')) return loadPlantStep(p, node, field, pos);
  if (node.has('layout')) {
    checkKeys(p, node, LAYOUT_KEYS, field);
    const js = toJs(p, node) as Record<string, unknown>;
    if (!STORAGES.has(js.layout as string))
      throw caseError(p.file, line, `layout must be one of ${[...STORAGES].join(', ')}`, `${field}.layout`);
    const { layout, ...rest } = js;
    return { kind: 'layout', pos, storage: layout as LayoutStep['storage'], ...rest } as LayoutStep;
  }
  checkKeys(p, node, OP_KEYS, field);
  const js = toJs(p, node) as Record<string, unknown>;
  if (!isOpName(js.op))
    throw caseError(
      p.file,
      line,
      `unknown op ${JSON.stringify(js.op)}; known: ${Object.keys(OPS).join(', ')}`,
      `${field}.op`,
    );
  const args = (js.args ?? {}) as Record<string, unknown>;
  if (typeof args !== 'object' || Array.isArray(args))
    throw caseError(p.file, line, '"args" must be a mapping', `${field}.args`);
  for (const key of Object.keys(args)) {
    if (!(key in OPS[js.op].args))
      throw caseError(p.file, line, `${js.op} has no argument "${key}"`, `${field}.args.${key}`);
  }
  if (js.error !== undefined && !isErrorCode(js.error))
    throw caseError(p.file, line, `unknown error code ${JSON.stringify(js.error)}`, `${field}.error`);
  if (js.error !== undefined && js.expect !== undefined)
    throw caseError(p.file, line, 'a step expects a result or an error, not both', field);
  if (js.message !== undefined && (typeof js.message !== 'string' || js.error === undefined))
    throw caseError(p.file, line, '"message" is a regular expression and goes with "error"', `${field}.message`);
  if (js.save !== undefined && typeof js.save !== 'string')
    throw caseError(p.file, line, '"save" must be a variable name', `${field}.save`);
  return {
    kind: 'op',
    pos,
    op: js.op,
    args,
    ...(js.as !== undefined ? { actor: js.as as never } : {}),
    ...(js.expect !== undefined ? { expect: js.expect } : {}),
    ...(js.error !== undefined ? { error: js.error as never } : {}),
    ...(js.save !== undefined ? { save: js.save as string } : {}),
    ...(js.message !== undefined ? { message: js.message as string } : {}),
  };
}

function checkKeys(p: Parsed, map: YAMLMap, allowed: Set<string>, field: string): void {
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!allowed.has(key)) {
      const line = (pair.key as Node)?.range ? p.lc.linePos((pair.key as Node).range![0]).line : 1;
      throw caseError(
        p.file,
        line,
        `unknown field "${key}"; allowed here: ${[...allowed].join(', ')}`,
        `${field}.${key}`,
      );
    }
  }
}

function str(p: Parsed, map: YAMLMap, key: string, required: boolean): string | undefined {
  const v = map.get(key);
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || v.length === 0) {
    const line = map.range ? p.lc.linePos(map.range[0]).line : 1;
    throw caseError(p.file, line, `"${key}" must be a non-empty string`, key);
  }
  return v;
}
