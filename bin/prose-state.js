#!/usr/bin/env node
// Entry for `npx prose-state` from a checkout: runs the TypeScript sources through tsx.
import { register } from 'tsx/esm/api';
register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
