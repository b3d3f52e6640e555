import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ProseError } from '../../core/errors.ts';
import type { ExecutionId, RunRef } from '../../core/model.ts';
import { editionLayout, type Edition } from '../../core/editions.ts';
import { writeFileAtomic } from '../../io/atomic-write.ts';

/**
 * Large binding values are files under the run directory, as postgres.md says (`attachments/` beside the run,
 * attachment_path relative to it; docs/decisions.md `pg-attachments`): `.prose/runs/{run}/` in v0,
 * `<openprose-root>/runs/{run}/` in the current edition (postgres.md "Database Location"). The file is complete before
 * the row names it, so a reader never sees a row pointing at a torn file.
 */
export class Attachments {
  private readonly runsDir: string;

  constructor(
    private readonly projectDir: string,
    edition: Edition = 'v0',
  ) {
    this.runsDir = editionLayout(edition).runsDir;
  }

  /** `attachments/{name}.md` at root, `attachments/{name}__{execution_id}.md` in a frame. */
  relativePath(name: string, executionId: ExecutionId | null): string {
    return `attachments/${name}${executionId === null ? '' : `__${executionId}`}.md`;
  }

  /** The path shown in locations, relative to the project: `.prose/runs/{run}/attachments/...` in v0. */
  displayPath(run: RunRef, relative: string): string {
    return `${this.runsDir}/${run}/${relative}`;
  }

  write(run: RunRef, relative: string, value: string): void {
    writeFileAtomic(this.absolute(run, relative), value);
  }

  read(run: RunRef, relative: string): string {
    try {
      return readFileSync(this.absolute(run, relative), 'utf8');
    } catch (err) {
      throw new ProseError(
        'E_CORRUPT',
        `the attachment ${this.displayPath(run, relative)} named by openprose.bindings cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
        {
          location: { file: this.displayPath(run, relative) },
          hint: `attachments live beside the run in the project directory; was ${this.runsDir}/ moved or cleaned?`,
        },
      );
    }
  }

  /** Removes a file a binding no longer names (its value shrank below the threshold). */
  remove(run: RunRef, relative: string): void {
    rmSync(this.absolute(run, relative), { force: true });
  }

  private absolute(run: RunRef, relative: string): string {
    // Run refs and names were checked by the engine (no "..", no separators in names); the path stays inside.
    return join(this.projectDir, ...this.runsDir.split('/'), ...run.split('/'), ...relative.split('/'));
  }
}
