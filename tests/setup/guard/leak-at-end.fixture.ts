// Leaks a FileHandle in the file's last test: the guard must fail this file (DEP0137).
import { open } from 'node:fs/promises';
import { expect, it } from 'vitest';

it('opens a FileHandle and drops it', async () => {
  const handle = await open(new URL(import.meta.url), 'r');
  expect(handle.fd).toBeGreaterThan(2);
});
