import { buildProtocolSchema } from './protocol-schema.ts';

/** The exact text of conformance/schema/protocol.schema.json. */
export function renderProtocolSchema(): string {
  return `${JSON.stringify(buildProtocolSchema(), null, 2)}\n`;
}
