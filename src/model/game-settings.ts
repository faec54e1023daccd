import { z } from 'zod';

/**
 * Everything a game's settings (`game.settings`, jsonb) may hold, in one schema: the store
 * parses it where a game is read, so every stage reads typed settings. Keys not named here
 * are kept as they are (looseObject): a newer Votal's key survives an older one's write.
 */

const Instant = z.iso.datetime({ offset: true });

/** The zones the runtime lists (canonical IANA names), read once. */
const LISTED_ZONES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('timeZone'));

/**
 * Whether `zone` is an IANA time zone this runtime knows: one it lists, or an alias its own
 * `Intl.DateTimeFormat` accepts (`Asia/Calcutta`, `US/Eastern`, `UTC`). Never a word that
 * only looks up something else (`constructor`, `__proto__`): the runtime refuses those.
 */
export function isKnownTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone === '' || zone.length > 64) return false;
  if (LISTED_ZONES.has(zone)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * A game's time zone, where it enters (API, dashboard: the commands' input) and where the
 * stored row is checked (`settingsProblems`): one schema, so what is accepted can be rendered.
 */
export const TimeZone = z.string().refine(isKnownTimeZone, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not a time zone this server knows (an IANA name such as Europe/Berlin or America/New_York)`,
});

/** A secret sealed with VOTAL_SECRET_KEY (src/config/secrets.ts `SecretBox`): `v1.<iv>.<tag>.<data>`. */
export const Sealed = z
  .string()
  .regex(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/, { message: 'not a sealed secret' });

/**
 * The current Day's clock, as the GM set it: the fold gets this Day's scheduled checks
 * (Hammer time) and its deadline from it, the poller polls faster near the deadline and
 * the clock fires at it.
 */
export const DaySetting = z.object({
  /** The Day's number (clock events of another Day do nothing). */
  number: z.number().int().positive().default(1),
  /** When the Day started (ISO 8601). */
  start: Instant,
  /** Its deadline (ISO 8601); Filibuster extensions are derived from the count, not written here. */
  deadline: Instant,
});
export type DaySetting = z.infer<typeof DaySetting>;

/**
 * When the poll pipeline drafts a votal on its own: the vote-count rules of the Mafia sites
 * (research/anchors.md §4 item 8); each can be turned off.
 */
/** The triggers, each as the GM may set it (no defaults: what is stored is what the GM set). */
const draftTriggers = {
  /** Draft after this many votes and unvotes since the last draft; null: never for that. */
  everyNVotes: z.number().int().positive().nullable(),
  /** Draft when this many hours have passed since the last draft and something changed; null: never. */
  everyHours: z.number().positive().nullable(),
  /** Draft when a wagon comes to one vote short of the threshold. */
  onLMinus1: z.boolean(),
  /** Draft when a wagon reaches the threshold (majority). */
  onMajority: z.boolean(),
  /** Draft when the Day ends (deadline, GM decision). */
  onDeadline: z.boolean(),
  /** Words a player writes to ask for a count (case-insensitive, whole word). */
  requestKeywords: z.array(z.string().trim().min(1)),
};

/** The triggers as the poll pipeline applies them: the GM's choices over the defaults. */
export const DraftSettings = z.strictObject({
  everyNVotes: draftTriggers.everyNVotes.default(5),
  everyHours: draftTriggers.everyHours.default(12),
  onLMinus1: draftTriggers.onLMinus1.default(true),
  onMajority: draftTriggers.onMajority.default(true),
  onDeadline: draftTriggers.onDeadline.default(true),
  requestKeywords: draftTriggers.requestKeywords.default(['##votecount', '##vc']),
});
export type DraftSettings = z.infer<typeof DraftSettings>;
export type DraftSettingsInput = z.input<typeof DraftSettings>;

/** The triggers as stored in a game's settings: any of them (others kept as they are). */
export const StoredDraftSettings = z.looseObject(draftTriggers).partial();

/** How an approved draft reaches the thread, as stored (credentials sealed). */
export const StoredPublish = z.discriminatedUnion('method', [
  z.object({ method: z.literal('copy') }),
  z.object({ method: z.literal('discourse-api'), apiUsername: z.string().min(1), apiKey: Sealed }),
  z.object({ method: z.literal('xenforo-api'), apiUser: z.string().min(1).optional(), apiKey: Sealed }),
  /** `jar`: the logged-in session, a tough-cookie jar serialised to JSON, sealed. */
  z.object({ method: z.literal('form'), jar: Sealed }),
]);
export type StoredPublish = z.infer<typeof StoredPublish>;

/** How an approved draft reaches the thread, as the GM sends it (credentials in clear, over HTTPS). */
export const PublishInput = z.discriminatedUnion(
  'method',
  [
    z.strictObject({ method: z.literal('copy') }),
    z.strictObject({ method: z.literal('discourse-api'), apiUsername: z.string().min(1), apiKey: z.string().min(1) }),
    z.strictObject({
      method: z.literal('xenforo-api'),
      apiUser: z.string().min(1).optional(),
      apiKey: z.string().min(1),
    }),
    /** `cookies`: a Netscape cookies.txt or a Playwright storage state, exported from a logged-in browser. */
    z.strictObject({ method: z.literal('form'), cookies: z.string().min(1) }),
  ],
  { error: () => 'method must be one of copy, discourse-api, xenforo-api, form' },
);
export type PublishInput = z.infer<typeof PublishInput>;

/** The GM's forum name, or the names of co-hosts: whose posts are read for news. */
export const GmNames = z.union([
  z.string().trim().min(1).max(100),
  z.array(z.string().trim().min(1).max(100)).min(1).max(10),
]);
export type GmNames = z.infer<typeof GmNames>;

/** Polling near a deadline: every `intervalSeconds` in the last `minutes` before a deadline or check. */
export const NearDeadline = z.object({
  minutes: z.number().positive().default(30),
  intervalSeconds: z.number().int().positive().default(60),
});

export const GameSettings = z.looseObject({
  /** The game's name on the dashboard and the live page (the thread's title otherwise). */
  title: z.string().min(1).optional(),
  /** Whose posts are the GM's (news); else the thread's first poster. */
  gm: GmNames.optional(),
  /**
   * The forum names of the game's co-host accounts, by their Votal GM name (set where a
   * co-host is added): hosts as `gm` is, never "non-players", their vote counts not votes.
   */
  cohostForumNames: z.record(z.string(), z.string().trim().min(1).max(100)).optional(),
  /** Title, time zone and template the votal drafts are rendered with (src/votal/template.ts). */
  votalTitle: z.string().min(1).optional(),
  /**
   * Read as stored (a zone this runtime no longer knows must not make the game unreadable);
   * `settingsProblems` checks it with `TimeZone`, and the game page shows what it finds.
   */
  timeZone: z.string().min(1).optional(),
  votalTemplate: z.string().min(1).optional(),
  /** The GM's webhook (Discord-compatible), told of new drafts. */
  webhookUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** Draft triggers, as the GM set them (any of them; the rest take their defaults). */
  drafts: StoredDraftSettings.optional(),
  publish: StoredPublish.optional(),
  day: DaySetting.optional(),
  /** Read every page again at least this often (edits and deletions on earlier pages). */
  fullReadMinutes: z.number().positive().optional(),
  nearDeadline: NearDeadline.optional(),
});
export type GameSettings = z.infer<typeof GameSettings>;
export type GameSettingsInput = z.input<typeof GameSettings>;

/**
 * What in a game's stored settings cannot be used as it stands (the GM reads each on the game
 * page, and no votal is drafted with it): a time zone the runtime does not know, written by an
 * older Votal or known to an older runtime.
 */
export function settingsProblems(settings: Pick<GameSettings, 'timeZone'>): string[] {
  if (settings.timeZone === undefined) return [];
  const zone = TimeZone.safeParse(settings.timeZone);
  return zone.success ? [] : [`time zone: ${zone.error.issues[0]?.message ?? 'not a time zone'}`];
}

/** A settings change: keys to set; a key set to null is removed. */
export type SettingsChange = { [K in keyof GameSettings]?: GameSettings[K] | null };

/** The settings the poll pipeline reads: the stored ones with the poller's defaults filled in. */
export const PollSettings = GameSettings.extend({
  fullReadMinutes: z.number().positive().default(60),
  nearDeadline: NearDeadline.default({ minutes: 30, intervalSeconds: 60 }),
});
export type PollSettings = z.infer<typeof PollSettings>;

/**
 * A game's settings do not fit `GameSettings` (as stored, `gameId` set: the store's read) or
 * `PollSettings` (the poller's reading, where the message is shown to the GM). `problems`
 * names each key and what is wrong with it.
 */
export class GameSettingsError extends Error {
  constructor(
    readonly gameId: number | null,
    readonly problems: string,
  ) {
    super(gameId === null ? `bad game settings: ${problems}` : `game ${gameId} has bad settings: ${problems}`);
    this.name = 'GameSettingsError';
  }
}
