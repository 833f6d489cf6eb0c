// Closes the FileHandle it opens: the guard lets this file pass.
import { open } from 'node:fs/promises';
import { expect, it } from 'vitest';

it('opens a FileHandle and closes it', async () => {
  const handle = await open(new URL(import.meta.url), 'r');
  expect(handle.fd).toBeGreaterThan(2);
  await handle.close();
});
