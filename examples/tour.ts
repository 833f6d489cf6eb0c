// The README's five-minute tour, region by region: declare, plan, render, apply, refresh, import,
// destroy, against the Civo simulator. tests/examples/readme.test.ts checks that the README shows
// these regions verbatim, and runs this file.
// #region setup
import { Engine, MemoryStateStore, ValidationError, progressReporter, ref } from 'converge';
import { provb } from 'converge/providers/b';
import { startSimulator } from 'converge/providers/b/simulator';

const civo = await startSimulator();
const engine = new Engine({
  providers: [provb({ token: civo.token, apiEndpoint: civo.url, region: 'LON1', pollIntervalMs: 50 })],
  state: new MemoryStateStore(), // tests and dry runs; FileStateStore is the default
});
// #endregion setup

// #region declare
// Typed helpers build plain data: { type, name, inputs, options }.
const zone = provb.dnsDomainName('zone', { name: 'example.com' });
const net = provb.network('net', { label: 'tour' });
const fw = provb.firewall('fw', {
  name: 'tour-fw',
  networkId: net.out('networkId'),
  createDefaultRules: false,
  ingressRules: [{ label: 'https', portRange: '443', cidrs: ['0.0.0.0/0'], action: 'allow' }],
});
const web = provb.instance(
  'web',
  {
    hostname: 'web1',
    diskImage: 'ubuntu-jammy',
    networkId: net.out('networkId'),
    firewallId: fw.out('firewallId'),
  },
  { protect: false, timeouts: { create: '10m' } },
);
const www = provb.dnsDomainRecord('www', {
  domainId: zone.out('dnsDomainNameId'),
  type: 'a',
  name: 'www',
  value: web.out('publicIp'),
});
const stack = [zone, net, fw, web, www];

// The same record written as plain data, with ref(): what the helper builds.
const same = {
  type: 'provb:index/dnsDomainRecord:DnsDomainRecord',
  name: 'www',
  inputs: { domainId: ref('zone', 'dnsDomainNameId'), type: 'a', name: 'www', value: ref('web', 'publicIp') },
};
// #endregion declare

// #region plan
try {
  await engine.plan([provb.volume('bad', { name: 'data', sizeGb: -1 })]);
} catch (error) {
  if (error instanceof ValidationError)
    console.log(error.issues.map((i) => `${i.resource}.${i.path.join('.')}: ${i.message}`));
}
const plan = await engine.plan(stack);
console.log(plan.summary); // { create: 5, read: 0, update: 0, stateOnly: 0, replace: 0, delete: 0, noop: 0, forget: 0 }
// #endregion plan

// #region render
console.log(plan.render()); // + resource "provb:index/instance:Instance" "web" { ... }
const json = JSON.stringify(plan); // steps, changes, secrets redacted, unknowns tagged
// #endregion render

// #region apply
const result = await engine.apply(plan, { onEvent: progressReporter() });
console.log(result.outputs.www); // { id, dnsDomainRecordId, ... }
console.log((await engine.plan(stack)).hasChanges); // false
// #endregion apply

// #region refresh
const { drifted, gone, unchanged } = await engine.refresh();
console.log(drifted.length, gone.length, unchanged.length); // 0 0 5
// #endregion refresh

// #region import
// A domain someone made by hand, through the API:
await fetch(`${civo.url}/v2/dns`, {
  method: 'POST',
  body: JSON.stringify({ name: 'legacy.example' }),
  headers: { authorization: `bearer ${civo.token}`, 'content-type': 'application/json' },
});
const legacy = provb.dnsDomainName('legacy', { name: 'legacy.example' });
await engine.import(legacy, 'legacy.example');
console.log((await engine.plan([...stack, legacy])).hasChanges); // false: adopted as declared
// #endregion import

// #region destroy
const destroyed = await engine.destroy();
console.log(destroyed.succeeded.length); // 6
await civo.close();
// #endregion destroy

export { json, same };
