// A plain CommonJS consumer: require() of every entry point, then a plan and an apply of an SSH
// key against the Civo simulator, printed as JSON.
const { Engine, MemoryStateStore, defineProvider, defineResource, ValidationError } = require('converge');
const { prova } = require('converge/providers/a');
const { provb } = require('converge/providers/b');
const { provc } = require('converge/providers/c');
const { startSimulator: startA } = require('converge/providers/a/simulator');
const { startSimulator: startB } = require('converge/providers/b/simulator');
const { startSimulator: startC } = require('converge/providers/c/simulator');

async function main() {
  const civo = await startB();
  try {
    const engine = new Engine({
      providers: [provb({ token: civo.token, apiEndpoint: civo.url, region: 'LON1' })],
      state: new MemoryStateStore(),
    });
    const plan = await engine.plan([
      provb.sshKey('key', { name: 'packed', publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKr9 packed@test' }),
    ]);
    const result = await engine.apply(plan);
    console.log(
      JSON.stringify({
        summary: plan.summary,
        keyId: typeof result.outputs.key?.sshKeyId,
        isValidationError: typeof ValidationError === 'function',
        defines: [defineProvider, defineResource].map((f) => typeof f),
        factories: [prova, provc, startA, startC].map((f) => typeof f),
      }),
    );
  } finally {
    await civo.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
