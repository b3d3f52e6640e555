export { isKind } from './owned-files.ts';
