import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as errors from '../../src/fetch/errors.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import { redactUrl } from '../../src/fetch/redact-url.js';

const URL_ = 'https://forum.example/threads/1/page-3';

describe('fetch errors', () => {
  const cases: Array<[errors.FetchError, boolean]> = [
    [new errors.PageNotFoundError(URL_, 410), false],
    [new errors.ForbiddenError(URL_), false],
    [new errors.ChallengeError(URL_, 503, 'challenge page'), false],
    [new errors.LoginRequiredError(URL_), false],
    [new errors.ThrottledError(URL_, 429, 5000), true],
    [new errors.ServerError(URL_, 502), true],
    [new errors.NetworkError(URL_, 'ECONNRESET'), true],
    [new errors.TimeoutError(URL_, 20_000), true],
    [new errors.TooLargeError(URL_, 1024, 200), false],
    [new errors.RobotsDisallowedError(URL_, 'Votal/0.1'), false],
    [new errors.PrivateHostError(URL_, '10.0.0.1 is not a public address'), false],
    [new errors.LayoutError(URL_, 'no posts found by the xenforo2 adapter'), false],
    [new errors.TruncatedPageError(URL_, 'no closing </html>'), true],
  ];

  it.each(cases)('%s names the URL, its class, and whether it is retried', (error, retryable) => {
    expect(error).toBeInstanceOf(errors.FetchError);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain(URL_);
    expect(error.url).toBe(URL_);
    expect(error.name).toBe(error.constructor.name);
    expect(error.retryable).toBe(retryable);
  });

  it('a LoginRequiredError can describe a login wall the caller found', () => {
    const error = new errors.LoginRequiredError(URL_, 'the thread shows the login form', null);
    expect(error.message).toContain('the thread shows the login form');
    expect(error.status).toBeNull();
  });

  it('passwords in URLs are never shown', () => {
    expect(redactUrl('https://gm:hunter2@forum.example/t/1?s=abc&page=2')).toBe(
      'https://forum.example/t/1?s=REDACTED&page=2',
    );
  });
});

describe('PageFetcher options', () => {
  it('are validated at construction', () => {
    expect(() => new PageFetcher({ timeoutMs: -1 })).toThrow(z.ZodError);
    expect(() => new PageFetcher({ timout: 5 } as never)).toThrow(z.ZodError);
  });
});
