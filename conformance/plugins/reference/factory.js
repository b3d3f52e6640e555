// The reference backend as a factory object: what a module plugin exports (see ../reference-module/index.js).
import { CAPABILITIES, openBackend } from './backend.js';

export const factory = {
  name: 'reference',
  kind: 'directory',
  capabilities: CAPABILITIES,
  description:
    'reference plugin: plain JavaScript; a JSON document under the project directory, shown as the seed .prose/ tree',
  async open(env) {
    return openBackend(env);
  },
};
