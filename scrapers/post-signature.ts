import type { Element } from 'domhandler';
import { matcher } from './dom.js';
import { elementsOf, parentElement, shortText } from './post-structure.js';

/**
 * A post's signature as a reader without an adapter finds it: an element of the markup's
 * signature selector, or a block that opens with the separator line boards print above one
 * ("__________________" in vBulletin's postbit). Beside the message, never the message: the
 * generic reader measures the message without it and adds it to the body marked as a
 * signature (the gold and the GM see it; the vote parser skips it).
 */
export function isSignature(el: Element, selector: string | undefined): boolean {
  if (selector && matcher(selector)(el)) return true;
  return /^_{5,}/.test(shortText(el, 20));
}

/**
 * The signature after the message in a post: the first one after `body` in the block,
 * outside it (a signature in the message is read with it) and outside any quote; null
 * when the post shows none.
 */
export function signatureAfter(block: Element, body: Element, selector: string | undefined): Element | null {
  let after = false;
  for (const el of elementsOf(block)) {
    if (el === body) {
      after = true;
      continue;
    }
    if (!after || within(body, el) || within(el, body) || inQuote(el, block)) continue;
    if (isSignature(el, selector)) return el;
  }
  return null;
}

function within(outer: Element, inner: Element): boolean {
  for (let at: Element | null = inner; at; at = parentElement(at)) if (at === outer) return true;
  return false;
}

function inQuote(el: Element, top: Element): boolean {
  for (let at = parentElement(el); at && at !== top; at = parentElement(at)) if (at.name === 'blockquote') return true;
  return false;
}
