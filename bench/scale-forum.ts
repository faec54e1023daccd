/**
 * The forum side of `npm run bench:scale`, in its own process (forked by scale.bench.ts) so
 * that its CPU is not the service's: H stand-in forums on loopback (one port each, so each
 * is its own host and gets its own page lane in the service), and one XenForo 2 thread per
 * game, rendered from a game script that grows while the benchmark runs (a busy Day:
 * chatter, quotes, now and then a vote).
 *
 * Messages: in `{ kind: 'start', ... }` -> out `{ kind: 'ready', urls }`; in `{ kind: 'grow' }` starts the growth; in `{ kind: 'count' }`
 * -> out `{ kind: 'count', requests, byStatus, posts }`; in `{ kind: 'stop' }` closes everything.
 */
import { startFakeForum, type FakeForum } from '../src/fake-forum/server.js';
import type { GameScript, ScriptNode, ScriptPost } from '../test/support/game-script.js';
import { xenforo2Renderer } from '../test/support/render/xenforo2.js';

export interface ForumStart {
  kind: 'start';
  games: number;
  hosts: number;
  /** Posts in each thread at the start. */
  posts: number;
  /** Posts of game g at the start, where a kept set-up read more than `posts` (they grew while it ran). */
  postsOf?: Record<number, number>;
  postsPerPage: number;
  /** New posts per game per hour while the benchmark runs. */
  postsPerHour: number;
  /** First port; host h listens on basePort + h (0: any free port). */
  basePort: number;
}

export const PLAYERS = [
  'Alice',
  'Bob',
  'Carol',
  'Dave',
  'Davina',
  'Eve',
  'Frank',
  'Grace',
  'Heidi',
  'Ivan',
  'Judy',
  'Mallory',
  'Niaj',
];

const WORDS = (
  'I think the wagon on town is too fast and nobody has explained their reads yet so ' +
  'let us slow down look at the vote history and ask why some players stayed quiet all day'
).split(' ');

/** A post body of a Day's chatter; every fourth post votes, every seventh quotes the one before. */
function body(n: number, author: string, previous: ScriptPost | undefined): ScriptNode[] {
  const words = 30 + ((n * 37) % 60);
  const text = Array.from({ length: words }, (_, i) => WORDS[(n * 7 + i * 3) % WORDS.length]).join(' ');
  const out: ScriptNode[] = [];
  if (previous && n % 7 === 0) {
    out.push({ op: 'quote', author: previous.author, children: [{ op: 'text', text: 'you said something earlier' }] });
  }
  out.push({ op: 'text', text: `${text}.` });
  if (n % 4 === 0) {
    const target = PLAYERS[(n * 5 + author.length) % PLAYERS.length]!;
    out.push({ op: 'br' }, { op: 'bold', children: [{ op: 'text', text: `Vote: ${target}` }] });
  }
  return out;
}

function addPost(script: GameScript, time: string): void {
  const last = script.posts.at(-1);
  const n = (last?.n ?? 0) + 1;
  const author = n === 1 ? 'Moderator' : PLAYERS[(n * 11) % PLAYERS.length]!;
  script.posts.push({ n, id: script.thread.id * 10_000 + n, author, time, edited: null, body: body(n, author, last) });
}

function newScript(game: number, posts: number, postsPerPage: number): GameScript {
  const id = 50_000 + game;
  const forumUserIds: Record<string, number> = { Moderator: 1 };
  PLAYERS.forEach((p, i) => {
    forumUserIds[p] = 100 + i;
  });
  const script: GameScript = {
    file: `bench game ${game}`,
    ruleset: 'plurality',
    players: [...PLAYERS],
    thread: { title: `Bench Game ${game} - Day 1`, id, slug: `bench-game-${game}`, postsPerPage, forumUserIds },
    posts: [],
  };
  const start = Date.parse('2026-11-30T00:00:00Z');
  for (let i = 0; i < posts; i++) addPost(script, new Date(start + i * 120_000).toISOString().replace('.000Z', 'Z'));
  return script;
}

/** One game's thread: pages rendered once per version of the script, served from that. */
class Thread {
  private pages: string[] | null = null;
  private routed = 0;

  constructor(
    readonly forum: FakeForum,
    readonly script: GameScript,
  ) {
    this.route();
  }

  get url(): string {
    return this.forum.url(xenforo2Renderer.threadPath(this.script));
  }

  grow(): void {
    addPost(this.script, new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'));
    this.pages = null;
    this.route();
  }

  /** Routes every page that exists (a new page appears when the last one fills). */
  private route(): void {
    const count = Math.ceil(this.script.posts.length / this.script.thread.postsPerPage);
    for (let page = this.routed + 1; page <= count; page++) {
      const base = xenforo2Renderer.threadPath(this.script);
      this.forum.route(page <= 1 ? base : `${base}page-${page}`, () => ({ body: this.page(page) }));
    }
    this.routed = Math.max(this.routed, count);
  }

  private page(n: number): string {
    this.pages ??= xenforo2Renderer.render(this.script).map((p) => p.body);
    return this.pages[n - 1] ?? '';
  }
}

let forums: FakeForum[] = [];
let threads: Thread[] = [];
let growth: NodeJS.Timeout | null = null;

async function start(o: ForumStart): Promise<string[]> {
  for (let h = 0; h < o.hosts; h++) forums.push(await startFakeForum({ port: o.basePort ? o.basePort + h : 0 }));
  threads = Array.from(
    { length: o.games },
    (_, g) => new Thread(forums[g % o.hosts]!, newScript(g, o.postsOf?.[g] ?? o.posts, o.postsPerPage)),
  );
  chance = (o.postsPerHour * 10) / 3600;
  return threads.map((t) => t.url);
}

let chance = 0;

/** Every 10 s each thread gets a post with the chance that gives postsPerHour (from the measured window on). */
function grow(): void {
  if (growth) return;
  let seed = 12345;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  growth = setInterval(() => {
    for (const t of threads) if (random() < chance) t.grow();
  }, 10_000);
}

process.on('disconnect', () => process.exit(0));

process.on('message', (m: ForumStart | { kind: 'count' } | { kind: 'grow' } | { kind: 'stop' }) => {
  void (async () => {
    if (m.kind === 'start') process.send!({ kind: 'ready', urls: await start(m) });
    else if (m.kind === 'grow') grow();
    else if (m.kind === 'count') {
      const pages = forums.flatMap((f) => f.requests.filter((r) => !r.path.startsWith('/robots')));
      const byStatus: Record<string, number> = {};
      for (const r of pages) byStatus[String(r.status)] = (byStatus[String(r.status)] ?? 0) + 1;
      process.send!({
        kind: 'count',
        requests: pages.length,
        byStatus,
        posts: threads.reduce((n, t) => n + t.script.posts.length, 0),
      });
    } else {
      if (growth) clearInterval(growth);
      await Promise.all(forums.map((f) => f.close()));
      forums = [];
      process.disconnect();
    }
  })().catch((error: unknown) => {
    process.stderr.write(`bench forum: ${String((error as Error).stack ?? error)}\n`);
    process.exit(1);
  });
});
