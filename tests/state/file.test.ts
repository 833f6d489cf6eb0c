import { mkdtemp, readFile, rm, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeStateStore } from '../conformance/state-store.js';
import { FileStateStore } from '../../src/state/stores/file.js';

describeStateStore('FileStateStore', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'converge-file-'));
  const path = join(dir, 'nested', 'state.json');
  const read = (p: string) => readFile(p, 'utf8').catch(() => '');
  return {
    open: (o) => new FileStateStore(path, o),
    encryptsSecrets: true,
    rawText: async () => (await read(path)) + (await read(`${path}.journal`)),
    appendTornRecord: async () => {
      await appendFile(`${path}.journal`, '212 0badc0de {"baseSerial":2,"serial":3,"patches":[{"op":"add","path":["resources","to');
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
