import { expect } from 'vitest';
import type { GmChecks } from '../../src/model/gm-count.js';
import type { VotalApp } from '../../src/web/app.js';
import { O } from '../ui/sign-in.js';
import { ADMIN_TOKEN } from './support.js';

/** The GM's checks of a game through the JSON API (the GM's token), expected to answer 200. */
export async function gmChecksOf(app: VotalApp, gameId: number): Promise<GmChecks> {
  const res = await app.request(`${O}/api/games/${gameId}/checks`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as GmChecks;
}
