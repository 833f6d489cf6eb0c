// plan/choose.ts: the pure choice of a step's action, one row per line of the table in its opening
// comment (prior, declaration, schema facts → action, cause, reasons, changes).
import { describe, expect, it } from 'vitest';
import { chooseAction } from '../../src/engine/plan/choose.js';
import { formatPath } from '../../src/engine/values/path.js';
import type { ResourceState, StoredOptions } from '../../src/state/model.js';
import { rec } from './records.js';

const T = 't:index/x:X';
type Case = {
  readonly what: string;
  readonly prior?: ResourceState;
  readonly desired: Record<string, unknown>;
  readonly gone?: boolean;
  readonly type?: string;
  readonly replaceOn?: string[];
  readonly canUpdate?: boolean;
  readonly ignoreChanges?: string[];
  readonly options?: StoredOptions;
  readonly dependencies?: string[];
  readonly moved?: boolean;
  readonly replaceRequested?: boolean;
  readonly keyedLists?: Record<string, string>;
  readonly expect: {
    readonly action: string;
    readonly cause: string;
    readonly reasons?: string[];
    /** Paths of the input changes. */
    readonly changes?: string[];
    /** Paths of the option and dependency changes. */
    readonly stateChanges?: string[];
    /** What the step sends (or noop keeps), when the case is about it. */
    readonly inputs?: Record<string, unknown>;
  };
};

const web = rec('web', { size: 's', region: 'eu', tags: { a: '1' } });
const cases: Case[] = [
  {
    what: 'nothing recorded: a create of everything declared',
    desired: { size: 's' },
    expect: { action: 'create', cause: 'new', changes: ['size'], inputs: { size: 's' } },
  },
  {
    what: 'recorded but deleted outside (refresh found it gone): a create',
    desired: { size: 's' },
    gone: true,
    expect: { action: 'create', cause: 'gone', changes: ['size'] },
  },
  {
    what: 'replacement requested, nothing differs',
    prior: web,
    desired: web.inputs,
    replaceRequested: true,
    expect: { action: 'replace', cause: 'replace_requested', reasons: [], changes: [] },
  },
  {
    what: 'tainted by a failed create',
    prior: rec('web', { size: 's' }, { tainted: true }),
    desired: { size: 's' },
    expect: { action: 'replace', cause: 'tainted', reasons: [] },
  },
  {
    what: 'recorded under another type',
    prior: web,
    desired: web.inputs,
    type: 't:index/y:Y',
    expect: { action: 'replace', cause: 'type_changed', reasons: ['type'] },
  },
  {
    what: 'a change at a replaceOn path',
    prior: web,
    desired: { ...web.inputs, region: 'us', size: 'm' },
    replaceOn: ['region'],
    expect: { action: 'replace', cause: 'replace_forced', reasons: ['region'], changes: ['region', 'size'] },
  },
  {
    what: 'a change below a wildcard replaceOn path names the element',
    prior: rec('web', { files: [{ mode: '0644' }, { mode: '0600' }] }),
    desired: { files: [{ mode: '0644' }, { mode: '0755' }] },
    replaceOn: ['files[*].mode'],
    expect: { action: 'replace', cause: 'replace_forced', reasons: ['files[1].mode'] },
  },
  {
    what: 'a type without update: every change replaces, each changed path a reason',
    prior: web,
    desired: { ...web.inputs, size: 'm', tags: { a: '2' } },
    canUpdate: false,
    expect: { action: 'replace', cause: 'replace_forced', reasons: ['size', 'tags.a'] },
  },
  {
    what: 'an ordinary change: an update with the declared inputs',
    prior: web,
    desired: { ...web.inputs, size: 'm' },
    replaceOn: ['region'],
    expect: { action: 'update', cause: 'changed', changes: ['size'], inputs: { ...web.inputs, size: 'm' } },
  },
  {
    what: 'a change only at an ignored path: noop, keeping the recorded value',
    prior: web,
    desired: { ...web.inputs, tags: { a: '9' } },
    ignoreChanges: ['tags'],
    expect: { action: 'noop', cause: 'unchanged', changes: [], inputs: web.inputs },
  },
  {
    what: 'an ignored and a real change: the update sends the recorded value at the ignored path',
    prior: web,
    desired: { ...web.inputs, size: 'l', tags: { a: '9' } },
    ignoreChanges: ['tags'],
    expect: { action: 'update', cause: 'changed', changes: ['size'], inputs: { ...web.inputs, size: 'l' } },
  },
  {
    what: 'a replacement creates from the declaration as written, ignoreChanges not applied',
    prior: rec('web', { size: 's', tags: { a: '1' } }, { tainted: true }),
    desired: { size: 's', tags: { a: '9' } },
    ignoreChanges: ['tags'],
    expect: { action: 'replace', cause: 'tainted', inputs: { size: 's', tags: { a: '9' } } },
  },
  {
    what: 'only an option added (protect): an update in the state only',
    prior: web,
    desired: web.inputs,
    options: { protect: true },
    expect: { action: 'update', cause: 'options_changed', changes: [], stateChanges: ['options.protect'] },
  },
  {
    what: 'only the dependencies differ: an update in the state only',
    prior: rec('web', { size: 's' }, { dependencies: ['db'] }),
    desired: { size: 's' },
    dependencies: ['db', 'net'],
    expect: { action: 'update', cause: 'options_changed', stateChanges: ['dependencies'] },
  },
  {
    what: 'the same dependencies in another order: nothing differs',
    prior: rec('web', { size: 's' }, { dependencies: ['db', 'net'] }),
    desired: { size: 's' },
    dependencies: ['net', 'db'],
    expect: { action: 'noop', cause: 'unchanged', stateChanges: [] },
  },
  {
    what: 'an option set to its default (false) is no change',
    prior: web,
    desired: web.inputs,
    options: { retainOnDelete: false },
    expect: { action: 'noop', cause: 'unchanged', stateChanges: [] },
  },
  {
    what: 'an input change carries the option changes beside it',
    prior: web,
    desired: { ...web.inputs, size: 'm' },
    options: { protect: true },
    expect: { action: 'update', cause: 'changed', changes: ['size'], stateChanges: ['options.protect'] },
  },
  {
    what: 'nothing differs, recorded under an alias',
    prior: web,
    desired: web.inputs,
    moved: true,
    expect: { action: 'noop', cause: 'moved' },
  },
  {
    what: 'nothing differs',
    prior: web,
    desired: web.inputs,
    expect: { action: 'noop', cause: 'unchanged', reasons: [], changes: [], stateChanges: [] },
  },
  {
    what: 'a keyed list in another order is the same list',
    prior: rec('web', {
      devices: [
        { name: 'a', size: 1 },
        { name: 'b', size: 2 },
      ],
    }),
    desired: {
      devices: [
        { name: 'b', size: 2 },
        { name: 'a', size: 1 },
      ],
    },
    keyedLists: { devices: 'name' },
    expect: { action: 'noop', cause: 'unchanged' },
  },
  {
    what: 'a keyed list element changed: the change is at its key',
    prior: rec('web', { devices: [{ name: 'a', size: 1 }] }),
    desired: { devices: [{ name: 'a', size: 5 }] },
    keyedLists: { devices: 'name' },
    expect: { action: 'update', cause: 'changed', changes: ['devices.a.size'] },
  },
];

describe('chooseAction', () => {
  for (const c of cases)
    it(c.what, () => {
      const choice = chooseAction({
        prior: c.prior,
        gone: c.gone ?? false,
        type: c.type ?? T,
        desired: c.desired,
        replaceOn: c.replaceOn ?? [],
        canUpdate: c.canUpdate ?? true,
        ignoreChanges: c.ignoreChanges,
        options: c.options ?? {},
        dependencies: c.dependencies ?? [],
        moved: c.moved ?? false,
        replaceRequested: c.replaceRequested,
        keyedLists: c.keyedLists,
      });
      expect({ action: choice.action, cause: choice.cause }).toEqual({
        action: c.expect.action,
        cause: c.expect.cause,
      });
      if (c.expect.reasons) expect(choice.reasons).toEqual(c.expect.reasons);
      if (c.expect.changes) expect(choice.changes.map((x) => formatPath(x.path)).sort()).toEqual(c.expect.changes);
      if (c.expect.stateChanges)
        expect(choice.stateChanges.map((x) => formatPath(x.path)).sort()).toEqual(c.expect.stateChanges);
      if (c.expect.inputs) expect(choice.inputs).toEqual(c.expect.inputs);
    });
});
