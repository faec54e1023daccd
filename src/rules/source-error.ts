/** One problem in a source file, at the place a person has to look. */
export interface SourceProblem {
  file: string;
  line: number;
  column: number;
  message: string;
  /** Set on the entry that stands for this many problems not listed one by one. */
  omitted?: number;
}

function formatProblem(p: SourceProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message}`;
}

/**
 * A YAML source file that cannot be used. The message lists every problem, one per line,
 * as `file:line:column: message` so editors and terminals can jump to it.
 */
export class YamlSourceError extends Error {
  readonly problems: readonly SourceProblem[];

  constructor(what: string, problems: readonly SourceProblem[]) {
    const first = problems[0];
    const total = problems.reduce((n, p) => n + (p.omitted ?? 1), 0);
    const count = `${total.toLocaleString('en-US')} problem${total === 1 ? '' : 's'}`;
    const head = `${what} ${first ? first.file : ''} is not valid (${count}):`;
    super([head, ...problems.map(formatProblem)].join('\n'));
    this.name = new.target.name;
    this.problems = problems;
  }
}

/** A ruleset that cannot be loaded: bad YAML, a schema violation, or an unknown name. */
export class RulesetError extends YamlSourceError {
  constructor(problems: readonly SourceProblem[], message?: string) {
    super('ruleset', problems);
    if (message !== undefined) this.message = message;
  }
}

/** A GM events file that cannot be used. */
export class EventsError extends YamlSourceError {
  constructor(problems: readonly SourceProblem[]) {
    super('events file', problems);
  }
}
