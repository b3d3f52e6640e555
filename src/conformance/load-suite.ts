import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isSeq, type Node } from 'yaml';
import { isCapability, type Capability } from '../core/capabilities.ts';
import { EDITION_NAMES, isEdition, type Edition } from '../core/editions.ts';
import { ProseError } from '../core/errors.ts';
import type { Case, Step, Suite } from './case-types.ts';
import type { SourcePos } from './source-pos.ts';
import { readingsOf, type Readings } from './case-readings.ts';
import { caseError, checkKeys, readYaml, str, toJs } from './case-yaml.ts';
import { allSteps, impliedCapabilities, loadStep } from './steps/step-kinds.ts';

const CASE_KEYS = new Set(['id', 'title', 'spec', 'requires', 'editions', 'readings', 'run', 'steps']);
const FILE_KEYS = new Set(['area', 'spec', 'editions', 'readings', 'cases']);
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

/** Every file `loadSuite` reads: `suite.yaml`, then `cases/**.yaml` in the order it reads them. */
export function suiteFiles(dir: string): string[] {
  return [join(dir, 'suite.yaml'), ...yamlFiles(join(dir, 'cases'))];
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

function loadCaseFile(path: string): Case[] {
  const p = readYaml(path);
  const top = p.doc.contents;
  const at = (n: Node | null | undefined): number => (n?.range ? p.lc.linePos(n.range[0]).line : 1);
  if (!isMap(top)) throw caseError(p.file, 1, 'a case file is a mapping with "area" and "cases"');
  checkKeys(p, top, FILE_KEYS, 'file');
  const area = str(p, top, 'area', true)!;
  const fileSpec = str(p, top, 'spec', false) ?? '';
  const fileEditions = editionsOf(p, top.get('editions', true) as Node | undefined, 'editions') ?? EDITION_NAMES;
  const fileReadings = readingsOf(p, top.get('readings', true) as Node | undefined, 'readings');
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
    checkImpliedRequires(p.file, at(reqNode ?? item), id, steps, reqList as Capability[]);
    return {
      id,
      area,
      title: str(p, item, 'title', true)!,
      spec: str(p, item, 'spec', false) ?? fileSpec,
      requires: [...new Set(reqList as Capability[])],
      editions: editionsOf(p, item.get('editions', true) as Node | undefined, `${id}.editions`) ?? fileEditions,
      ...readingsField(fileReadings, readingsOf(p, item.get('readings', true) as Node | undefined, `${id}.readings`)),
      run,
      steps,
      pos: { file: p.file, line: at(item) },
    };
  });
}

/** A reader of the case must see why it skips, so a capability its steps need is listed, not added silently. */
function checkImpliedRequires(file: string, line: number, id: string, steps: Step[], requires: Capability[]): void {
  const missing = impliedCapabilities(steps).filter(([cap]) => !requires.includes(cap));
  if (!missing.length) return;
  const [cap, why] = missing[0]!;
  throw caseError(
    file,
    line,
    `case ${id} has a ${why} step, which needs capability ${cap}: list it in "requires"`,
    `${id}.requires`,
  );
}

/** A case's readings: the file's, with the case's own over them; absent when neither names one. */
function readingsField(file: Readings | undefined, own: Readings | undefined): { readings?: Readings } {
  return file || own ? { readings: { ...file, ...own } } : {};
}

/** An `editions` field: a non-empty list of known editions, each once; undefined when the field is absent. */
function editionsOf(p: ReturnType<typeof readYaml>, node: Node | undefined, field: string): Edition[] | undefined {
  if (node === undefined) return undefined;
  const list = isSeq(node) ? (toJs(p, node) as unknown[]) : null;
  if (!list || list.length === 0 || !list.every(isEdition) || new Set(list).size !== list.length) {
    const line = node.range ? p.lc.linePos(node.range[0]).line : 1;
    throw caseError(p.file, line, `"editions" must list editions (${EDITION_NAMES.join(', ')}), each once`, field);
  }
  return list as Edition[];
}

/**
 * Planted state is written by someone else (as a subagent writes) and read by a reopened backend: a case that plants
 * lists `subagent-writes` and `durable`, so a reader of the YAML sees why it skips.
 */
function checkPlantRequires(c: Case): void {
  const plant = allSteps(c.steps).find((s) => s.kind === 'plant');
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
