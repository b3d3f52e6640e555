// The reference backend as a module plugin: `prose-state test --backend module:conformance/plugins/reference-module/index.js`.
// It shares the plain JavaScript core of the stdio plugin (../reference/), so both answer the same way.
import { factory as reference } from '../reference/factory.js';

export const factory = {
  ...reference,
  name: 'reference-module',
  description: 'reference plugin loaded as a module (the same core as the stdio reference plugin)',
};
