/**
 * The pages' scripts, served as files from /ui/static/ (the CSP allows `script-src 'self'`
 * and nothing inline). Plain ES2019, no build step, no template literals (they live in a
 * String.raw). They never put forum text into HTML: the live page swaps in fragments the
 * server rendered (and escaped) through one Trusted Types policy; everything else is
 * textContent.
 */

/** Countdown to the deadline and times in the reader's own time zone (both pages). */
export const COMMON_JS = String.raw`(function () {
  'use strict';
  function pad(n) { return n < 10 ? '0' + n : String(n); }
  function left(ms) {
    if (ms <= 0) return 'deadline passed';
    var s = Math.floor(ms / 1000);
    var d = Math.floor(s / 86400); s -= d * 86400;
    var h = Math.floor(s / 3600); s -= h * 3600;
    var m = Math.floor(s / 60); s -= m * 60;
    return (d > 0 ? d + 'd ' : '') + pad(h) + 'h ' + pad(m) + 'm ' + pad(s) + 's left';
  }
  function localTimes(root) {
    var els = (root || document).querySelectorAll('time[data-local]');
    for (var i = 0; i < els.length; i++) {
      var t = new Date(els[i].getAttribute('datetime'));
      if (isNaN(t.getTime())) continue;
      try {
        els[i].textContent = t.toLocaleString(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
      } catch (e) { els[i].textContent = t.toString(); }
    }
  }
  function tick() {
    var els = document.querySelectorAll('[data-countdown]');
    var now = Date.now();
    for (var i = 0; i < els.length; i++) {
      var at = Date.parse(els[i].getAttribute('data-countdown'));
      if (!isNaN(at)) els[i].textContent = left(at - now);
    }
  }
  function colours(root) {
    var els = (root || document).querySelectorAll('[data-color]');
    for (var i = 0; i < els.length; i++) {
      var c = els[i].getAttribute('data-color');
      if (/^#[0-9a-f]{3}([0-9a-f]{3})?$|^[a-z]{3,20}$/i.test(c)) els[i].style.color = c;
    }
  }
  // Wide charts scroll sideways on phones: show the latest posts first.
  function charts(root) {
    var els = (root || document).querySelectorAll('.timeline-scroll');
    for (var i = 0; i < els.length; i++) els[i].scrollLeft = els[i].scrollWidth;
  }
  window.votal = { localTimes: localTimes, tick: tick, colours: colours, charts: charts };
  function start() {
    localTimes(document); colours(document); charts(document); tick(); setInterval(tick, 1000);
    window.addEventListener('resize', function () { charts(document); });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
})();
`;

/**
 * The live tally page: server-sent events, then the fresh fragment swapped in, no reload.
 * - One stream per browser: the tab holding the Web Lock `votal-live <url>` is the leader;
 *   it alone opens the EventSource and tells the other tabs (BroadcastChannel) when the
 *   game changed, so tabs never count against the server's per-address stream limit.
 *   When the leader closes, the next tab takes the lock and the stream over. Without Web
 *   Locks or BroadcastChannel, each tab keeps its own stream.
 * - A stream that fails (server restart, 429, network) is reopened with backoff (1 s
 *   doubling to 30 s, jittered), resuming from the last event id; while it is down the
 *   page polls the fragment, so it never silently freezes.
 */
export const LIVE_JS = String.raw`(function () {
  'use strict';
  var root = document.getElementById('live');
  if (!root) return;
  var fragmentUrl = root.getAttribute('data-fragment');
  var eventsUrl = root.getAttribute('data-events');
  var status = document.getElementById('live-status');
  var announce = document.getElementById('announce');
  var reading = document.getElementById('read-progress');
  var POLL_MS = 15000;
  var policy = null;
  if (window.trustedTypes && window.trustedTypes.createPolicy) {
    // The only HTML this page ever parses: fragments from its own server, escaped there.
    policy = window.trustedTypes.createPolicy('votal', { createHTML: function (s) { return s; } });
  }
  var channel = window.BroadcastChannel ? new BroadcastChannel('votal-live ' + eventsUrl) : null;
  var leader = false;
  var tookOver = false;
  var statusNow = { text: 'Connecting', cls: 'off' };
  function setStatus(text, cls) {
    statusNow = { text: text, cls: cls };
    if (status) { status.textContent = text; status.className = 'status ' + cls; }
    if (leader && channel) channel.postMessage({ t: 'status', text: text, cls: cls });
  }
  var pending = null;
  var running = false;
  var again = false;
  var retryRefresh = null;
  function refresh() {
    if (running) { again = true; return; }
    running = true;
    fetch(fragmentUrl, { cache: 'no-store', credentials: 'omit', headers: { accept: 'text/html' } })
      .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(policy ? policy.createHTML(html) : html, 'text/html');
        var fresh = doc.getElementById('live');
        if (!fresh) return;
        var version = fresh.getAttribute('data-version');
        if (version && version === root.getAttribute('data-version')) return;
        root.replaceChildren.apply(root, Array.prototype.slice.call(fresh.childNodes));
        root.setAttribute('data-version', version || '');
        if (fresh.hasAttribute('data-stale')) root.setAttribute('data-stale', '1'); else root.removeAttribute('data-stale');
        if (window.votal) { window.votal.localTimes(root); window.votal.charts(root); window.votal.tick(); }
        if (announce) announce.textContent = fresh.getAttribute('data-announce') || 'Vote count updated.';
      })
      .catch(function () {
        // Try again later; the status says the page may be behind.
        if (status && statusNow.cls !== 'off') { status.textContent = 'Update failed, retrying'; status.className = 'status off'; }
        if (!retryRefresh) retryRefresh = setTimeout(function () { retryRefresh = null; refresh(); }, 5000);
      })
      .then(function () {
        running = false;
        if (again) { again = false; refresh(); }
      });
  }
  function schedule() {
    if (pending) clearTimeout(pending);
    pending = setTimeout(function () { pending = null; refresh(); }, 100);
  }
  function changed() {
    schedule();
    if (leader && channel) channel.postMessage({ t: 'change' });
  }
  // A running read's progress ("Reading page 12 of 60, about 50 s left"); empty: the read is over.
  function showReading(text) {
    if (reading) { reading.textContent = text; reading.hidden = !text; }
    if (leader && channel) channel.postMessage({ t: 'reading', text: text });
  }

  // ---- the stream (leader only): hello on connect, then tally / posts / game; reset when changes were missed.
  var source = null;
  var lastId = null;
  var attempt = 0;
  var reopen = null;
  var poller = null;
  function startPolling() {
    if (!poller) poller = setInterval(changed, POLL_MS);
  }
  function stopPolling() {
    if (poller) { clearInterval(poller); poller = null; }
  }
  function open() {
    if (!window.EventSource) { setStatus('Updating every ' + POLL_MS / 1000 + ' s', 'off'); startPolling(); return; }
    var url = eventsUrl + (lastId ? (eventsUrl.indexOf('?') < 0 ? '?' : '&') + 'lastEventId=' + encodeURIComponent(lastId) : '');
    var es = new EventSource(url);
    source = es;
    var names = ['tally', 'posts', 'game', 'reset', 'hello'];
    var seen = function (e) {
      if (e.lastEventId) lastId = e.lastEventId;
      if (e.type !== 'hello') changed();
    };
    for (var i = 0; i < names.length; i++) es.addEventListener(names[i], seen);
    es.addEventListener('progress', function (e) {
      try { showReading(JSON.parse(e.data).text || ''); } catch (err) { /* a frame it cannot read: wait for the next */ }
    });
    // The poll told its end (or its count): the read is over.
    es.addEventListener('game', function () { showReading(''); });
    es.addEventListener('tally', function () { showReading(''); });
    var wasOpen = false;
    es.addEventListener('open', function () {
      attempt = 0;
      stopPolling();
      setStatus('Live', 'live');
      // After a reconnect, catch up on anything missed while away (every tab); a first
      // connection checks only this tab's copy (it may have taken over from a closed leader).
      if (wasOpen || lastId || tookOver) changed(); else schedule();
      wasOpen = true;
    });
    es.addEventListener('error', function () {
      setStatus('Reconnecting', 'off');
      startPolling();
      // The browser retries by itself unless it gave up (a refused or failed answer): then we do, with backoff.
      if (es.readyState === 2 && source === es) {
        source = null;
        var wait = Math.min(30000, 1000 * Math.pow(2, attempt)) * (0.75 + Math.random() * 0.5);
        attempt += 1;
        if (reopen) clearTimeout(reopen);
        reopen = setTimeout(function () { reopen = null; if (leader) open(); }, wait);
      }
    });
  }
  function lead() {
    leader = true;
    open();
  }

  // ---- the other tabs: follow the leader.
  if (channel) {
    channel.onmessage = function (m) {
      var d = m.data || {};
      if (leader) {
        if (d.t === 'ask') channel.postMessage({ t: 'status', text: statusNow.text, cls: statusNow.cls });
        return;
      }
      if (d.t === 'change') schedule();
      else if (d.t === 'reading') { if (reading) { reading.textContent = d.text; reading.hidden = !d.text; } }
      else if (d.t === 'status') {
        stopPolling();
        statusNow = { text: d.text, cls: d.cls };
        if (status) { status.textContent = d.text; status.className = 'status ' + d.cls; }
      }
    };
  }
  if (channel && navigator.locks && navigator.locks.request) {
    var lockName = 'votal-live ' + eventsUrl;
    // Held while this tab lives; the browser gives it to the next tab when this one goes.
    var hold = function () { return new Promise(function () {}); };
    navigator.locks.request(lockName, { ifAvailable: true }, function (lock) {
      if (lock) { lead(); return hold(); }
      // A follower for now; when it takes over, the others may have missed changes meanwhile.
      navigator.locks.request(lockName, function () { tookOver = true; lead(); return hold(); });
      return null;
    }).catch(function () { if (!leader) lead(); });
    channel.postMessage({ t: 'ask' });
    // A follower whose leader never answers (a browser that lost it) still updates, slowly.
    setTimeout(function () { if (!leader && statusNow.text === 'Connecting') { setStatus('Updating every ' + POLL_MS / 1000 + ' s', 'off'); startPolling(); } }, 10000);
  } else {
    lead();
  }
  window.addEventListener('pagehide', function () { if (source) source.close(); if (channel) channel.close(); });
  // Back from the back-forward cache with its stream and channel closed: start afresh.
  window.addEventListener('pageshow', function (e) { if (e.persisted) location.reload(); });
})();
`;

/** The GM dashboard: copy buttons, and a notice when the game changed behind the page. */
export const GM_JS = String.raw`(function () {
  'use strict';
  function copy(button) {
    var target = document.getElementById(button.getAttribute('data-copy'));
    if (!target) return;
    var text = target.value !== undefined ? target.value : target.textContent;
    var done = function () { button.textContent = 'Copied'; setTimeout(function () { button.textContent = 'Copy'; }, 2000); };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, function () { if (target.select) { target.select(); document.execCommand('copy'); done(); } });
    } else if (target.select) { target.select(); document.execCommand('copy'); done(); }
  }
  document.addEventListener('click', function (e) {
    var b = e.target && e.target.closest ? e.target.closest('button[data-copy]') : null;
    if (b) { e.preventDefault(); copy(b); }
  });
  var watch = document.querySelector('[data-watch]');
  if (watch && window.EventSource) {
    var source = new EventSource(watch.getAttribute('data-watch'));
    var shown = false;
    var onChange = function () {
      if (shown) return;
      shown = true;
      watch.hidden = false;
    };
    var names = ['tally', 'posts', 'game', 'reset'];
    for (var i = 0; i < names.length; i++) source.addEventListener(names[i], onChange);
    // A running read's progress, live ("Reading page 12 of 60, about 50 s left"), gone when the poll ends.
    var reading = document.querySelector('[data-read-progress]');
    if (reading) {
      source.addEventListener('progress', function (e) {
        try { var text = JSON.parse(e.data).text || ''; reading.textContent = text; reading.hidden = !text; } catch (err) { /* wait for the next */ }
      });
      var over = function () { reading.hidden = true; };
      source.addEventListener('game', over);
      source.addEventListener('tally', over);
    }
    window.addEventListener('pagehide', function () { source.close(); });
  }
})();
`;
