import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { YamlSourceError, type SourceProblem } from '../rules/source-error.js';
import { readYaml } from '../rules/yaml-source.js';
import { hostMatches, hostSpecificity } from './host-pattern.js';
import { SiteProfileEntry } from './site-profile-entry.js';

/** A site profile file that cannot be used; every problem as `file:line:column: message`. */
export class SiteProfileError extends YamlSourceError {
  constructor(problems: readonly SourceProblem[]) {
    super('site profile', problems);
  }
}

/** Validates one site profile (YAML text of one file). */
export function parseSiteProfile(text: string, file: string): SiteProfileEntry {
  const result = readYaml(SiteProfileEntry, text, file);
  if (!result.ok) throw new SiteProfileError(result.problems);
  const name = result.value.name ?? basename(file, extname(file));
  // A cookie file path is relative to the profile, wherever votal runs from.
  const cookies = result.value.cookies === undefined ? undefined : resolve(file, '..', result.value.cookies);
  return { ...result.value, name, source: file, ...(cookies ? { cookies } : {}) };
}

/** The site profiles in force: `profileFor(url)` picks the one whose hosts name the URL's host best. */
export class SiteProfiles {
  constructor(readonly entries: readonly SiteProfileEntry[] = []) {}

  profileFor(url: string | URL): SiteProfileEntry | null {
    const target = new URL(String(url));
    let best: { entry: SiteProfileEntry; score: number } | null = null;
    for (const entry of this.entries) {
      for (const pattern of entry.hosts) {
        if (!hostMatches(pattern, target)) continue;
        const score = hostSpecificity(pattern);
        // Ties go to the later profile: a user's file overrides an example loaded before it.
        if (!best || score >= best.score) best = { entry, score };
      }
    }
    return best?.entry ?? null;
  }
}

/**
 * Loads site profiles from files and folders (a folder: every *.yaml / *.yml in it, by
 * name). Files are read in the order given, so a later file wins a tie on a host.
 */
export function loadSiteProfiles(paths: readonly string[]): SiteProfiles {
  const files: string[] = [];
  for (const path of paths) {
    if (statSync(path).isDirectory()) {
      files.push(
        ...readdirSync(path)
          .filter((f) => /\.ya?ml$/i.test(f))
          .sort()
          .map((f) => join(path, f)),
      );
    } else {
      files.push(path);
    }
  }
  return new SiteProfiles(files.map((file) => parseSiteProfile(readFileSync(file, 'utf8'), file)));
}
