import { describe } from 'vitest';
import type { FakeForum } from '../../src/fake-forum/server.js';
import type { EngineId } from '../../src/model/engine.js';
import { chromiumMissing, chromiumPath } from '../../src/browser/chromium-path.js';
import type { GameScript } from '../support/game-script.js';
import { rendererFor } from '../support/render/index.js';

/** Why the browser tests cannot run here (null: they can). */
export const chromiumProblem = chromiumMissing(chromiumPath());
/** `VOTAL_REQUIRE_BROWSER=1` (CI with Chromium installed): a missing browser fails instead of skipping. */
export const browserRequired = process.env.VOTAL_REQUIRE_BROWSER === '1';

if (chromiumProblem && !browserRequired) {
  const line = '!'.repeat(100);
  console.warn(
    `\n${line}\n!! SKIPPING THE BROWSER FALLBACK TESTS: ${chromiumProblem}.\n!! Set VOTAL_REQUIRE_BROWSER=1 to make this a failure.\n${line}\n`,
  );
}

/** `describe` for tests that drive Chromium: skipped (loudly) when it is missing, unless required. */
export const describeWithChromium = chromiumProblem && !browserRequired ? describe.skip : describe;

/**
 * Serves the game's thread as a single-page app would: each page's HTML has no posts,
 * only a `<noscript>` notice, an empty `#app` and a script that fetches the posts and
 * draws them. Returns page 1's URL.
 */
export function serveAsScriptShells(forum: FakeForum, engine: EngineId, script: GameScript): string {
  const renderer = rendererFor(engine);
  for (const page of renderer.render(script)) {
    const htmlTag = /<html[^>]*>/i.exec(page.body)?.[0] ?? '<html>';
    const head = /<head[^>]*>[\s\S]*?<\/head>/i.exec(page.body)?.[0] ?? '<head></head>';
    const posts = /<body[^>]*>([\s\S]*)<\/body>/i.exec(page.body)?.[1] ?? '';
    forum.route(
      page.path,
      {
        body: `<!DOCTYPE html>\n${htmlTag}${head}<body>
<noscript>This board needs JavaScript to show its posts.</noscript>
<div id="app"></div>
<script>
  fetch('/fragments' + location.pathname + location.search)
    .then(function (r) { return r.text(); })
    .then(function (html) { setTimeout(function () { document.getElementById('app').innerHTML = html; }, 150); });
</script>
</body></html>`,
      },
      { etag: false },
    );
    forum.route(`/fragments${page.path}`, { body: posts }, { etag: false });
  }
  return forum.url(renderer.threadPath(script));
}
