import { describeStateStore } from '../conformance/state-store.js';
import { MemoryLocation, MemoryStateStore } from '../../src/state/stores/memory.js';

describeStateStore('MemoryStateStore', async () => {
  const where = new MemoryLocation('conformance');
  return { open: () => new MemoryStateStore(where), encryptsSecrets: false };
});
