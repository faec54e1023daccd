import { openStore } from '../../src/store/open-store.js';
import { pollerContract } from './contract.js';

// Embedded mode: pg-boss runs through the store's PGlite, in this one process.
pollerContract(
  'PGlite (pg-boss through the store)',
  async () => {
    const store = await openStore({ dataDir: 'memory://' });
    return { store, schema: 'pgboss', close: () => store.close() };
  },
  8_100,
);
