import type { BackendFactory } from '../core/backend.ts';
import {
  DEFAULT_EDITION,
  declaredEditions,
  editionCapability,
  EDITION_NAMES,
  isEdition,
  type Edition,
} from '../core/editions.ts';
import { ProseError } from '../core/errors.ts';

/**
 * Which backends are judged in which edition: the one place that pairs them (test --edition, the case workers, a
 * rerun, report merge). A run in v0 keeps the backend's own name, so reports, expectations files and durations from
 * before editions existed still match; a run in another edition is named `NAME@EDITION`.
 */
export type EditionChoice = Edition | 'all';

export function parseEditionChoice(value: string | undefined, field: string): EditionChoice {
  if (value === undefined || value === 'all') return 'all';
  if (isEdition(value)) return value;
  throw new ProseError('E_USAGE', `unknown edition "${value}"`, {
    location: { field },
    hint: `--edition takes ${[...EDITION_NAMES, 'all'].join(', ')}`,
  });
}

/** The name a run of `backend` in `edition` goes by in results, footers and expectations files. */
export function runName(backend: string, edition: Edition): string {
  return edition === DEFAULT_EDITION ? backend : `${backend}@${edition}`;
}

/** The backend a run name belongs to, given the edition its header says it judged (old reports: v0). */
export function backendOfRun(name: string, edition: Edition): string {
  const suffix = `@${edition}`;
  return edition !== DEFAULT_EDITION && name.endsWith(suffix) ? name.slice(0, -suffix.length) : name;
}

/** The factory judged in `edition`: the same backend, opened with `env.edition` set, under its run name. */
export function inEdition(factory: BackendFactory, edition: Edition): BackendFactory {
  return { ...factory, edition, name: runName(factory.name, edition) };
}

/** A backend left out of the run, and why (the run says so, rather than judging it by a text it does not follow). */
export interface NotJudged {
  backend: string;
  edition: Edition;
  reason: string;
}

export interface EditionRuns {
  /** One factory per backend and edition, backend by backend, each backend's editions in EDITION_NAMES order. */
  judged: BackendFactory[];
  notJudged: NotJudged[];
}

/**
 * Pairs each backend with the editions it is judged in: `all`, every edition it declares (v0 when it declares none);
 * an edition named, that edition where declared, the others left out with the reason. Naming an edition no backend
 * declares is a usage error: the run would judge nothing.
 */
export function editionRuns(factories: readonly BackendFactory[], choice: EditionChoice): EditionRuns {
  const judged: BackendFactory[] = [];
  const notJudged: NotJudged[] = [];
  for (const f of factories) {
    const declared = declaredEditions(f.capabilities);
    if (choice === 'all') judged.push(...declared.map((e) => inEdition(f, e)));
    else if (declared.includes(choice)) judged.push(inEdition(f, choice));
    else notJudged.push({ backend: f.name, edition: choice, reason: notDeclared(choice) });
  }
  if (!judged.length && notJudged.length) {
    const who = `${notJudged.map((n) => n.backend).join(', ')} ${notJudged.length > 1 ? 'do' : 'does'}`;
    throw new ProseError(
      'E_USAGE',
      `--edition ${choice}: ${who} not declare ${editionCapability(choice as Edition)}, so nothing would be judged`,
      { hint: 'prose-state backends lists what each backend declares; --edition all judges each in its own editions' },
    );
  }
  return { judged, notJudged };
}

/** The line a report gives a backend that was not judged in the edition asked for. */
export function notJudgedLine(n: NotJudged): string {
  return `${n.backend}: not judged: ${n.reason}`;
}

function notDeclared(edition: Edition): string {
  return `does not declare ${editionCapability(edition)}`;
}
