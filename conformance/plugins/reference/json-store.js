// Where the reference plugin keeps state: one JSON document per directory, rewritten atomically and durably (temp
// file, fsync, rename, fsync of the directory) before every answer, so whatever was answered survives a restart. Attachments are files of the seed
// layout (seed-layout.js), which also shows this state as the seed's .prose/ tree.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileDurable } from './durable-file.js';
import { fail } from './errors.js';

const DIR = '.prose-reference';

class JsonDoc {
  constructor(root, fileName, empty) {
    this.dir = join(root, DIR);
    this.file = join(this.dir, fileName);
    try {
      this.data = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch (err) {
      if (err.code !== 'ENOENT') fail('E_CORRUPT', `cannot read ${this.file}: ${err.message}`);
      this.data = empty;
    }
  }

  save() {
    writeFileDurable(this.file, JSON.stringify(this.data));
  }
}

export class JsonStore {
  constructor(env) {
    this.env = env;
    /** Where the lock of the project's storage lives. */
    this.dir = join(env.projectDir, DIR);
    this.reload();
  }

  /** Reads the committed state again, dropping any change not committed. */
  reload() {
    const env = this.env;
    // Project state (runs, project and custom scope agents) and user state (user scope agents) live apart,
    // as the seed keeps ~/.prose apart from the project's .prose.
    this.project = new JsonDoc(env.projectDir, 'project.json', { runs: {}, agents: {} });
    this.home = new JsonDoc(env.homeDir, 'user.json', { agents: {} });
    this.homeTouched = false;
  }

  run(ref) {
    return this.project.data.runs[ref];
  }

  addRun(ref, record) {
    if (this.project.data.runs[ref]) fail('E_CONFLICT', `run ${ref} already exists`);
    this.project.data.runs[ref] = { ...record, events: [], bindings: {} };
  }

  /** The agent record of a location, created on demand when `create` is set. */
  agent(loc, create) {
    // The home document is shared by every project: rewrite it only when a call touched it.
    if (loc.scope === 'user') this.homeTouched = true;
    const doc = loc.scope === 'user' ? this.home.data : this.project.data;
    const key = `${loc.scope}|${loc.run ?? ''}|${loc.path ?? ''}|${loc.agent}`;
    if (!doc.agents[key] && create) doc.agents[key] = { memory: null, segments: [] };
    return doc.agents[key];
  }

  /** Names of the execution-scope agents of a run, for the index in state.md. */
  executionAgents(ref) {
    const prefix = `execution|${ref}||`;
    return Object.keys(this.project.data.agents)
      .filter((k) => k.startsWith(prefix))
      .map((k) => k.slice(prefix.length))
      .sort();
  }

  commit() {
    this.project.save();
    if (this.homeTouched) this.home.save();
    this.homeTouched = false;
  }
}
