// The README's quickstart, verbatim: a network, a firewall and an instance on the Civo simulator;
// plan, print, apply, plan again (nothing to do), destroy. tests/examples/readme.test.ts runs it.
import { Engine, FileStateStore } from 'converge';
import { provb } from 'converge/providers/b';
import { startSimulator } from 'converge/providers/b/simulator';

const civo = await startSimulator(); // the real API: omit apiEndpoint, set PROVB_TOKEN
const engine = new Engine({
  providers: [provb({ token: civo.token, apiEndpoint: civo.url, region: 'LON1' })],
  state: new FileStateStore('.converge/state.json'), // the default
});

const net = provb.network('net', { label: 'demo' });
const fw = provb.firewall('fw', { name: 'web', networkId: net.out('networkId') });
const web = provb.instance('web', {
  hostname: 'web1',
  diskImage: 'ubuntu-jammy',
  size: 'g3.small',
  networkId: net.out('networkId'),
  firewallId: fw.out('firewallId'),
});
const stack = [net, fw, web];

const plan = await engine.plan(stack); // validates everything, refreshes, diffs; changes nothing
console.log(plan.render()); // the human diff; JSON.stringify(plan) for machines
const result = await engine.apply(plan); // throws ApplyError if any step failed
console.log(`web has public IP ${String(result.outputs.web?.publicIp)}`);
console.log((await engine.plan(stack)).hasChanges); // false: the state matches
await engine.destroy();
await civo.close();
