// Writes conformance/schema/protocol.schema.json from the operation vocabulary (run after changing src/core/ops.ts).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderProtocolSchema } from '../src/plugin/protocol-schema-file.ts';

const out = fileURLToPath(new URL('../conformance/schema/protocol.schema.json', import.meta.url));
writeFileSync(out, renderProtocolSchema());
console.log(`wrote ${out}`);
