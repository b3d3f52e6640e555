#!/usr/bin/env node
// Entry for `npx prose-state` from a checkout: runs the TypeScript sources through tsx.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';
register();
// A reader that closes the pipe early (`| head`) is not an error of ours.
for (const s of [process.stdout, process.stderr])
  s.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    else throw e;
  });
const { main } = await import('../src/cli/main.ts');
const stdin = () =>
  new Promise((resolve) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (c) => {
      text += c;
    });
    process.stdin.on('end', () => resolve(text));
  });
process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  stdin,
  // fileURLToPath, not URL.pathname: on Windows the latter is /C:/... (decisions platform-paths).
  self: [process.execPath, fileURLToPath(import.meta.url)],
});
