#!/usr/bin/env node
// A stdio plugin with the reader many implementers write: it splits its input the way Python's str.splitlines does
// (\n, \r, \r\n, \v, \f, \x1c-\x1e, U+0085, U+2028, U+2029), as Node's readline does for U+2028/U+2029. The regex
// is spelled out so the fixture does not depend on one Node version's readline. A piece that is not JSON is a
// message the writer let a reader cut: it is reported on stderr and never answered. Otherwise it serves the
// reference plugin's core (conformance/plugins/reference/factory.js), one request at a time.
import { factory } from '../../conformance/plugins/reference/factory.js';

const SPLITLINES = /\r\n|[\n\r\v\f\x1c-\x1e\u0085\u2028\u2029]/;
let backend;

async function answer(msg) {
  switch (msg.type) {
    case 'hello':
      return {
        type: 'hello',
        seq: msg.seq,
        protocol: 1,
        name: 'line-splitting',
        kind: factory.kind,
        capabilities: factory.capabilities,
      };
    case 'open':
      backend = await factory.open(msg.env);
      return { type: 'result', seq: msg.seq, result: {} };
    case 'call':
      return { type: 'result', seq: msg.seq, result: await backend.call(msg.op, msg.args, msg.actor) };
    case 'close':
      await backend?.close();
      return { type: 'result', seq: msg.seq, result: {} };
  }
  return { type: 'error', seq: msg.seq ?? 0, code: 'E_BACKEND', message: `unknown message ${msg.type}` };
}

async function handle(piece) {
  let msg;
  try {
    msg = JSON.parse(piece);
  } catch {
    process.stderr.write(`line-splitting-plugin: a cut message: ${JSON.stringify(piece.slice(0, 80))}\n`);
    return;
  }
  const reply = await answer(msg).catch((e) => ({
    type: 'error',
    seq: msg.seq,
    code: e.code ?? 'E_BACKEND',
    message: e.message,
  }));
  // This plugin's own writer is careful (the host must read it): the same escapes the protocol asks of every writer.
  process.stdout.write(
    `${JSON.stringify(reply).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`,
  );
}

let text = '';
let queue = Promise.resolve();
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const pieces = (text + chunk).split(SPLITLINES);
  text = pieces.pop();
  for (const p of pieces) if (p.trim()) queue = queue.then(() => handle(p));
});
process.stdin.on('end', () => queue.then(() => process.exit(0)));
