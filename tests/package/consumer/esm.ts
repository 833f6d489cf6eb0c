// An ESM TypeScript consumer of the packed tarball: imports every ESM entry point by its public
// name, plans and applies a small stack against the Civo simulator, and prints what it saw as JSON.
import { Engine, MemoryStateStore, ValidationError, ref, type Plan } from 'converge';
import { prova } from 'converge/providers/a';
import { provb } from 'converge/providers/b';
import { provc } from 'converge/providers/c';
import { startSimulator as startA } from 'converge/providers/a/simulator';
import { startSimulator as startB } from 'converge/providers/b/simulator';
import { startSimulator as startC } from 'converge/providers/c/simulator';

const civo = await startB();
try {
  const engine = new Engine({
    providers: [provb({ token: civo.token, apiEndpoint: civo.url, region: 'LON1' })],
    state: new MemoryStateStore(),
  });
  const net = provb.network('net', { label: 'packed' });
  const fw = provb.firewall('fw', { name: 'packed', networkId: net.out('networkId') });
  // @ts-expect-error a misspelt output does not compile: the package's types reached this file
  net.out('netwrokId');
  const plan: Plan = await engine.plan([net, fw]);
  const result = await engine.apply(plan);
  const again = await engine.plan([net, fw]);
  let invalid = '';
  try {
    await engine.plan([provb.network('bad', { label: 'has space' })]);
  } catch (e) {
    if (e instanceof ValidationError) invalid = e.code;
  }
  console.log(
    JSON.stringify({
      summary: plan.summary,
      networkId: typeof result.outputs.net?.networkId,
      firewallNetwork: result.outputs.fw?.networkId === result.outputs.net?.networkId,
      againHasChanges: again.hasChanges,
      invalid,
      ref: ref('net', 'networkId'),
      factories: [prova, provc, startA, startC].map((f) => typeof f),
    }),
  );
} finally {
  await civo.close();
}
