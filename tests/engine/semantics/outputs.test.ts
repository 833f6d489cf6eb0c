// Stack outputs and references between stacks as a table (issue 26): one row per rule, each citing
// the Terraform or Pulumi behaviour it follows, or saying where converge differs on purpose.
import { describe, expect, it } from 'vitest';
import {
  Engine,
  MemoryLocation,
  MemoryStateStore,
  ValidationError,
  isSensitive,
  isUnknown,
  ref,
  secret,
  stackRef,
  type Plan,
} from 'converge';
import { TestCloud, testProvider } from '../../helpers/test-provider.js';
import { thing } from '../../helpers/builders.js';

type Row = { readonly name: string; readonly cite: string; readonly run: () => Promise<void> };

const engineOn = (store: MemoryStateStore) => new Engine({ providers: [testProvider(new TestCloud())], state: store });
const outputsOf = (plan: Plan) => Object.fromEntries(plan.outputChanges.map((o) => [o.name, o]));

const rows: Row[] = [
  {
    name: 'outputs are shown in the plan under "Changes to Outputs", an output of a resource to be created unknown',
    cite: 'Terraform: terraform plan prints "Changes to Outputs:"; a value computed at apply shows "(known after apply)"',
    run: async () => {
      const plan = await engineOn(new MemoryStateStore()).plan([thing('web')], {
        outputs: { url: ref('web', 'address') },
      });
      expect(plan.render({ color: false })).toContain('Changes to Outputs:\n  + url = (known after apply)');
      expect(isUnknown(outputsOf(plan).url!.after)).toBe(true);
    },
  },
  {
    name: 'a secret output is redacted in the plan, and a reference to a secret attribute makes the output secret',
    cite: 'Terraform: a sensitive output shows "(sensitive value)" (and must be marked sensitive); Pulumi: an output holding a secret is a secret',
    run: async () => {
      const plan = await engineOn(new MemoryStateStore()).plan([thing('web')], {
        outputs: { token: ref('web', 'token'), key: secret('k-1') },
      });
      const o = outputsOf(plan);
      expect(isSensitive(o.token!.after) && isSensitive(o.key!.after)).toBe(true);
      expect(JSON.stringify(plan)).not.toContain('k-1');
    },
  },
  {
    name: 'outputs alone are a change to apply, which changes no object',
    cite: 'Terraform: "You can apply this plan to save these new output values to the Terraform state, without changing any real infrastructure."',
    run: async () => {
      const engine = engineOn(new MemoryStateStore());
      await engine.apply(await engine.plan([thing('web')]));
      const plan = await engine.plan([thing('web')], { outputs: { region: 'eu' } });
      expect(plan.hasChanges).toBe(true);
      expect(plan.steps.every((s) => s.action === 'noop')).toBe(true);
    },
  },
  {
    name: 'an output no longer declared is removed from the state, and a destroy removes every output',
    cite: 'Terraform: removing an output block removes it from the state at the next apply; terraform destroy leaves no outputs',
    run: async () => {
      const engine = engineOn(new MemoryStateStore());
      await engine.apply(await engine.plan([thing('web')], { outputs: { a: 1, b: 2 } }));
      const plan = await engine.plan([thing('web')], { outputs: { a: 1 } });
      expect(outputsOf(plan).b!.action).toBe('delete');
      await engine.apply(plan);
      expect(Object.keys((await engine.state()).outputs!)).toEqual(['a']);
      await engine.apply(await engine.planDestroy());
      expect((await engine.state()).outputs).toEqual({});
    },
  },
  {
    name: "another stack's secret output stays secret where it is used",
    cite: "Pulumi: StackReference.getOutputDetails keeps a secret as secretValue; converge differs from Terraform's terraform_remote_state, which drops sensitivity",
    run: async () => {
      const shared = new MemoryLocation('net');
      const net = engineOn(new MemoryStateStore(shared));
      await net.apply(await net.plan([thing('net')], { outputs: { pw: secret('remote-pw-9') } }));
      const plan = await engineOn(new MemoryStateStore()).plan([
        thing('app', { password: stackRef(new MemoryStateStore(shared), 'pw') }),
      ]);
      expect(isSensitive(plan.steps[0]!.after!.password)).toBe(true);
      expect(plan.render({ color: false })).not.toContain('remote-pw-9');
    },
  },
  {
    name: "a missing output of another stack is a validation issue, before this stack's state is read",
    cite: 'Terraform: reading an attribute a remote state lacks fails ("Unsupported attribute"); converge names the stack and the output at validation',
    run: async () => {
      const shared = new MemoryLocation('net2');
      const cloud = new TestCloud();
      const app = new Engine({ providers: [testProvider(cloud)], state: new MemoryStateStore() });
      const e = await app.plan([thing('app', { peer: stackRef(new MemoryStateStore(shared), 'url') })]).catch((x) => x);
      expect(e).toBeInstanceOf(ValidationError);
      expect(e.issues[0].message).toContain('memory:net2');
      expect(e.issues[0].message).toContain("'url'");
      expect(cloud.calls).toEqual([]);
    },
  },
];

describe('stack outputs: semantics', () => {
  for (const row of rows) it(`${row.name} (${row.cite})`, row.run);
});
