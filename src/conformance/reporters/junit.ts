import type { CapabilityVerdict } from '../probes/capability-verdict.ts';
import type { CapabilityReport } from '../probes/capability-report.ts';
import type { CaseResult } from '../outcome.ts';
import { countOutcomes } from '../outcome.ts';
import type { RunHeader } from '../run-suite.ts';
import { runName, type NotJudged } from '../edition-runs.ts';
import { isFailure, notExercised } from './claims.ts';
import type { Reporter, Write } from './reporter.ts';
import { quickNote } from './run-notes.ts';
import { unreachable } from '../unreachable.ts';
import { escapeXml as esc } from './escape-xml.ts';

/**
 * JUnit XML for CI dashboards: one testsuite per backend, written when the run is over, and beside it one
 * "capability claims" testsuite per probed backend (a contradicted claim is a failure, an errored probe an error).
 * Each backend's testsuite carries what its header says of the run as properties: the seed, the shard, whether it
 * was quick (so a quick run never passes for a full one on a dashboard) and whether the claims were probed.
 */
export function junitReporter(write: Write): Reporter {
  const claims: CapabilityReport[] = [];
  const headers = new Map<string, RunHeader>();
  const left: NotJudged[] = [];
  return {
    header: (h) => void headers.set(h.backend.name, h),
    capabilities: (r) => claims.push(r),
    result: () => undefined,
    footer: () => undefined,
    notJudged: (n) => left.push(n),
    finish: (all) => write(junitXml(all, claims, headers).replace(/<\/testsuites>\n$/, notJudgedSuites(left))),
  };
}

/**
 * A backend --edition left out, as an empty testsuite under its run name with the reason as a property, so a
 * dashboard lists it instead of leaving it silently absent.
 */
function notJudgedSuites(left: readonly NotJudged[]): string {
  const suites = left.map(
    (n) =>
      `  <testsuite name="${esc(runName(n.backend, n.edition))}" tests="0" failures="0" errors="0" skipped="0" time="0">\n` +
      `    <properties>\n      <property name="not-judged" value="${esc(n.reason)}"/>\n    </properties>\n  </testsuite>\n`,
  );
  return `${suites.join('')}</testsuites>\n`;
}

export function junitXml(
  all: readonly CaseResult[],
  claims: readonly CapabilityReport[] = [],
  headers: ReadonlyMap<string, RunHeader> = new Map(),
): string {
  const backends = [...new Set(all.map((r) => r.backend))];
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites name="prose-state">'];
  for (const b of backends) {
    const rs = all.filter((r) => r.backend === b);
    const c = countOutcomes(rs);
    const time = rs.reduce((t, r) => t + r.durationMs, 0) / 1000;
    out.push(
      `  <testsuite name="${esc(b)}" tests="${c.total}" failures="${c.failed + c.xpassed}" errors="${c.errored}" ` +
        `skipped="${c.skipped + c.xfailed}" time="${time.toFixed(3)}">`,
    );
    const h = headers.get(b);
    if (h) out.push(...properties(h));
    for (const r of rs) out.push(testcase(r));
    out.push('  </testsuite>');
    const probed = claims.find((x) => x.backend === b);
    if (probed) out.push(...claimsSuite(probed));
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

function properties(h: RunHeader): string[] {
  const quick = quickNote(h);
  const props: [string, string][] = [
    ['edition', h.edition],
    ['seed', String(h.seed)],
    // The readings a run judged by (skipRule, semanticDiff) change which cases ran, so CI keeps them with the counts.
    [
      'decisions',
      Object.entries(h.decisions)
        .map(([k, v]) => `${k}=${v}`)
        .join(', '),
    ],
    ...(h.tz ? [['tz', h.tz] as [string, string]] : []),
    ...(h.shard ? [['shard', `${h.shard.index}/${h.shard.count}`] as [string, string]] : []),
    ...(quick ? [['quick', quick] as [string, string]] : []),
    ...(h.probes === 'skipped' ? [['capability-probes', 'skipped (--no-probe)'] as [string, string]] : []),
  ];
  return [
    '    <properties>',
    ...props.map(([k, v]) => `      <property name="${esc(k)}" value="${esc(v)}"/>`),
    '    </properties>',
  ];
}

function testcase(r: CaseResult): string {
  const open = `    <testcase classname="${esc(`${r.backend}.${r.area}`)}" name="${esc(r.id)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
  const o = r.outcome;
  switch (o.status) {
    case 'passed':
      return `${open}/>`;
    case 'skipped':
      return `${open}><skipped message="${esc(o.reason)}"/></testcase>`;
    case 'xfailed':
      return `${open}><skipped message="${esc(`expected failure: ${o.reason}`)}"/></testcase>`;
    case 'xpassed':
      return `${open}><failure message="${esc(`unexpected pass (expected to fail: ${o.reason})`)}"/></testcase>`;
    case 'failed':
      return `${open}><failure message="${esc(o.message)}">${esc(`${o.at.file}:${o.at.line}\n${o.step}`)}</failure></testcase>`;
    case 'errored':
      return `${open}><error message="${esc(`${o.error.code}: ${o.error.message}`)}">${esc(o.evidence ?? '')}</error></testcase>`;
    default:
      return unreachable(o, 'outcome');
  }
}

function claimsSuite(r: CapabilityReport): string[] {
  const n = (p: (v: CapabilityVerdict) => boolean) => r.verdicts.filter(p).length;
  const failures = n(isFailure);
  const errors = n((v) => v.verdict === 'errored');
  const skipped = n((v) => v.verdict === 'unprobed' || notExercised(v));
  return [
    `  <testsuite name="${esc(`${r.backend} capability claims`)}" tests="${r.verdicts.length}" ` +
      `failures="${failures}" errors="${errors}" skipped="${skipped}" time="${(r.durationMs / 1000).toFixed(3)}">`,
    ...r.verdicts.map((v) => claimCase(r.backend, v)),
    '  </testsuite>',
  ];
}

function claimCase(backend: string, v: CapabilityVerdict): string {
  const open = `    <testcase classname="${esc(`${backend}.capabilities`)}" name="${esc(v.capability)}"`;
  const detail = esc(v.detail ?? '');
  if (isFailure(v))
    return `${open}><failure message="${esc(`${v.verdict}: ${v.detail ?? ''}`)}" type="${v.verdict}"/></testcase>`;
  if (v.verdict === 'errored') return `${open}><error message="${detail}" type="errored"/></testcase>`;
  if (v.verdict === 'unprobed') return `${open}><skipped message="${esc(`unprobed: ${v.detail ?? ''}`)}"/></testcase>`;
  return notExercised(v) ? `${open}><skipped message="${detail}"/></testcase>` : `${open}/>`;
}
