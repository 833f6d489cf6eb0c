// The command's terminal: where it writes, how it asks for confirmation, and Ctrl-C. The first
// Ctrl-C stops starting new steps and lets those in flight finish (apply's stopSignal); a second
// aborts them (apply's signal: their objects are found by the next plan's recovery).
import { createInterface } from 'node:readline';

export type Io = {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly isTTY: boolean;
  readonly color: boolean;
  readonly stdout: NodeJS.WriteStream;
};

export function terminal(): Io {
  const isTTY = process.stdout.isTTY === true;
  return {
    out: (t) => {
      process.stdout.write(t.endsWith('\n') ? t : `${t}\n`);
    },
    err: (t) => {
      process.stderr.write(t.endsWith('\n') ? t : `${t}\n`);
    },
    isTTY,
    color: isTTY && !process.env.NO_COLOR,
    stdout: process.stdout,
  };
}

/** Asks the question; true only for the answer 'yes' (Terraform's rule). EOF is no. */
export async function confirm(io: Io, question: string): Promise<boolean> {
  io.out(question);
  const rl = createInterface({ input: process.stdin, terminal: false });
  try {
    const answer = await new Promise<string | undefined>((resolve) => {
      rl.once('line', (l) => resolve(l));
      rl.once('close', () => resolve(undefined));
      process.stdout.write('  Enter a value: ');
    });
    return answer?.trim() === 'yes';
  } finally {
    rl.close();
  }
}

type Interrupts = { readonly stop: AbortSignal; readonly abort: AbortSignal; dispose(): void };

/** SIGINT once: stop (steps in flight finish); twice: abort. */
export function interrupts(io: Io): Interrupts {
  const stop = new AbortController();
  const abort = new AbortController();
  const onSigint = () => {
    if (!stop.signal.aborted) {
      io.err(
        '\nInterrupt received: no new step starts; waiting for the steps in flight to finish. Press Ctrl-C again to abort them.',
      );
      stop.abort();
    } else if (!abort.signal.aborted) {
      io.err('\nSecond interrupt: aborting the steps in flight. The next plan finds what they made.');
      abort.abort();
    }
  };
  process.on('SIGINT', onSigint);
  return {
    stop: stop.signal,
    abort: abort.signal,
    dispose: () => {
      process.off('SIGINT', onSigint);
    },
  };
}
