import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { packageRoot } from '../config/package-root.js';
import { CliError, EXIT } from './exit-codes.js';
import type { ProgressLine } from './progress.js';

// Each command's code is imported when that command runs (`await import(...)` in its
// action), so `votal --help` or `votal parse` does not load the server, the database
// drivers or Chromium's driver.

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  stdin: () => Promise<string>;
  /** stderr is a terminal: progress is one line redrawn in place. */
  stderrIsTTY?: boolean;
}

/** Progress on stderr unless `--quiet`; cleared before the result or an error is printed. */
async function withProgress<T>(
  io: Io,
  quiet: boolean | undefined,
  run: (progress: ProgressLine | undefined) => Promise<T>,
): Promise<T> {
  const { ProgressLine } = await import('./progress.js');
  const progress = quiet ? undefined : new ProgressLine({ write: io.stderr, live: io.stderrIsTTY === true });
  try {
    return await run(progress);
  } finally {
    progress?.clear();
  }
}

/** A command's result: its notes on stderr, its output on stdout. */
function printResult(io: Io, r: { notes: readonly string[]; output: string }): void {
  for (const n of r.notes) io.stderr(`votal: note: ${n}\n`);
  io.stdout(r.output);
}

const positiveInt =
  (name: string) =>
  (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} takes a whole number`);
    return n;
  };

/** Repeatable option: each use adds one value. */
const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** Votal's version, as package.json gives it. */
function votalVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(import.meta.url), 'package.json'), 'utf8')) as { version: string })
    .version;
}

/** `votal count`: a thread's count, read and printed (no database). */
function countCommand(program: Command, io: Io): void {
  program
    .command('count')
    .description('fetch a game thread, read every vote and print the count (no database)')
    .argument('<thread-url>', 'any page of the game thread')
    .requiredOption('--ruleset <name|file>', 'ruleset name (see rulesets/) or a YAML file')
    .option('--players <list>', 'players, comma-separated; "Name (alias, alias)" adds aliases')
    .option('--players-file <file>', 'players, one a line')
    .option(
      '--hosts <list>',
      "the GM and co-hosts' forum names, comma-separated (default: the opening poster); their posts are not votes",
    )
    .option('--allow-unknown', 'count even when a GM event names no player (it is then only noted)')
    .option('--engine <engine>', 'forum engine, when the URL does not tell')
    .option('--day <n>', 'the Day being counted', positiveInt('--day'))
    .option('--from-post <n>', 'first post of the Day (earlier posts are not counted)', positiveInt('--from-post'))
    .option('--to-post <n>', 'count as at this post', positiveInt('--to-post'))
    .option('--events <file>', 'GM events (YAML list: kills, replacements, corrections...)')
    .option('--at-time <iso>', 'count as at this time (ISO 8601)')
    .option(
      '--deadline <iso>',
      "the deadline of the Day counted (ISO 8601); the ruleset's scheduled checks run without it",
    )
    .addOption(
      new Option('--view <view>', 'gm shows hidden vote weights; public hides them')
        .choices(['gm', 'public'])
        .default('gm'),
    )
    .option('--explain', 'give every number the posts and events behind it (in every format)')
    .addOption(new Option('--format <format>', 'output').choices(['text', 'json', 'bbcode']).default('text'))
    .option(
      '--site-profile <file>',
      'site profile YAML, or a folder of them (engine, time zone, pause, cookies, login); repeatable',
      collect,
      [],
    )
    .option(
      '--cookies <file>',
      "logged-in session for the thread's site: Netscape cookies.txt or Playwright storage state JSON",
    )
    .option('--cache-dir <dir>', 'keep what was read here; a re-count fetches only from the last page seen')
    .option(
      '--browser',
      'read pages that draw their posts with JavaScript in Chromium (CHROMIUM_PATH or /usr/bin/chromium)',
    )
    .option('--quiet', 'no progress on stderr (pages read, pauses, time left)')
    .action(async (url: string, opts) => {
      const { runCount } = await import('./count-command.js');
      const r = await withProgress(io, opts.quiet, (progress) => runCount(url, { ...opts, progress }));
      printResult(io, r);
    });
}

/** `votal read`: what Votal reads from one thread page. */
function readCommand(program: Command, io: Io): void {
  program
    .command('read')
    .description(
      'show what Votal reads from one thread page: engine and how it was recognised, title, pages, every post, warnings',
    )
    .argument('<url>', 'a page of the thread')
    .option('--page <n>', 'read page N of the thread instead of the page the URL names', positiveInt('--page'))
    .option('--engine <engine>', 'forum engine, when the URL and page do not tell')
    .option(
      '--generic',
      'read with the generic reader (a forum no adapter reads) and show the site profile it would store',
    )
    .option(
      '--write-profile <file>',
      'with --generic: write the site profile it found to FILE (sites/<host>.yaml), never over an existing file',
    )
    .addOption(new Option('--format <format>', 'output').choices(['text', 'json']).default('text'))
    .option('--site-profile <file>', 'site profile YAML, or a folder of them; repeatable', collect, [])
    .option(
      '--cookies <file>',
      "logged-in session for the thread's site: Netscape cookies.txt or Playwright storage state JSON",
    )
    .option('--browser', 'read a page that draws its posts with JavaScript in Chromium')
    .option('--quiet', 'no progress on stderr')
    .action(async (url: string, opts) => {
      const { runRead } = await import('./read-command.js');
      const r = await withProgress(io, opts.quiet, (progress) => runRead(url, { ...opts, progress }));
      printResult(io, r);
    });
}

/** `votal parse`: one post's actions and violations, its HTML from stdin. */
function parseCommand(program: Command, io: Io): void {
  program
    .command('parse')
    .description("read one post's body HTML from stdin and print its actions and violations")
    .requiredOption('--engine <engine>', 'the engine that rendered the HTML')
    .option('--players <list>', 'players, comma-separated')
    .option('--players-file <file>', 'players, one a line')
    .option('--ruleset <name|file>', 'ruleset (vote grammar, No Lynch name)', 'plurality')
    .option('--url <url>', "the forum's address (links to it are internal)", 'https://forum.invalid/')
    .option('--dead <list>', 'players who are dead, comma-separated (a vote for one goes to review)')
    .option('--replaced <list>', 'replacements, comma-separated Old>New (the old name still names the slot)')
    .option(
      '--edited <note>',
      'the forum\'s edit note for the post, e.g. "Last edited by Bob; Today at 10:02" (an edit violation)',
    )
    .option(
      '--correct <target|none>',
      "a GM correction of this post's vote: a player (or the No Lynch name) to count it for, " +
        'or "none" to ignore it; the deciding action is printed as the GM\'s (source "gm") and the effect follows it, ' +
        'as a { kind: correct, post, target } event does in votal count --events',
    )
    .addOption(new Option('--format <format>', 'output').choices(['json', 'text']).default('json'))
    .action(async (opts) => {
      const { runParse } = await import('./parse-command.js');
      const html = await io.stdin();
      io.stdout(runParse(html, opts).output);
    });
}

/** `votal capture`: one thread page saved as served, for a layout Votal cannot read. */
function captureCommand(program: Command, io: Io): void {
  program
    .command('capture')
    .description(
      'save one thread page exactly as served, with its headers, into fixtures/<engine>/captured/ (for a layout Votal cannot read)',
    )
    .argument('<url>', 'the thread page to save')
    .option('--engine <engine>', 'forum engine, when the page does not tell')
    .option(
      '--cookies <file>',
      "logged-in session for the thread's site: Netscape cookies.txt or Playwright storage state JSON",
    )
    .option('--site-profile <file>', 'site profile YAML, or a folder of them; repeatable', collect, [])
    .option('--out-dir <dir>', 'save here instead of fixtures/<engine>/captured/')
    .option('--quiet', 'no progress on stderr')
    .action(async (url: string, opts) => {
      const { runCapture } = await import('./capture-command.js');
      const r = await withProgress(io, opts.quiet, (progress) => runCapture(url, { ...opts, progress }));
      printResult(io, r);
    });
}

/** `votal ruleset list` and `votal ruleset check`. */
function rulesetCommands(program: Command, io: Io): void {
  const ruleset = program.command('ruleset').description('work with ruleset files');
  ruleset
    .command('list')
    .description('the rulesets shipped with Votal, each with one line on what it is')
    .action(async () => {
      const { runRulesetList } = await import('./ruleset-command.js');
      io.stdout(runRulesetList());
    });
  ruleset
    .command('check')
    .description('validate a ruleset file; errors are printed as file:line:column')
    .argument('<file>', 'ruleset YAML file or name')
    .action(async (file: string) => {
      const { runRulesetCheck } = await import('./ruleset-command.js');
      io.stdout(runRulesetCheck(file));
    });
}

/** `votal serve`: the whole service, until a signal stops it. */
function serveCommand(program: Command, io: Io): void {
  program
    .command('serve')
    .description(
      'run Votal: GM dashboard and API, live pages, poller (PGlite in ./.votal/, or PostgreSQL with DATABASE_URL)',
    )
    .option('--port <n>', 'port (default: PORT or 8080)', positiveInt('--port'))
    .option('--host <host>', 'address to listen on (default: HOST or 127.0.0.1)')
    .option(
      '--site-profile <file>',
      'site profile YAML, or a folder of them, over ./sites/ (engine, time zone, pause, cookies, login); repeatable',
      collect,
      [],
    )
    .action(async (opts: { port?: number; host?: string; siteProfile: string[] }) => {
      const { startServe } = await import('./serve-command.js');
      await startServe({
        stdout: io.stdout,
        stderr: io.stderr,
        siteProfiles: opts.siteProfile,
        ...(opts.port !== undefined ? { port: opts.port } : {}),
        ...(opts.host !== undefined ? { host: opts.host } : {}),
      });
      // Runs until SIGINT/SIGTERM: closeOnSignals stops everything, closes the store and exits.
      await new Promise<never>(() => {});
    });
}

/** `votal worker`: the poller alone, beside `votal serve`. */
function workerCommand(program: Command, io: Io): void {
  program
    .command('worker')
    .description('poll threads only, beside `votal serve`, sharing its PostgreSQL (DATABASE_URL required)')
    .option('--site-profile <file>', 'site profile YAML, or a folder of them, over ./sites/; repeatable', collect, [])
    .action(async (opts: { siteProfile: string[] }) => {
      const { startWorker } = await import('./serve-command.js');
      await startWorker({ stdout: io.stdout, stderr: io.stderr, siteProfiles: opts.siteProfile });
      await new Promise<never>(() => {});
    });
}

/** `votal demo`: a sample game on a stand-in forum. */
function demoCommand(program: Command, io: Io): void {
  program
    .command('demo')
    .description('run Votal on a sample game served by a local stand-in forum (no forum of your own needed)')
    .option('--port <n>', 'Votal on 127.0.0.1', positiveInt('--port'), 0)
    .option('--forum-port <n>', 'the stand-in forum on 127.0.0.1', positiveInt('--forum-port'), 0)
    .option('--once', 'start, print the addresses and stop (a smoke test)')
    .action(async (opts: { port: number; forumPort: number; once?: boolean }) => {
      io.stdout('Starting the stand-in forum and Votal (the embedded database takes a few seconds)...\n');
      const { startDemoService, demoAddresses, DemoPortError } = await import('../web/ui/demo.js');
      const demo = await startDemoService({ port: opts.port, forumPort: opts.forumPort }).catch((e: unknown) => {
        throw e instanceof DemoPortError ? new CliError(e.message, EXIT.input) : e;
      });
      io.stdout(demoAddresses(demo));
      if (opts.once) {
        await demo.close();
        return;
      }
      io.stdout('Ctrl-C stops both.\n');
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          void demo.close().then(resolve);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}

/** The commands, in the order `votal --help` lists them. */
const COMMANDS = [
  countCommand,
  readCommand,
  parseCommand,
  captureCommand,
  rulesetCommands,
  serveCommand,
  workerCommand,
  demoCommand,
];

/** The `votal` command line. Returns the exit code; never calls process.exit itself. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const program = new Command('votal')
    .description('Vote counts for forum Mafia/Werewolf games.')
    .version(votalVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  for (const add of COMMANDS) add(program, io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (e) {
    return errorCode(e, io);
  }
  return EXIT.ok;
}

function errorCode(e: unknown, io: Io): number {
  const err = e as { code?: string; exitCode?: number; message?: string };
  if (typeof err.code === 'string' && err.code.startsWith('commander.')) {
    // commander already printed its message; help and version are not errors.
    return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help'
      ? EXIT.ok
      : EXIT.input;
  }
  if (e instanceof CliError) {
    io.stderr(`votal: ${e.message}\n`);
    return e.exitCode;
  }
  io.stderr(`votal: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
  return EXIT.internal;
}

export const processIo: Io = {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
  stderrIsTTY: process.stderr.isTTY === true,
  stdin: async () => {
    if (process.stdin.isTTY) return '';
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};
