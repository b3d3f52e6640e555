#!/usr/bin/env node
// The reference stdio plugin for prose-state: protocol version 1 (README.md). Reads one JSON request per line on
// stdin and writes one JSON reply per line on stdout; logs go to stderr. Node built-ins only.
import { createInterface } from 'node:readline';
import { factory } from './factory.js';

const PROTOCOL = 1;
let backend;

// Resolves once the line is handed to the OS, so exiting after a reply never cuts it off (pipes can be asynchronous).
const send = (msg) => new Promise((resolve) => process.stdout.write(`${JSON.stringify(msg)}\n`, resolve));
const errorReply = (seq, err) => {
  // Only contract errors carry a code; anything else is this plugin failing (E_BACKEND).
  const code = typeof err?.code === 'string' && err.code.startsWith('E_') ? err.code : 'E_BACKEND';
  const reply = { type: 'error', seq, code, message: String(err?.message ?? err) };
  if (err?.hint) reply.hint = err.hint;
  if (err?.location) reply.location = err.location;
  return reply;
};

async function handle(msg) {
  switch (msg.type) {
    case 'hello':
      if (msg.protocol !== PROTOCOL) {
        return { type: 'error', seq: msg.seq, code: 'E_UNSUPPORTED', message: `this plugin speaks protocol ${PROTOCOL}, not ${msg.protocol}` };
      }
      return { type: 'hello', seq: msg.seq, protocol: PROTOCOL, name: factory.name, kind: factory.kind, capabilities: factory.capabilities, description: factory.description };
    case 'open':
      backend = await factory.open(msg.env);
      return { type: 'result', seq: msg.seq, result: {} };
    case 'call':
      if (!backend) return { type: 'error', seq: msg.seq, code: 'E_STATE', message: 'call before open' };
      return { type: 'result', seq: msg.seq, result: await backend.call(msg.op, msg.args, msg.actor) };
    case 'close':
      await backend?.close();
      backend = undefined;
      return { type: 'result', seq: msg.seq, result: {} };
    default:
      return { type: 'error', seq: msg.seq ?? 0, code: 'E_INVALID_ARGUMENT', message: `unknown message type ${JSON.stringify(msg.type)}` };
  }
}

// One request at a time, in the order received: every answer is committed before the next request starts.
let queue = Promise.resolve();
createInterface({ input: process.stdin, crlfDelay: Infinity })
  .on('line', (line) => {
    if (!line.trim()) return;
    queue = queue.then(async () => {
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        process.stderr.write(`reference plugin: ignoring a line that is not JSON: ${line.slice(0, 200)}\n`);
        return;
      }
      const reply = await handle(msg).catch((err) => errorReply(msg.seq, err));
      await send(reply);
      if (msg.type === 'close') process.exit(0);
    });
  })
  // The harness ended our input: nothing more will come.
  .on('close', () => queue.then(() => process.exit(0)));
