import v8 from 'node:v8';
if (process.env.FLAGS) v8.setFlagsFromString(process.env.FLAGS);
const { register } = await import('tsx/esm/api'); register();
const { resolveBackends } = await import('../src/cli/backend-kinds.ts');
const [f] = await resolveBackends('sqlite');
const b = await f.open(JSON.parse(process.env.ENVJ));
await b.call('getRun', { run: process.env.RUN }, { role: 'vm' });
await b.close();
