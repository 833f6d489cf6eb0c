// The simulator's route table: every endpoint the provb client uses, the /v2/vpc aliases routed to
// the same objects. Families live in routes-*.ts; order matters only where a literal segment and a
// parameter compete (/v2/databases/versions before /v2/databases/:id).
import type { Route } from '../../../kit/sim/router.js';
import type { SimStore } from './store.js';
import { dataRoutes } from './routes-data.js';
import { instanceRoutes } from './routes-instances.js';
import { instanceActionRoutes } from './routes-instance-actions.js';
import { kubernetesRoutes } from './routes-kubernetes.js';
import { networkFamilyRoutes } from './routes-network.js';

export function civoRoutes(): Route<SimStore>[] {
  return [
    ...dataRoutes(),
    ...instanceRoutes(),
    ...instanceActionRoutes(),
    ...networkFamilyRoutes(),
    ...kubernetesRoutes(),
  ];
}
