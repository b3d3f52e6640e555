// Writes conformance/schema/protocol.schema.json from the operation vocabulary (run after changing src/core/ops.ts),
// and refreshes the generated tables of docs/implementing.md (operations, resume fields, events) from the same source.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { refreshGeneratedBlocks } from '../src/plugin/op-reference.ts';
import { renderProtocolSchema } from '../src/plugin/protocol-schema-file.ts';

const out = fileURLToPath(new URL('../conformance/schema/protocol.schema.json', import.meta.url));
writeFileSync(out, renderProtocolSchema());
console.log(`wrote ${out}`);
const guide = fileURLToPath(new URL('../docs/implementing.md', import.meta.url));
writeFileSync(guide, refreshGeneratedBlocks(readFileSync(guide, 'utf8')));
console.log(`refreshed the generated tables of ${guide}`);
