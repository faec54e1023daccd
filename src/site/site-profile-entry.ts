import { z } from 'zod';
import { SiteProfile } from '../../scrapers/site-profile.js';
import { HostPattern } from './host-pattern.js';
import { LoginForm } from './login-form.js';

/**
 * A site profile file (`sites/*.yaml`, `--site-profile FILE`): the adapters' SiteProfile
 * (engine, time zone, date order, posts per page, pause, needsBrowser, aliases) plus
 * what only the fetching side needs: which hosts it is for, the cookie jar to send, and
 * how to log in.
 */
export const SiteProfileEntry = SiteProfile.extend({
  /** A name for messages; default: the file name. */
  name: z.string().min(1).optional(),
  hosts: z.array(HostPattern).min(1),
  timeZone: z
    .string()
    .default('UTC')
    .refine(isTimeZone, { message: 'not an IANA time zone (e.g. "Europe/Berlin", "America/New_York")' }),
  /**
   * A logged-in session for a private board: a Netscape cookies.txt or a Playwright
   * storage state JSON, relative to the profile file. Keep it 0600 and out of git.
   */
  cookies: z.string().min(1).optional(),
  login: LoginForm.optional(),
});
export type SiteProfileEntry = z.infer<typeof SiteProfileEntry> & {
  name: string;
  /** The file the profile came from (cookie paths resolve against its folder). */
  source?: string;
};

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The part of an entry the engine adapters read (they know nothing of cookies or logins). */
export function adapterProfile(entry: SiteProfileEntry | null): SiteProfile {
  if (!entry) return SiteProfile.parse({});
  const { name: _name, source: _source, cookies: _cookies, login: _login, ...profile } = entry;
  return SiteProfile.parse(profile);
}
