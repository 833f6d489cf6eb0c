// keyedLists: a resource's lists whose elements have an identity (devices by name) are diffed and
// rendered by key, so an element added in the middle is one added element, not a shift.
import { describe, expect, it } from 'vitest';
import { diffInputs, diffValues } from '../../../src/engine/diff/diff.js';
import { renderPlan } from '../../../src/engine/plan/render.js';
import { formatPath } from '../../../src/engine/values/path.js';
import { unknown } from '../../../src/index.js';
import { planOf, step } from '../render/steps.js';

const dev = (name: string, path: string) => ({ name, type: 'disk', properties: { path } });
const paths = (cs: ReturnType<typeof diffValues>) => cs.map((c) => formatPath(c.path));

describe('diffValues with keyed lists', () => {
  it('shows an element added in the middle as one added element at <list>.<key>', () => {
    const before = { devices: [dev('a', '/a'), dev('z', '/z')] };
    const after = { devices: [dev('a', '/a'), dev('m', '/m'), dev('z', '/z')] };
    expect(diffValues(before, after, { devices: 'name' })).toEqual([
      { path: ['devices', 'm'], before: undefined, after: dev('m', '/m') },
    ]);
    expect(paths(diffValues(before, after))).toEqual(['devices[1].name', 'devices[1].properties.path', 'devices[2]']);
  });

  it('names a changed field of an element by the element key, and a removed element by its key', () => {
    const before = { devices: [dev('a', '/a'), dev('b', '/b')] };
    const after = { devices: [dev('b', '/b2')] };
    expect(paths(diffInputs({ keyedLists: { devices: 'name' } }, before, after))).toEqual([
      'devices.a',
      'devices.b.properties.path',
    ]);
  });

  it('matches nested keyed lists through a wildcard pattern', () => {
    const before = { pools: [{ name: 'p', members: [{ id: 'x', w: 1 }] }] };
    const after = {
      pools: [
        {
          name: 'p',
          members: [
            { id: 'y', w: 2 },
            { id: 'x', w: 1 },
          ],
        },
      ],
    };
    expect(paths(diffValues(before, after, { pools: 'name', 'pools.*.members': 'id' }))).toEqual(['pools.p.members.y']);
  });

  it('falls back to positions when a key is missing, duplicated or unknown', () => {
    expect(paths(diffValues({ d: [dev('a', '/a')] }, { d: [{ type: 'disk' }] }, { d: 'name' }))).toEqual([
      'd[0].name',
      'd[0].properties',
    ]);
    expect(paths(diffValues({ d: [dev('a', '/a')] }, { d: [dev('a', '/a'), dev('a', '/b')] }, { d: 'name' }))).toEqual([
      'd[1]',
    ]);
    expect(
      paths(diffValues({ d: [dev('a', '/a')] }, { d: [{ ...dev('a', '/a'), name: unknown }] }, { d: 'name' })),
    ).toEqual(['d[0].name']);
  });
});

describe('render of keyed lists', () => {
  it('shows the added element alone and hides the unchanged ones', () => {
    const before = { devices: [dev('a', '/a'), dev('z', '/z')] };
    const after = { devices: [dev('a', '/a'), dev('m', '/m'), dev('z', '/z')] };
    const changes = diffValues(before, after, { devices: 'name' }).map((c) => ({
      path: formatPath(c.path),
      before: c.before,
      after: c.after,
      forcesReplacement: false,
    }));
    const text = renderPlan(
      planOf([step({ address: 'box', action: 'update', before, after, changes, id: 'local:default/box' })]),
      { color: false },
    );
    expect(text).toContain('+ {');
    expect(text).toContain('+ name = "m"');
    expect(text).toContain('# (2 unchanged elements hidden)');
    expect(text).not.toContain('"/z" ->');
  });
});
