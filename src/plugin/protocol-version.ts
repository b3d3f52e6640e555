/** The stdio protocol version this harness speaks. Bump it (and regenerate the schema) on any breaking change. */
export const PROTOCOL_VERSION = 1;

/** Codes a plugin may answer: every code but the harness's own (a plugin cannot claim the harness broke). */
export const HARNESS_ONLY_CODES = ['E_USAGE', 'E_CASE', 'E_PLUGIN'] as const;
