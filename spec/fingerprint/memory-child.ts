// Child process for fingerprint-memory.spec.ts: prints its peak RSS (KiB) after fingerprinting, or after only
// loading the same modules ("baseline"), so the difference is what the walk itself costs.
// "measure-async" does the same through fingerprintDirectoryAsync (two buffers, reads on the thread pool).
import { fingerprintDirectory, fingerprintDirectoryAsync } from '../../src/fingerprint/index.ts';

const [mode, dir] = process.argv.slice(2);
const result =
  mode === 'measure'
    ? fingerprintDirectory(dir!)
    : mode === 'measure-async'
      ? await fingerprintDirectoryAsync(dir!)
      : fingerprintDirectory(process.argv[1]!);
process.stdout.write(
  JSON.stringify({
    maxRSS: process.resourceUsage().maxRSS,
    files: result.files,
    bytes: result.bytes,
    address: result.address,
  }),
);
