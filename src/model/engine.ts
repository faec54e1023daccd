import { z } from 'zod';

/** Engine ids are a public contract (CLI `--engine`, JSON output): extend, never rename. */
export const EngineId = z.enum([
  'proboards',
  'gog',
  'xenforo1',
  'xenforo2',
  'phpbb',
  'vbulletin3',
  'vbulletin4',
  'vbulletin5',
  'discourse',
  'nodebb',
  'invision',
  'smf',
  'mybb',
  'vanilla',
  'fluxbb',
  // A page read by the generic reader (scrapers/generic.ts): chosen, never identified.
  'generic',
]);
export type EngineId = z.infer<typeof EngineId>;
