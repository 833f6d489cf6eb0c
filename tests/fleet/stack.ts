// A fleet test's stack module: `count` Civo networks against the simulator named by the environment
// (FLEET_SIM_URL, FLEET_SIM_TOKEN). A stack's file re-exports it with the stack's own name; a flag
// file beside it (<name>.fail) makes the module throw, so its run fails; another (<name>.hold) keeps
// the run loading its module, so it stays running, until the file is removed.
import { existsSync } from 'node:fs';
import { provb } from '../../src/providers/b/index.js';
import type { ResourceDecl } from '../../src/index.js';

export function makeStack(name: string, dir: string) {
  const count = Number(process.env[`FLEET_RESOURCES_${name}`] ?? process.env.FLEET_RESOURCES ?? 3);
  return async () => {
    if (existsSync(`${dir}/${name}.fail`)) throw new Error(`stack ${name} was told to fail`);
    // <name>.hold: the run stays running (loading its module) until the file is removed
    while (existsSync(`${dir}/${name}.hold`)) await new Promise((r) => setTimeout(r, 20));
    const resources: ResourceDecl[] = [];
    for (let i = 0; i < count; i++)
      resources.push(provb.network(`net${i}`, { label: `${name}-net${i}` }) as unknown as ResourceDecl);
    return {
      providers: [
        provb({ token: process.env.FLEET_SIM_TOKEN, apiEndpoint: process.env.FLEET_SIM_URL, region: 'LON1' }),
      ],
      resources,
      parallelism: Number(process.env.FLEET_PARALLELISM ?? 10),
    };
  };
}
