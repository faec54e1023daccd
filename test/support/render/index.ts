import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineId } from '../../../src/model/engine.js';
import type { GameScript } from '../game-script.js';
import { discourseRenderer } from './discourse.js';
import { gogRenderer } from './gog.js';
import { invisionRenderer } from './invision.js';
import { mybbRenderer } from './mybb.js';
import { nodebbRenderer } from './nodebb.js';
import { phpbbRenderer } from './phpbb.js';
import { proboardsRenderer } from './proboards.js';
import { smfRenderer } from './smf.js';
import { vanillaRenderer } from './vanilla.js';
import { fluxbbRenderer } from './fluxbb.js';
import { vbulletin3Renderer } from './vbulletin3.js';
import { vbulletin4Renderer } from './vbulletin4.js';
import { vbulletin5Renderer } from './vbulletin5.js';
import { xenforo1Renderer } from './xenforo1.js';
import { xenforo2Renderer } from './xenforo2.js';

/**
 * Renderers turn a game script (test/support/game-script.ts) into one engine's real
 * thread pages, page by page, as a guest sees them. To add an engine: write
 * `render/<engine>.ts` exporting a `ThreadRenderer`, add it to `renderers` below, and run
 * `npx tsx scripts/build-fixtures.ts` to write fixtures/<engine>/<game>/.
 */

/** One rendered thread page. */
export interface RenderedPage {
  /** 1-based. */
  page: number;
  /** Path (and query) of this page on the fake forum, e.g. `/threads/standard-game.4242/page-2`. */
  path: string;
  /** File name under fixtures/<engine>/<game>/, e.g. `page-2.html`. */
  file: string;
  /** The document, as the forum serves it. */
  body: string;
}

export interface ThreadRenderer {
  readonly engine: EngineId;
  /** Path of the thread's page 1 on the fake forum (what a user pastes as the thread URL). */
  threadPath(script: GameScript): string;
  /** Every page of the thread, `script.thread.postsPerPage` posts to a page. */
  render(script: GameScript): RenderedPage[];
}

/** Every engine the fixture games are rendered for. */
export const renderers: Partial<Record<EngineId, ThreadRenderer>> = {
  xenforo2: xenforo2Renderer,
  phpbb: phpbbRenderer,
  xenforo1: xenforo1Renderer,
  vbulletin3: vbulletin3Renderer,
  vbulletin4: vbulletin4Renderer,
  vbulletin5: vbulletin5Renderer,
  discourse: discourseRenderer,
  nodebb: nodebbRenderer,
  proboards: proboardsRenderer,
  gog: gogRenderer,
  smf: smfRenderer,
  mybb: mybbRenderer,
  invision: invisionRenderer,
  vanilla: vanillaRenderer,
  fluxbb: fluxbbRenderer,
};

export function rendererFor(engine: EngineId): ThreadRenderer {
  const r = renderers[engine];
  if (!r) throw new Error(`no fixture renderer for engine "${engine}" (have: ${Object.keys(renderers).join(', ')})`);
  return r;
}

/**
 * fixtures/<engine>/<game>/thread.json: what a fake forum needs to serve the pages, and
 * what a test needs to point a reader at them.
 */
export interface ThreadManifest {
  engine: EngineId;
  /** Path of page 1 on the fake forum. */
  path: string;
  pages: { page: number; path: string; file: string }[];
}

export function manifestOf(
  renderer: ThreadRenderer,
  script: GameScript,
  pages: readonly RenderedPage[],
): ThreadManifest {
  return {
    engine: renderer.engine,
    path: renderer.threadPath(script),
    pages: pages.map((p) => ({ page: p.page, path: p.path, file: p.file })),
  };
}

/** A committed fixture thread: its manifest and each page's document. */
export interface FixtureThread {
  manifest: ThreadManifest;
  pages: { page: number; path: string; body: string }[];
}

/** Reads fixtures/<engine>/<game>/ (thread.json and the pages it lists). */
export function readFixtureThread(root: string, engine: EngineId, game: string): FixtureThread {
  const dir = join(root, 'fixtures', engine, game);
  const manifest = JSON.parse(readFileSync(join(dir, 'thread.json'), 'utf8')) as ThreadManifest;
  return {
    manifest,
    pages: manifest.pages.map((p) => ({ page: p.page, path: p.path, body: readFileSync(join(dir, p.file), 'utf8') })),
  };
}
