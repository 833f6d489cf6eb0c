// Provider A's lookups (prova:index/<fn>:<fn>): read existing objects. Every output the seed calls
// always present is always present (empty strings, lists and maps rather than missing keys).
import { getAuthGroup, getAuthIdentity } from './auth.js';
import { getImage } from './image.js';
import { getInfo } from './info.js';
import { getInstance } from './instance.js';
import { getNetwork, getProfile, getProject, getStoragePool } from './objects.js';

export {
  getAuthGroup,
  getAuthIdentity,
  getImage,
  getInfo,
  getInstance,
  getNetwork,
  getProfile,
  getProject,
  getStoragePool,
};

export const lookups = [
  getAuthGroup,
  getAuthIdentity,
  getImage,
  getInfo,
  getInstance,
  getNetwork,
  getProfile,
  getProject,
  getStoragePool,
] as const;
