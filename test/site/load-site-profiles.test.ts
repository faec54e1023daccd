import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSiteProfiles, parseSiteProfile, SiteProfileError } from '../../src/site/load-site-profiles.js';
import { adapterProfile } from '../../src/site/site-profile-entry.js';
import { SiteProfile } from '../../scrapers/site-profile.js';

const root = join(import.meta.dirname, '../..');
const sites = join(root, 'sites');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'votal-sites-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('site profiles', () => {
  it('every example in sites/ is a valid profile', () => {
    const profiles = loadSiteProfiles([sites]);
    expect(profiles.entries.map((e) => e.name).sort()).toEqual([
      'GOG forums',
      'Mafia Hideout (ProBoards)',
      'Night Market (private phpBB)',
      'Werewolf Village',
    ]);
  });

  it('profileFor picks by host: exact names, wildcards, and the most specific wins', () => {
    const profiles = loadSiteProfiles([sites]);
    expect(profiles.profileFor('https://www.gog.com/forum/general/forum_mafia_142/page2')?.engine).toBe('gog');
    expect(profiles.profileFor('https://mafiahideout.proboards.com/thread/812/game')?.timeZone).toBe(
      'America/New_York',
    );
    expect(profiles.profileFor('https://forum.werewolf-village.example.com/threads/day-1.77/')?.name).toBe(
      'Werewolf Village',
    );
    expect(profiles.profileFor('https://old.werewolf-village.example.com/threads/x.1/')?.engine).toBe('xenforo2');
    expect(profiles.profileFor('https://werewolf-village.example.com/')).toBeNull();
    expect(profiles.profileFor('https://other.example.com/')).toBeNull();
  });

  it('a later, more specific or equal profile overrides an earlier one', () => {
    const wide = write('a.yaml', 'hosts: ["*.example.org"]\nminIntervalMs: 5000\n');
    const exact = write('b.yaml', 'hosts: [forum.example.org]\nminIntervalMs: 100\n');
    const again = write('c.yaml', 'hosts: ["*.example.org"]\nminIntervalMs: 7000\n');
    const profiles = loadSiteProfiles([wide, exact, again]);
    expect(profiles.profileFor('https://forum.example.org/t/1')?.minIntervalMs).toBe(100);
    expect(profiles.profileFor('https://www.example.org/t/1')?.minIntervalMs).toBe(7000);
  });

  it('a host with a port names that port only', () => {
    const profiles = loadSiteProfiles([write('local.yaml', 'hosts: ["127.0.0.1:8123"]\nengine: phpbb\n')]);
    expect(profiles.profileFor('http://127.0.0.1:8123/viewtopic.php?t=1')?.engine).toBe('phpbb');
    expect(profiles.profileFor('http://127.0.0.1:9000/viewtopic.php?t=1')).toBeNull();
  });

  it('the name defaults to the file name; the cookie path is relative to the profile', () => {
    const entry = parseSiteProfile('hosts: [a.example.com]\ncookies: secret/a.txt\n', join(dir, 'board-a.yaml'));
    expect(entry.name).toBe('board-a');
    expect(entry.cookies).toBe(join(dir, 'secret/a.txt'));
  });

  it('the adapters get a plain SiteProfile, without cookies or login', () => {
    const [entry] = loadSiteProfiles([join(sites, 'private-phpbb.yaml')]).entries;
    const profile = adapterProfile(entry!);
    expect(SiteProfile.parse(profile)).toEqual(profile);
    expect(profile).toMatchObject({
      engine: 'phpbb',
      timeZone: 'Australia/Sydney',
      dateOrder: 'dmy',
      minIntervalMs: 5000,
    });
    expect(Object.keys(profile)).not.toContain('cookies');
    expect(adapterProfile(null)).toEqual(SiteProfile.parse({}));
  });

  it('problems are reported as file:line:column', () => {
    const file = write(
      'bad.yaml',
      [
        'hosts: [forum.example.com]',
        'engine: xenforo9',
        'timeZone: Mars/Olympus',
        'minIntervalMs: -5',
        'colour: blue',
        '',
      ].join('\n'),
    );
    let error: unknown;
    try {
      loadSiteProfiles([file]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SiteProfileError);
    const message = (error as Error).message;
    expect(message).toContain(`${file}:2:9: engine 'xenforo9' is not one of proboards, gog, xenforo1, xenforo2,`);
    expect(message).toContain(`${file}:3:11: timeZone: not an IANA time zone`);
    expect(message).toContain(`${file}:4:16: \`minIntervalMs:\` should be at least 0, not -5`);
    expect(message).toContain(`${file}:5:1: colour: unknown key "colour"`);
  });

  it('a profile must name its hosts, and host patterns must look like hosts', () => {
    expect(() => parseSiteProfile('engine: phpbb\n', 'x.yaml')).toThrow(/hosts/);
    expect(() => parseSiteProfile('hosts: ["https://forum.example.com/"]\n', 'x.yaml')).toThrow(/host name/);
  });

  it('the complete example in docs/fetching.md is a valid profile', () => {
    const doc = readFileSync(join(root, 'docs/fetching.md'), 'utf8');
    const yaml = /```yaml\n(# sites\/werewolf-village\.yaml[\s\S]*?)```/.exec(doc)?.[1];
    expect(yaml).toBeDefined();
    const entry = parseSiteProfile(yaml!, join(root, 'sites/werewolf-village.yaml'));
    expect(entry).toMatchObject({
      engine: 'xenforo2',
      timeZone: 'Europe/Berlin',
      minIntervalMs: 2000,
      login: { sessionCookie: 'xf_user' },
    });
  });

  it('a login names environment variables, never credentials', () => {
    expect(() =>
      parseSiteProfile(
        [
          'hosts: [a.example.com]',
          'login: { url: "https://a.example.com/login", usernameField: u, passwordField: p, usernameEnv: U, passwordEnv: P, password: hunter2 }',
        ].join('\n'),
        'x.yaml',
      ),
    ).toThrow(/unknown key "password"/);
  });
});
