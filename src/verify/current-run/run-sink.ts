import type { Finding } from '../finding.ts';
import { FindingSink } from '../kit/finding-sink.ts';
import { CURRENT_RUN_RULES, type CurrentRunRuleId } from './rules.ts';

/** The current-run sink, carrying the read cap (VerifyOptions.maxFileBytes) to every reader below a run. */
export class RunSink extends FindingSink<CurrentRunRuleId> {
  constructor(
    out: Finding[],
    readonly maxFileBytes: number,
    prefix = '',
  ) {
    super(CURRENT_RUN_RULES, out, prefix);
  }

  override at(dir: string): RunSink {
    return new RunSink(this.out, this.maxFileBytes, this.path(dir.endsWith('/') ? dir : `${dir}/`));
  }
}
