/**
 * The fields of a Linux `/proc/PID/stat` line from field 3 (the state) on: index 0 is field 3, so field k is at
 * k - 3. The command name (field 2) is in parentheses and may hold spaces, so counting starts after its closing one.
 */
export function procStatFields(line: string): string[] {
  return line.slice(line.lastIndexOf(')') + 2).split(' ');
}
