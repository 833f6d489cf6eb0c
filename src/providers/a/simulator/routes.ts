// The fake LXD's route table: every (method, path) it answers, one row each, gathered from the
// instance, object and miscellaneous tables. The kit router does matching, logging and faults.
import type { Route } from '../../../kit/sim/router.js';
import type { SimStore } from './store.js';
import { instanceRoutes } from './routes-instances.js';
import { instanceFileRoutes } from './routes-instance-files.js';
import { instanceStateRoutes } from './routes-instance-state.js';
import { snapshotRoutes } from './routes-instance-snapshots.js';
import { miscRoutes } from './routes-misc.js';
import { networkExtraRoutes } from './routes-network-extras.js';
import { volumeRoutes } from './routes-volumes.js';
import { serverRoutes } from './routes-server.js';
import { aclRoutes, groupRoutes, networkRoutes, poolRoutes, profileRoutes, projectRoutes } from './routes-objects.js';

export const routes: readonly Route<SimStore>[] = [
  ...serverRoutes,
  ...miscRoutes,
  ...networkExtraRoutes,
  ...volumeRoutes,
  ...instanceRoutes,
  ...instanceStateRoutes,
  ...snapshotRoutes,
  ...instanceFileRoutes,
  ...networkRoutes,
  ...aclRoutes,
  ...profileRoutes,
  ...projectRoutes,
  ...poolRoutes,
  ...groupRoutes,
];
