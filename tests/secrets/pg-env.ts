// The PostgreSQL server the secrets tests scan (see tests/helpers/pg-env.ts).
import { pgTestUrl, unreachable } from '../helpers/pg-env.js';

export const pgUrl = pgTestUrl();
export const pgProblem = await unreachable(pgUrl);
