import { LayoutError } from '../fetch/errors.js';

/**
 * A 200 page whose posts only appear once its JavaScript runs (an empty app root or a
 * `<noscript>` notice, and no post containers). Not retried: the answer is the browser
 * fallback (`--browser`, or `needsBrowser: true` in the site profile).
 */
export class ScriptShellError extends LayoutError {
  constructor(url: string | URL) {
    super(
      url,
      'the page draws its posts with JavaScript (no posts in its HTML); read it with --browser or set needsBrowser in its site profile',
    );
  }
}
