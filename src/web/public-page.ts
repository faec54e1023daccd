import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { Game } from '../store/games-repo.js';
import type { StoredTally } from '../store/tallies-repo.js';

/**
 * The public live page of a game, `GET /g/:slug`: a minimal placeholder until the real
 * page (src/web/pages/) replaces it. It shows nothing the GM keeps secret (the stored
 * tally is the GM's view: only its Day, post number and outcome are shown here) and
 * reloads when the game's event stream says something changed. `hono/html` escapes
 * every interpolation.
 */
export function gamePage(game: Game, latest: StoredTally | null): HtmlEscapedString | Promise<HtmlEscapedString> {
  const t = latest?.tally;
  const summary = t
    ? `Day ${t.day}, counted up to post ${t.asOfPost ?? 0} (${t.postsRead} posts read)`
    : 'The thread has not been read yet.';
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Votal: ${game.slug}</title>
</head>
<body>
<main>
<h1>Vote count: ${game.slug}</h1>
<p>Status: ${game.status}. ${summary}</p>
<p><a href="${game.threadUrl}" rel="noopener noreferrer nofollow">The game thread</a></p>
<p id="live" aria-live="polite"></p>
</main>
<script>
(function () {
  var es = new EventSource(location.pathname.replace(/\\/$/, '') + '/events');
  var live = document.getElementById('live');
  es.addEventListener('tally', function () { live.textContent = 'The count changed; reloading...'; location.reload(); });
  es.addEventListener('reset', function () { location.reload(); });
  window.addEventListener('pagehide', function () { es.close(); });
})();
</script>
</body>
</html>`;
}
