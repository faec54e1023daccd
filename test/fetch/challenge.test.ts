import { describe, expect, it } from 'vitest';
import { detectChallenge } from '../../src/fetch/challenge.js';

const headers = (init: Record<string, string> = {}) => new Headers(init);

describe('detectChallenge', () => {
  it('cf-mitigated: challenge is a challenge at any status', () => {
    expect(detectChallenge(403, headers({ 'cf-mitigated': 'challenge' }), '')).toBe('cf-mitigated header');
  });

  it('the "Just a moment..." title is a challenge on 200, 403 and 503', () => {
    for (const status of [200, 403, 503]) {
      expect(detectChallenge(status, headers(), '<title>Just a moment...</title>')).not.toBeNull();
    }
  });

  it('cf-chl / challenge-platform markers count on 403 and 503', () => {
    expect(detectChallenge(403, headers(), '<div class="cf-chl-widget"></div>')).toBe('challenge markers');
    expect(detectChallenge(503, headers(), 'see challenge-platform')).toBe('challenge markers');
  });

  it('the same words inside a 200 thread are not a challenge', () => {
    expect(detectChallenge(200, headers(), '<p>I keep getting cf-chl and challenge-platform errors</p>')).toBeNull();
  });

  it('a 200 page loading the challenge script is a challenge', () => {
    const body = '<script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script>';
    expect(detectChallenge(200, headers(), body)).toBe('challenge page');
  });

  it('a plain 403 or 500 is not a challenge', () => {
    expect(detectChallenge(403, headers(), 'Forbidden')).toBeNull();
    expect(detectChallenge(500, headers(), '<title>Just a moment...</title>')).toBeNull();
  });
});
