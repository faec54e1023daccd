import type { EngineDescriptor } from './adapter.js';
import { parseHtml, type Document } from './dom.js';
import { scanPage } from './page-scan.js';

/** The DOM an adapter reads: only the parts its descriptor names, or the whole page. */
export function pageDocument(html: string, descriptor: EngineDescriptor): Document {
  return descriptor.page ? scanPage(html, descriptor.page) : parseHtml(html);
}
