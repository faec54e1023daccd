/**
 * URLs end up in error messages, metrics and logs. Strip what a URL can carry that is
 * a secret: `user:password@` and session ids that some forums put in the query string
 * when cookies are off (phpBB `sid`, vBulletin `s`, generic `token`/`session`).
 */
const SECRET_PARAMS = /^(sid|s|session|sessionid|phpsessid|token|auth|key|password|pass|passwd)$/i;

export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    // Not a URL at all: show it, it carries nothing we could have added.
    return String(url);
  }
  parsed.username = '';
  parsed.password = '';
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAMS.test(name)) parsed.searchParams.set(name, 'REDACTED');
  }
  return parsed.href;
}
