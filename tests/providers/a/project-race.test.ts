// LXD 5.0 counts an ACL's users project by project: a project another client deletes meanwhile
// fails the request, a read as well as an update, with 404 'Failed to load project "p": Project not
// found' (seen on the real daemon about once in sixty ACL reads and updates while projects were being
// made and deleted). The ACL is there: provider A must not read it as gone (a plan would make it
// again) nor a delete as done (the record would be lost), and it sends the request again, each wait
// a retry event. A request made in the missing project itself is what the words say: not found.
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/engine/errors.js';
import type { LxdClient } from '../../../src/providers/a/client.js';
import { vanishedProject } from '../../../src/providers/a/errors.js';
import { getObject } from '../../../src/providers/a/support/objects.js';
import { isNotFound } from '../../../src/kit/gone.js';
import { closeStub, lxdStub, retryContext } from './lxd-stub.js';

const RACE = 'Failed getting ACL usage: Failed to load project "cvt-race-p9": Project not found';
let calls: string[] = [];
afterEach(async () => {
  await closeStub();
  calls = [];
});

/** A stub LXD whose first `raceTimes` requests answer the race's 404, later ones the ACL. */
function stub(raceTimes: number): Promise<LxdClient> {
  return lxdStub((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    res.setHeader('content-type', 'application/json');
    if (calls.length <= raceTimes) {
      res.statusCode = 404;
      res.end(JSON.stringify({ type: 'error', error: RACE, error_code: 404 }));
      return;
    }
    res.setHeader('etag', '"e1"');
    res.end(JSON.stringify({ type: 'sync', status_code: 200, metadata: { name: 'web', config: {} } }));
  });
}

const context = () => retryContext('acl', 'read', 3);

const acl = (project?: string) => ({
  template: '/1.0/network-acls/{name}',
  params: { name: 'web' },
  what: 'network ACL',
  project,
});

describe('a project deleted while LXD counts an object’s users', () => {
  it.each([
    [RACE, 'cvt-race-p9'],
    ['Failed getting ACL network usage: Failed to load project "other": Project not found', 'other'],
    ['Failed to load project "nosuchproj": Project not found', 'nosuchproj'],
    ['Failed loading project: Project not found', undefined],
    ['Network ACL not found', undefined],
    [undefined, undefined],
  ])('vanishedProject(%j) is %j', (detail, project) => {
    expect(vanishedProject(detail)).toBe(project);
  });

  it('a read is sent again until LXD answers the object, each wait a retry event', async () => {
    const client = await stub(2);
    const { ctx, reports } = context();
    await expect(getObject(ctx, client, acl())).resolves.toEqual({ obj: { name: 'web', config: {} }, etag: '"e1"' });
    expect(calls).toEqual(Array(3).fill('GET /1.0/network-acls/web'));
    const retries = reports.filter((r) => r.kind === 'retry');
    expect(retries).toHaveLength(2);
    expect(String((retries[0] as { error: string }).error)).toContain('Failed to load project "cvt-race-p9"');
  });

  it('when the race outlasts the retries, the error says a transient, not a missing object', async () => {
    const client = await stub(99);
    const { ctx } = context();
    const err = await getObject(ctx, client, acl()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ status: 404, notFound: false, retryable: true, vendorCode: 'project_vanished' });
    expect(isNotFound(err)).toBe(false); // the engine's delete step does not take it for done
    expect(calls).toHaveLength(4); // the first attempt and 3 retries
  });

  it('a request made in the missing project itself is a missing object, not retried', async () => {
    const client = await stub(99);
    const { ctx, reports } = context();
    await expect(getObject(ctx, client, acl('cvt-race-p9'))).resolves.toBeNull();
    expect(calls).toEqual(['GET /1.0/network-acls/web?project=cvt-race-p9']);
    expect(reports.filter((r) => r.kind === 'retry')).toHaveLength(0);
  });
});
