/**
 * A command as it may be shown in reports and errors: values of secret-looking variables (`API_TOKEN=...`) and
 * passwords in URLs (`postgres://u:pw@h`) are masked, since report headers and evidence are shared.
 */
export function redactCommand(command: string): string {
  return command
    .replace(
      /\b([A-Za-z_][A-Za-z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|PASS|KEY|CREDENTIALS?|AUTH)[A-Za-z0-9_]*)=("[^"]*"|'[^']*'|\S+)/gi,
      '$1=***',
    )
    .replace(/([a-z][a-z0-9+.-]*:\/\/[^:/@\s]+):[^@\s]+@/gi, '$1:***@');
}
