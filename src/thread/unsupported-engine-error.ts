import { LayoutError } from '../fetch/errors.js';

/**
 * A page of a forum engine Votal has no adapter for ("bbPress is not supported yet"),
 * refused naming it; the generic reader may read it, but only when asked (never silently).
 */
export class UnsupportedEngineError extends LayoutError {
  constructor(
    url: string | URL,
    /** The engine's name as the page shows it. */
    readonly engine: string,
  ) {
    super(
      url,
      `${engine} is not supported yet; read the thread with \`votal read <url> --generic\` (or \`--engine generic\`) and check what it finds`,
    );
  }
}
