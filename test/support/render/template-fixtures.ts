import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { packageRoot } from '../../../src/config/package-root.js';
import type { EngineId } from '../../../src/model/engine.js';
import { loadGameScript } from '../game-script.js';
import type { RenderedPage } from './index.js';
import { loadMybbTemplates, renderMybbTemplates } from './mybb-template.js';
import { renderSmf21Template } from './smf21-template.js';

/**
 * The standard game rendered through the engines' own templates (for the versions no
 * real page was found for), committed under fixtures/<engine>/<variant>/ so the tests run
 * without ../shared/forum-samples; a test re-renders them where the templates are present
 * and fails on drift. Write them with: npx tsx test/support/render/template-fixtures.ts
 */
export interface TemplateVariant {
  engine: EngineId;
  /** Folder under fixtures/<engine>/. */
  dir: string;
  /** Path of page 1 on the forum (the URL form this variant uses). */
  threadPath: string;
  pages: RenderedPage[];
}

/**
 * The variants that can be rendered here: SMF 2.1's are transcribed from its template (and
 * checked against it where present), MyBB's are filled from the template file itself, so
 * they need ../shared/forum-samples/templates.
 */
export function templateVariants(
  root: string,
  samples: string = resolve(root, '../shared/forum-samples'),
): TemplateVariant[] {
  const script = loadGameScript(join(root, 'fixtures/games/standard-game.yaml'));
  const variants: TemplateVariant[] = [
    {
      engine: 'smf',
      dir: 'template-2.1.4',
      threadPath: '/index.php?topic=4242.0',
      pages: renderSmf21Template(script, { sef: false }),
    },
    {
      engine: 'smf',
      dir: 'template-2.1.4-sef',
      threadPath: '/index.php/topic,4242.0.html',
      pages: renderSmf21Template(script, { sef: true }),
    },
  ];
  const mybb = loadMybbTemplates(samples);
  if (mybb) {
    variants.push(
      {
        engine: 'mybb',
        dir: 'template-1.8.37',
        threadPath: '/showthread.php?tid=4242',
        pages: renderMybbTemplates(mybb, script, { seo: false, classic: false }),
      },
      {
        engine: 'mybb',
        dir: 'template-1.8.37-seo-classic',
        threadPath: '/thread-4242.html',
        pages: renderMybbTemplates(mybb, script, { seo: true, classic: true }),
      },
    );
  }
  return variants;
}

export const variantFile = (root: string, v: TemplateVariant, page: RenderedPage): string =>
  join(root, 'fixtures', v.engine, v.dir, page.file);

/** Block-level tags: white space next to them is never text (what HTML minifiers drop). */
const BLOCK = new Set([
  'html',
  'head',
  'body',
  'title',
  'meta',
  'link',
  'script',
  'style',
  'div',
  'p',
  'table',
  'thead',
  'tbody',
  'tr',
  'td',
  'th',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'blockquote',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'br',
  'hr',
  'article',
  'section',
  'header',
  'footer',
  'aside',
  'nav',
  'fieldset',
  'cite',
]);

/**
 * A page as a minifying proxy or theme serves it: runs of white space fold to one space,
 * and white space beside a block-level tag goes (between inline tags it stays: it is text).
 */
export function minified(page: string): string {
  return page
    .replace(/\s+/g, ' ')
    .replace(/(<\/?([A-Za-z][\w-]*)[^>]*>) (?=<\/?([A-Za-z][\w-]*))/g, (m, tag: string, a: string, next: string) =>
      BLOCK.has(a.toLowerCase()) || BLOCK.has(next.toLowerCase()) ? tag : m,
    );
}

function main(): void {
  const root = packageRoot(import.meta.url);
  const variants = templateVariants(root);
  if (!variants.some((v) => v.engine === 'mybb'))
    throw new Error('the MyBB templates are not in ../shared/forum-samples/templates');
  for (const v of variants) {
    for (const p of v.pages) {
      const file = variantFile(root, v, p);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, p.body);
      console.log(`wrote ${relative(root, file)}`);
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();

/** The committed pages of a template variant, in page order. */
export function readVariant(
  root: string,
  engine: EngineId,
  dir: string,
): { page: number; file: string; body: string }[] {
  const folder = join(root, 'fixtures', engine, dir);
  return readdirSync(folder)
    .filter((f) => /^page-\d+\.html$/.test(f))
    .map((file) => ({ page: Number(/\d+/.exec(file)![0]), file, body: readFileSync(join(folder, file), 'utf8') }))
    .sort((a, b) => a.page - b.page);
}
