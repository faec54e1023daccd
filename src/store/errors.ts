/** Another process (or another open in this one) holds the embedded database folder. */
export class StoreLockedError extends Error {
  constructor(
    readonly folder: string,
    readonly lockPath: string,
    staleMs: number,
    options?: { cause?: unknown },
  ) {
    super(
      `The Votal data folder ${folder} is already open in another process (lock ${lockPath}). ` +
        'An embedded database can be opened by one process only: stop the other `votal serve`, ' +
        'or set DATABASE_URL so that several processes share PostgreSQL. If no other process is running, ' +
        `the lock is left over from a crash and is taken over ${Math.ceil(staleMs / 1000)} s after it was last refreshed.`,
      options,
    );
    this.name = 'StoreLockedError';
  }
}

/** The folder lock was lost while the database was open (another process may have taken it). */
export class StoreLockCompromisedError extends Error {
  constructor(
    readonly folder: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Lost the lock on the Votal data folder ${folder}; the database was closed to protect it. Restart the process.`,
      options,
    );
    this.name = 'StoreLockCompromisedError';
  }
}

/** A row the caller named does not exist. */
export class NotFoundError extends Error {
  constructor(
    readonly what: string,
    readonly id: number | string,
  ) {
    super(`${what} ${id} not found`);
    this.name = 'NotFoundError';
  }
}

/** A state change that the row's current state does not allow (e.g. approving a discarded draft). */
export class StateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateError';
  }
}

/** A draft made from an older count than the game's latest, approved without confirming. */
export class StaleDraftError extends StateError {
  constructor(
    readonly draftId: number,
    readonly draftTallyId: number,
    readonly currentTallyId: number,
  ) {
    super(
      `draft ${draftId} was made from an older count (tally ${draftTallyId}; the current one is ${currentTallyId})`,
    );
    this.name = 'StaleDraftError';
  }
}

/** Another game that is not finished already follows this thread (409 on the API). */
export class ThreadTakenError extends StateError {
  constructor(readonly existing: { id: number; slug: string }) {
    super(
      `game ${existing.id} (${existing.slug}) already follows this thread; finish it first, or change that game instead`,
    );
    this.name = 'ThreadTakenError';
  }
}

/** A game's stored poll state (`game_poll.state`) does not fit `PollFacts` (src/model/poll-state.ts). */
export class PollStateError extends Error {
  constructor(
    readonly gameId: number,
    readonly problems: string,
  ) {
    super(`game ${gameId} has a bad poll state: ${problems}`);
    this.name = 'PollStateError';
  }
}
