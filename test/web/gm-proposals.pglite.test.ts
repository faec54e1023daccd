import { openStore } from '../../src/store/open-store.js';
import { gmProposalsContract } from './gm-proposals.js';

gmProposalsContract('PGlite', () => openStore({ dataDir: 'memory://' }), 7_980);
