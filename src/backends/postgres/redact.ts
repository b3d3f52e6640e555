/**
 * The connection URL is an opaque capability (postgres.md at HEAD): it must never appear in names, descriptions,
 * errors or logs. `redact` removes the URL and its parts that identify a secret (the password, raw and
 * percent-decoded, and the user:password pair) from any text, including pg's own error messages.
 */
export const REDACTED = '[redacted]';

export function redact(text: string, url: string | undefined): string {
  if (!url) return text;
  const secrets = new Set<string>([url]);
  const parts = urlSecrets(url);
  for (const s of parts) secrets.add(s);
  let out = text;
  // Longest first, so the whole URL is replaced before its password is.
  for (const s of [...secrets].filter((x) => x.length > 0).sort((a, b) => b.length - a.length)) {
    out = out.split(s).join(REDACTED);
  }
  // Any other postgres URL with credentials that slipped in (a derived per-case URL, say).
  return out.replace(/(postgres(?:ql)?:\/\/)[^\s/@'"]*@/gi, `$1${REDACTED}@`);
}

function urlSecrets(url: string): string[] {
  try {
    const u = new URL(url);
    const out: string[] = [];
    if (u.password) {
      out.push(u.password);
      try {
        out.push(decodeURIComponent(u.password));
      } catch {
        /* not percent-encoded */
      }
      out.push(`${u.username}:${u.password}`);
    }
    // A password may also come as a query parameter (?password=...).
    const qp = u.searchParams.get('password');
    if (qp) out.push(qp, encodeURIComponent(qp));
    return out;
  } catch {
    return [];
  }
}
