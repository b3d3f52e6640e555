#!/usr/bin/env node
// The reference stdio plugin for prose-state: protocol version 1 (README.md). Reads one JSON request per line on
// stdin and writes one JSON reply per line on stdout; logs go to stderr. Node built-ins only.
import { factory } from './factory.js';

const PROTOCOL = 1;
let backend;

// One message, one line: JSON.stringify leaves U+2028, U+2029 and U+0085 raw inside strings, and some readers split
// lines on them, so they go out as \u escapes (the same JSON). Resolves once the line is handed to the OS, so exiting
// after a reply never cuts it off (pipes can be asynchronous).
const oneLine = (msg) =>
  JSON.stringify(msg).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const send = (msg) => new Promise((resolve) => process.stdout.write(`${oneLine(msg)}\n`, resolve));
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
        return {
          type: 'error',
          seq: msg.seq,
          code: 'E_UNSUPPORTED',
          message: `this plugin speaks protocol ${PROTOCOL}, not ${msg.protocol}`,
        };
      }
      return {
        type: 'hello',
        seq: msg.seq,
        protocol: PROTOCOL,
        name: factory.name,
        kind: factory.kind,
        capabilities: factory.capabilities,
        description: factory.description,
      };
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
      return {
        type: 'error',
        seq: msg.seq ?? 0,
        code: 'E_INVALID_ARGUMENT',
        message: `unknown message type ${JSON.stringify(msg.type)}`,
      };
  }
}

// One request at a time, in the order received: every answer is committed before the next request starts.
let queue = Promise.resolve();
function onLine(line) {
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
}

// A line ends at "\n" and nowhere else. Not node:readline: it also splits on U+2028, U+2029 and a lone "\r", which a
// writer that does not escape them leaves raw inside a JSON string, and a message cut in two is lost.
let partial = [];
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  let start = 0;
  for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
    partial.push(chunk.slice(start, nl));
    onLine(partial.join(''));
    partial = [];
    start = nl + 1;
  }
  if (start < chunk.length) partial.push(chunk.slice(start));
});
// The harness ended our input: nothing more will come (a last line without its newline still counts).
process.stdin.on('end', () => {
  if (partial.length) onLine(partial.join(''));
  queue.then(() => process.exit(0));
});
