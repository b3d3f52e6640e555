import { ProseError } from '../../core/errors.ts';
import type { BindingRecord } from '../../core/model.ts';
import { mutant, pass, type Mutant } from '../mutant.ts';

/** Binding storage and value bugs. */
export const BINDING_MUTANTS: Mutant[] = [
  mutant('const-rebind-allowed', 'a const binding can be bound again', {
    intercept: async (op, args, actor, ctx) => {
      try {
        return await pass(op, args, actor, ctx);
      } catch (err) {
        if (!(err instanceof ProseError && err.code === 'E_CONST_REBIND')) throw err;
        const b: BindingRecord = {
          name: args.name as string,
          kind: args.kind as 'const',
          value: args.value as string,
          executionId: (args.executionId as number | null) ?? null,
        };
        const r = await ctx.store.writeBinding(args.run as string, b, false);
        return { ...r, name: b.name, executionId: b.executionId, attached: false };
      }
    },
  }),
  mutant('const-blocks-other-scopes', 'a const at root refuses a same-named binding in a frame', {
    intercept: async (op, args, actor, ctx) => {
      if (op === 'bind' && args.executionId != null) {
        const root = await ctx.store.readBinding(args.run as string, args.name as string, null);
        if (root?.kind === 'const')
          throw new ProseError('E_CONST_REBIND', `const ${String(args.name)} is already bound`);
      }
      return pass(op, args, actor, ctx);
    },
  }),
  mutant('trailing-newline-trimmed', 'values lose their trailing white space on write', {
    store: (base) => ({
      writeBinding: (run, b, attach) => base.writeBinding(run, { ...b, value: b.value.trimEnd() }, attach),
    }),
  }),
  mutant('crlf-normalized', 'CRLF in values is turned into LF', {
    store: (base) => ({
      writeBinding: (run, b, attach) => base.writeBinding(run, { ...b, value: b.value.replace(/\r\n/g, '\n') }, attach),
    }),
  }),
  mutant('separator-split', 'a value line that is exactly --- cuts the value there on read', {
    store: (base) => ({
      readBinding: async (run, name, id) => {
        const b = await base.readBinding(run, name, id);
        if (!b) return b;
        const cut = b.value.split('\n').indexOf('---');
        return cut === -1 ? b : { ...b, value: b.value.split('\n').slice(0, cut).join('\n') };
      },
    }),
  }),
  mutant('kind-lost', 'the kind is not stored: every binding reads back as let', {
    store: (base) => ({
      readBinding: async (run, name, id) => {
        const b = await base.readBinding(run, name, id);
        return b && { ...b, kind: 'let' };
      },
    }),
  }),
  mutant('scoped-files-unlisted', 'listBindings and resume list only root bindings', {
    store: (base) => ({
      listBindings: async (run) => (await base.listBindings(run)).filter((b) => b.executionId === null),
    }),
  }),
  mutant('threshold-inclusive', 'a value exactly at the attachment threshold is attached (>= instead of >)', {
    decisions: (d) => ({ ...d, attachmentThresholdBytes: d.attachmentThresholdBytes - 1 }),
  }),
  mutant('threshold-in-characters', 'the attachment threshold counts UTF-16 characters instead of UTF-8 bytes', {
    store: (base, env) => ({
      writeBinding: (run, b, attach) =>
        base.writeBinding(run, b, attach && b.value.length > env.decisions.attachmentThresholdBytes),
    }),
  }),
  mutant('threshold-100000', 'the attachment threshold is 100,000 bytes instead of the pinned value', {
    decisions: (d) => ({ ...d, attachmentThresholdBytes: 100_000 }),
  }),
  mutant('attachment-shared-by-scopes', 'scoped bindings of one name share attachments/{name}.md', {
    store: (base) => ({
      writeBinding: async (run, b, attach) => {
        if (attach && b.executionId !== null) {
          // Writes the frame's value over the root attachment too, as a shared file name would.
          const root = await base.readBinding(run, b.name, null);
          if (root?.attached) await base.writeBinding(run, { ...root, value: b.value }, true);
        }
        return base.writeBinding(run, b, attach);
      },
    }),
  }),
];
