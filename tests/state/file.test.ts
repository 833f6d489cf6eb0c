import { mkdir, mkdtemp, readFile, rm, appendFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describeStateStore } from '../conformance/state-store.js';
import { FileStateStore } from '../../src/state/stores/file.js';

describeStateStore('FileStateStore', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'converge-file-'));
  const path = join(dir, 'nested', 'state.json');
  const read = (p: string) => readFile(p, 'utf8').catch(() => '');
  return {
    open: (o) => new FileStateStore(path, o),
    encryptsSecrets: true,
    rawText: async () => (await read(path)) + (await read(`${path}.journal`)) + (await read(`${path}.outputs`)),
    appendTornRecord: async () => {
      const tail = '212 0badc0de {"baseSerial":2,"serial":3,"patches":[{"op":"add","path":["resources","to';
      await appendFile(`${path}.journal`, tail);
      return { bytes: Buffer.byteLength(tail), serial: 3 };
    },
    leaveDeadLock: async (holder) => {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(`${path}.lock`, JSON.stringify(holder));
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
