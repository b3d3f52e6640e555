import { builtInNames, resolveBackends } from '../backend-kinds.ts';
import { CAPABILITIES } from '../../core/capabilities.ts';
import { parseOptions } from '../args.ts';
import { EXIT, type Command } from '../io.ts';

export const backendsCommand: Command = {
  help: `Usage: prose-state backends [--format json]

Lists every built-in backend with its storage kind and declared capabilities.
Third-party backends plug in as module:PATH or exec:COMMAND (see docs/protocol.md).`,
  async run(argv, io) {
    const { values } = parseOptions(argv, { format: { type: 'string' } }, io.env);
    const list = [];
    for (const name of builtInNames()) {
      let f;
      try {
        [f] = await resolveBackends(name);
      } catch (err) {
        // One this Node cannot run (sqlite:posix without node:sqlite) is listed with why, not a failed listing.
        list.push({ name, kind: '-', description: `not available here: ${(err as Error).message}`, capabilities: [] });
        continue;
      }
      list.push({ name: f!.name, kind: f!.kind, description: f!.description, capabilities: [...f!.capabilities] });
    }
    if (values.format === 'json') {
      io.stdout.write(JSON.stringify({ backends: list, capabilities: CAPABILITIES }, null, 2) + '\n');
      return EXIT.ok;
    }
    for (const b of list) {
      io.stdout.write(`${b.name} (${b.kind})\n  ${b.description}\n  capabilities: ${b.capabilities.join(', ')}\n\n`);
    }
    io.stdout.write('Capabilities:\n');
    for (const [k, v] of Object.entries(CAPABILITIES)) io.stdout.write(`  ${k.padEnd(20)} ${v}\n`);
    return EXIT.ok;
  },
};
