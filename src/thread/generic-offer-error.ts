import { LayoutError } from '../fetch/errors.js';
import type { EngineId } from '../model/engine.js';

/**
 * An engine's adapter found no posts where its layout should be (a theme moved its
 * landmarks): the message offers the generic reader, and `engine` says whose layout was
 * missed, so the GM's dashboard can offer the switch (issue #26). Never switched silently.
 */
export class GenericOfferError extends LayoutError {
  constructor(
    url: string | URL,
    detail: string,
    readonly engine: EngineId,
  ) {
    super(url, detail);
  }
}
