/** Where something was written in the suite, for every error and every failure. */
export interface SourcePos {
  file: string;
  line: number;
}
