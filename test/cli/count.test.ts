import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { mountThreadFolder } from '../../src/fake-forum/thread-folder.js';
import { Tally } from '../../src/model/tally.js';
import { runCli } from './run-cli.js';

const root = join(import.meta.dirname, '../..');
const ruleset = join(root, 'fixtures/games/standard-ruleset.yaml');
const players = 'Alice,Bob,Carol,Dave,Davina,Eve,Frank';

let forum: FakeForum;
let xfUrl: string;
let phpbbUrl: string;
beforeAll(async () => {
  process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
  forum = await startFakeForum();
  xfUrl = mountThreadFolder(forum, join(root, 'fixtures/xenforo2/standard-game')).url;
  phpbbUrl = mountThreadFolder(forum, join(root, 'fixtures/phpbb/standard-game')).url;
  forum.route('/threads/empty.1/', {
    body: '<!DOCTYPE html><html id="XF"><body><p>This thread has been removed.</p></body></html>',
  });
  forum.route('/threads/teapot.2/', { status: 404, body: 'gone' });
  // The standard game with every time on page 3 removed (as on XenForo 1 themes, issue 23).
  const page = (n: number) => readFileSync(join(root, `fixtures/xenforo2/standard-game/page-${n}.html`), 'utf8');
  forum.route('/threads/untimed.5/', { body: page(1) });
  forum.route('/threads/untimed.5/page-2', { body: page(2) });
  forum.route('/threads/untimed.5/page-3', { body: page(3).replace(/<time[^>]*>[^<]*<\/time>/g, '') });
});
afterAll(async () => {
  delete process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
  await forum?.close();
});

describe('votal count', () => {
  it('prints the count as JSON in the shape DESIGN.md gives', async () => {
    const r = await runCli(['count', xfUrl, '--ruleset', ruleset, '--players', players, '--format', 'json']);
    expect(r.code).toBe(0);
    const tally = Tally.parse(JSON.parse(r.stdout));
    expect(tally.engine).toBe('xenforo2');
    expect(tally.wagons[0]).toMatchObject({ target: 'Bob', votes: 2, total: 2 });
  });

  it('reads a phpBB thread from any of its pages', async () => {
    const r = await runCli([
      'count',
      `${phpbbUrl}&start=8`,
      '--ruleset',
      ruleset,
      '--players',
      players,
      '--format',
      'json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).postsRead).toBe(22);
  });

  it('prints a readable text count by default', async () => {
    const r = await runCli(['count', xfUrl, '--ruleset', ruleset, '--players', players]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('7 alive, so it takes 4 to reach majority.');
    expect(r.stdout).toContain('Bob - 2 - L-2: Carol (#17), Bob (#22)');
    expect(r.stdout).toContain('Not voting (1): Dave');
    expect(r.stdout).toContain('#14 Frank: ambiguous-target "Vote: Dav" (could be Dave or Davina)');
  });

  it('drafts a BBCode votal with links to the vote posts', async () => {
    const r = await runCli(['count', xfUrl, '--ruleset', ruleset, '--players', players, '--format', 'bbcode']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\[b\]Vote count — Day 1\[\/b\]/);
    expect(r.stdout).toMatch(
      /\[b\]Bob\[\/b\] \(2\) — L-2: \[url=http:\/\/127\.0\.0\.1:\d+\/threads\/standard-game\.4242\/post-9017\]Carol\[\/url\]/,
    );
  });

  it('--format bbcode is text for the players: no "votes left for the GM to check"', async () => {
    const r = await runCli(['count', xfUrl, '--ruleset', ruleset, '--players', players, '--format', 'bbcode']);
    expect(r.code).toBe(0);
    // The standard game has an unreadable vote (#14 Frank): the JSON count keeps it for the GM.
    const json = JSON.parse(
      (await runCli(['count', xfUrl, '--ruleset', ruleset, '--players', players, '--format', 'json'])).stdout,
    ) as Tally;
    expect(json.flags.length).toBeGreaterThan(0);
    expect(r.stdout).not.toContain('left for the GM to check');
  });

  it('counts as at a post with --to-post', async () => {
    const r = await runCli([
      'count',
      xfUrl,
      '--ruleset',
      ruleset,
      '--players',
      players,
      '--format',
      'json',
      '--to-post',
      '8',
    ]);
    const tally = JSON.parse(r.stdout) as Tally;
    expect(tally.asOfPost).toBe(8);
    expect(tally.wagons.map((w) => [w.target, w.votes])).toEqual([
      ['Alice', 3],
      ['Bob', 2],
      ['Sleep', 1],
    ]);
  });

  it('leaves out posts before the Day with --from-post', async () => {
    const r = await runCli([
      'count',
      xfUrl,
      '--ruleset',
      ruleset,
      '--players',
      players,
      '--format',
      'json',
      '--from-post',
      '18',
      '--day',
      '2',
    ]);
    const tally = JSON.parse(r.stdout) as Tally;
    expect(tally.day).toBe(2);
    expect(tally.wagons.map((w) => w.target).sort()).toEqual(['Bob', 'Davina', 'Eve', 'Frank']);
  });

  it("applies GM events from --events (a kill removes the dead player's vote)", async () => {
    const events = join(root, 'test/cli/fixtures/kill-bob.yaml');
    const r = await runCli([
      'count',
      xfUrl,
      '--ruleset',
      ruleset,
      '--players',
      players,
      '--format',
      'json',
      '--events',
      events,
    ]);
    expect(r.code).toBe(0);
    const tally = JSON.parse(r.stdout) as Tally;
    expect(tally.living).toBe(6);
    expect(tally.players).not.toContain('Bob');
  });

  it('explains every wagon with the posts behind it (--explain)', async () => {
    const r = await runCli([
      'count',
      xfUrl,
      '--ruleset',
      ruleset,
      '--players',
      players,
      '--format',
      'json',
      '--explain',
    ]);
    const bob = (JSON.parse(r.stdout) as Tally).wagons.find((w) => w.target === 'Bob')!;
    expect(bob.explain?.map((e) => e.post)).toEqual(expect.arrayContaining([17, 22]));
  });

  it('--explain shows the posts behind every wagon in text and BBCode too, and nothing without it', async () => {
    const json = JSON.parse(
      (await runCli(['count', xfUrl, '--ruleset', ruleset, '--players', players, '--format', 'json', '--explain']))
        .stdout,
    ) as Tally;
    const why = json.wagons.find((w) => w.target === 'Bob')!.explain![0]!;
    for (const format of ['text', 'bbcode']) {
      const explained = (
        await runCli(['count', xfUrl, '--ruleset', ruleset, '--players', players, '--format', format, '--explain'])
      ).stdout;
      const plain = (await runCli(['count', xfUrl, '--ruleset', ruleset, '--players', players, '--format', format]))
        .stdout;
      expect(explained, format).toContain(`#${why.post}: ${why.text}`);
      expect(plain, format).not.toContain(`#${why.post}: ${why.text}`);
    }
  });

  it('counts as at a time with --at-time', async () => {
    // Post 8 was made at 21:00 on the first day; post 9 the next morning.
    const r = await runCli([
      'count',
      xfUrl,
      '--ruleset',
      ruleset,
      '--players',
      players,
      '--format',
      'json',
      '--at-time',
      '2026-03-02T23:00:00Z',
    ]);
    expect((JSON.parse(r.stdout) as Tally).asOfPost).toBe(8);
  });

  it('ends the Day at --deadline under a ruleset that decides at the deadline', async () => {
    const r = await runCli([
      'count',
      xfUrl,
      '--ruleset',
      'plurality',
      '--players',
      players,
      '--format',
      'json',
      '--deadline',
      '2026-03-03T12:30:00Z',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Tally).outcome.status).not.toBe('open');
  });

  // Issue 23 item 2: the GM sees that clock rules cannot apply to a vote whose time was not read.
  describe('posts whose time could not be read', () => {
    const untimed = (extra: string[], format: string[] = ['--format', 'json']) =>
      runCli([
        'count',
        forum.url('/threads/untimed.5/'),
        '--ruleset',
        'plurality',
        '--players',
        players,
        ...format,
        ...extra,
      ]);

    it('with a deadline, the count names each untimed post that votes (JSON)', async () => {
      const r = await untimed(['--deadline', '2099-01-01T00:00:00Z']);
      expect(r.code, r.stderr).toBe(0);
      const tally = Tally.parse(JSON.parse(r.stdout));
      // #21 writes "Vote: ..." only inside a code block: not a vote, so not reported.
      expect(tally.untimed?.map((u) => u.post)).toEqual([17, 18, 19, 20, 22]);
      expect(tally.untimed?.[0]).toMatchObject({ post: 17, player: 'Carol' });
    });

    it('with a deadline, the text count says clock rules cannot apply, post by post', async () => {
      const r = await untimed(['--deadline', '2099-01-01T00:00:00Z'], []);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(
        '#17 Carol: clock rules (deadline, Hammer check, votes after the end) cannot apply to post #17: its time could not be read',
      );
    });

    it('without a clock rule, nothing is reported', async () => {
      const r = await untimed([]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).untimed).toBeUndefined();
    });
  });

  it('refuses a --deadline that is not a time', async () => {
    const r = await runCli(['count', xfUrl, '--ruleset', ruleset, '--players', players, '--deadline', 'friday']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--deadline is not an ISO 8601 time: friday');
  });

  it('proposes the posters as players when none are named, and says so', async () => {
    const r = await runCli(['count', xfUrl, '--ruleset', ruleset, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('no --players given');
    expect(JSON.parse(r.stdout).players).toContain('Lurker');
  });
});

describe('votal count refuses bad input with a clear error and exit code', () => {
  const cases: { name: string; args: () => string[]; code: number; message: RegExp }[] = [
    {
      name: 'unknown engine',
      args: () => ['count', xfUrl, '--ruleset', ruleset, '--engine', 'geocities'],
      code: 2,
      message: /unknown engine "geocities" \(known: proboards, gog/,
    },
    {
      name: 'unknown ruleset name',
      args: () => ['count', xfUrl, '--ruleset', 'no-such-rules'],
      code: 2,
      message: /no-such-rules/,
    },
    {
      name: 'ruleset with an error names file:line:column',
      args: () => ['count', xfUrl, '--ruleset', join(root, 'test/cli/fixtures/bad-ruleset.yaml')],
      code: 2,
      message: /bad-ruleset\.yaml:\d+:\d+/,
    },
    {
      name: 'unreadable players file',
      args: () => ['count', xfUrl, '--ruleset', ruleset, '--players-file', '/nonexistent/players.txt'],
      code: 2,
      message: /cannot read players file \/nonexistent\/players\.txt/,
    },
    {
      name: 'not a URL',
      args: () => ['count', 'not a url', '--ruleset', ruleset],
      code: 2,
      message: /not a URL: not a url/,
    },
    { name: 'missing --ruleset', args: () => ['count', xfUrl], code: 2, message: /--ruleset/ },
    {
      name: 'unreachable thread',
      args: () => ['count', 'http://127.0.0.1:9/threads/x.1/', '--ruleset', ruleset, '--players', players],
      code: 3,
      message: /127\.0\.0\.1:9/,
    },
    {
      name: 'thread not found',
      args: () => [`count`, forum.url('/threads/teapot.2/'), '--ruleset', ruleset, '--players', players],
      code: 3,
      message: /teapot\.2/,
    },
    {
      name: 'a page that parses to nothing',
      args: () => ['count', forum.url('/threads/empty.1/'), '--ruleset', ruleset, '--players', players],
      code: 3,
      message: /no post containers .*empty\.1/,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await runCli(c.args());
      expect(r.code).toBe(c.code);
      expect(r.stderr).toMatch(c.message);
      expect(r.stdout).toBe('');
    });
  }

  it('refuses loopback thread URLs unless VOTAL_ALLOW_PRIVATE_HOSTS=1: a local setting, exit 2', async () => {
    delete process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
    try {
      const r = await runCli(['count', xfUrl, '--ruleset', ruleset, '--players', players]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        'this is a local setting, not the forum: for a forum on this machine or your own network, run with VOTAL_ALLOW_PRIVATE_HOSTS=1',
      );
      expect(r.stderr).toContain(xfUrl);
    } finally {
      process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
    }
  });

  it('a wrong --engine says to drop it, with no stray "?" in the URL', async () => {
    const r = await runCli(['count', xfUrl, '--ruleset', ruleset, '--players', players, '--engine', 'phpbb']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'hint: --engine phpbb was given and the page does not read as phpbb (the URL does not look like a phpbb thread address); run without --engine to let Votal recognise the forum',
    );
    expect(r.stderr).toContain(`(${xfUrl})`);
    expect(r.stderr).not.toContain(`${xfUrl}?`);
  });

  it('a page that does not read without --engine gets no --engine hint', async () => {
    const r = await runCli(['count', forum.url('/threads/empty.1/'), '--ruleset', ruleset, '--players', players]);
    expect(r.code).toBe(3);
    // No "--engine was given" hint (the generic reader's offer may name `--engine generic`).
    expect(r.stderr).not.toMatch(/hint: --engine|run without --engine/);
  });
});
