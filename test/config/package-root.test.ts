import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/config/package-root.js';

describe('packageRoot', () => {
  it('finds the folder holding package.json from src/', () => {
    expect(existsSync(join(packageRoot(), 'package.json'))).toBe(true);
    expect(existsSync(join(packageRoot(), 'rulesets'))).toBe(true);
  });

  it('finds the same folder from dist/src/ after tsc', () => {
    const built = pathToFileURL(join(packageRoot(), 'dist', 'src', 'rules', 'package-root.js')).href;
    expect(packageRoot(built)).toBe(packageRoot());
  });
});
