import type { Element } from 'domhandler';
import type { Body } from '../src/model/body.js';
import { buildBody } from './body-builder.js';
import { parseHtml } from './dom.js';
import type { BodyMarkup } from './markup.js';

/** One post body's inner HTML (as `votal parse` reads it) through the engine's markup map. */
export function parseFragment(html: string, markup: BodyMarkup, pageUrl: string): Body {
  const doc = parseHtml(`<div>${html}</div>`);
  const root = doc.children.find((n) => n.type === 'tag') as Element | undefined;
  return root ? buildBody(root, markup, { pageUrl }) : [];
}
