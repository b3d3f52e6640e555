#!/usr/bin/env node
// The house's size limits, measured with the TypeScript compiler's own parser so a function is what the language
// says it is (declarations, methods, arrows, function expressions, accessors and constructors; a nested function is
// counted on its own and inside its parent). Run by `npm run check`; the thresholds live here and nowhere else.
//   node scripts/check-size.mjs            fail when src/ is past a limit
//   node scripts/check-size.mjs --list     also list every function past the soft limit and every long file
//   node scripts/check-size.mjs --under src/canon   measure one folder (the limits on counts then do not apply)
//   node scripts/check-size.mjs --src DIR           hold another copy of src/ to every limit (spec/layers plants one)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const LIMITS = {
  functionSoftLines: 60, // a function past this is counted...
  functionsPastSoft: 15, // ...and at most this many may be
  functionHardLines: 100, // none may be past this
  fileLines: 400, // no file in src/ past this
  lineChars: 160, // no line of code past this (data files are not .ts and are not measured)
};

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function tsFiles(dir) {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function nameOf(node, sf) {
  if (node.name) return node.name.getText(sf);
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p)) return p.name.getText(sf);
  if (p && ts.isPropertyAssignment(p)) return p.name.getText(sf);
  if (p && ts.isPropertyDeclaration(p)) return p.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
}

/** Every function-like node of one file with its span in lines. */
export function measureFile(file) {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const fns = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      fns.push({ name: nameOf(node, sf), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const long = lines.flatMap((l, i) => (l.length > LIMITS.lineChars ? [{ line: i + 1, chars: l.length }] : []));
  return { fns, lines: lines.length, long };
}

function main(argv) {
  const list = argv.includes('--list');
  const under = argv.includes('--under') ? argv[argv.indexOf('--under') + 1] : undefined;
  const other = argv.includes('--src') ? argv[argv.indexOf('--src') + 1] : undefined;
  const { code, out, err } = checkSize(resolve(root, under ?? other ?? 'src'), { list, under: under !== undefined });
  if (out.length) console.log(out.join('\n'));
  if (err.length) console.error(err.join('\n'));
  return code;
}

/**
 * Holds the tree at `dir` to the limits: `{ code, out, err }`, the exit code and the lines the CLI prints. `under`: one
 * folder, so the limit on how many functions pass the soft limit does not apply. `measure` (default measureFile) lets
 * spec/layers/check-size.spec.ts hold each planted copy of src/ to the limits in its own process, each unchanged file parsed once.
 */
export function checkSize(dir, { list = false, under = false, measure = measureFile } = {}) {
  const out = [];
  const err = [];
  const soft = [];
  const hard = [];
  const bigFiles = [];
  const longLines = [];
  for (const file of tsFiles(dir)) {
    const rel = relative(root, file);
    const m = measure(file);
    for (const f of m.fns) {
      if (f.lines > LIMITS.functionSoftLines) soft.push(`${rel}:${f.line} ${f.name} (${f.lines} lines)`);
      if (f.lines > LIMITS.functionHardLines) hard.push(`${rel}:${f.line} ${f.name} (${f.lines} lines)`);
    }
    if (m.lines > LIMITS.fileLines) bigFiles.push(`${rel} (${m.lines} lines)`);
    for (const l of m.long) longLines.push(`${rel}:${l.line} (${l.chars} characters)`);
  }
  const problems = [];
  if (!under && soft.length > LIMITS.functionsPastSoft)
    problems.push(
      `${soft.length} functions past ${LIMITS.functionSoftLines} lines (at most ${LIMITS.functionsPastSoft})`,
    );
  if (hard.length)
    problems.push(`${hard.length} functions past ${LIMITS.functionHardLines} lines:\n    ${hard.join('\n    ')}`);
  if (bigFiles.length)
    problems.push(`${bigFiles.length} files past ${LIMITS.fileLines} lines:\n    ${bigFiles.join('\n    ')}`);
  if (longLines.length)
    problems.push(`${longLines.length} lines past ${LIMITS.lineChars} characters:\n    ${longLines.join('\n    ')}`);
  const where = relative(root, dir);
  const summary = `size check (${where}): ${soft.length} functions past ${LIMITS.functionSoftLines} lines, ${hard.length} past ${LIMITS.functionHardLines}, ${bigFiles.length} files past ${LIMITS.fileLines}, ${longLines.length} lines past ${LIMITS.lineChars} characters`;
  if (list && soft.length) out.push(`functions past ${LIMITS.functionSoftLines} lines:\n    ${soft.join('\n    ')}`);
  if (problems.length) {
    err.push(`${summary}\n  ${problems.join('\n  ')}`);
    return { code: 1, out, err };
  }
  if (list || under) out.push(summary);
  return { code: 0, out, err };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.exit(main(process.argv.slice(2)));
