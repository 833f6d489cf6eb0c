// The README's provider configuration examples, one region per provider; each function builds a
// provider without touching the network. tests/examples/readme.test.ts checks the README against
// these regions and calls the functions.
// #region prova
import { prova } from 'converge/providers/a';

// The local daemon over its unix socket: $LXD_SOCKET, else $LXD_DIR/unix.socket, else
// /var/snap/lxd/common/lxd/unix.socket when writable, else /var/lib/lxd/unix.socket.
export const localLxd = () => prova();

// A remote daemon over HTTPS: trusted once with its trust password, then by the client
// certificate converge generates in configDir (lxc's client.crt/client.key if they exist).
export const labLxd = () =>
  prova({
    remotes: [{ name: 'lab', address: 'lxd.lab.example', password: 'trust-password', default: true }],
    acceptRemoteCertificate: true, // pin the server's certificate on first contact
    generateClientCertificates: true,
  });
// #endregion prova

// #region provb
import { provb } from 'converge/providers/b';

// The token comes from `token`, else PROVB_TOKEN, else a Civo CLI credentials file
// (`credentialsFile` or PROVB_CREDENTIAL_FILE).
export const civo = () => provb({ token: 'your-civo-api-key', region: 'LON1' });
export const civoFromEnv = () => provb({ region: 'FRA1' }); // PROVB_TOKEN=... in the environment
// #endregion provb

// #region provc
import { provc } from 'converge/providers/c';

// The API key comes from `apiKey`, else PROVC_API_KEY; the default Cloud project and region from
// cloudProjectId / cloudRegionId, else PROVC_CLOUD_PROJECT_ID / PROVC_CLOUD_REGION_ID.
export const gcore = () => provc({ apiKey: '1234$abcdef', cloudProjectId: 1, cloudRegionId: 76 });
export const gcoreFromEnv = () => provc();
// #endregion provc

// #region stores
import { FileStateStore, MemoryStateStore, PostgresStateStore } from 'converge';

export const stores = {
  // The default: one JSON file plus a write-ahead journal, a lock file, atomic renames.
  file: () =>
    new FileStateStore('.converge/state.json', { secretsPassphrase: process.env.CONVERGE_SECRETS_PASSPHRASE }),
  // Teams and CI: one row per resource, advisory locks; several stacks share a database.
  postgres: () =>
    new PostgresStateStore({ connectionString: 'postgres://converge@db.internal/converge', stack: 'production' }),
  // Tests and dry runs.
  memory: () => new MemoryStateStore(),
};
// #endregion stores
