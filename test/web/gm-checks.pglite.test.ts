import { openStore } from '../../src/store/open-store.js';
import { gmChecksContract } from './gm-checks.js';

gmChecksContract('PGlite', () => openStore({ dataDir: 'memory://' }), 7_900);
