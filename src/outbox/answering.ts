import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The answer a request is being given (src/app.ts runs every request in `whileAnswering`): the
 * deliveries of what it records start once the answer is ready, never on the request path
 * (outbox.ts). A write's commit may come well before its answer (the answer reads the
 * database again): without this, a delivery could take the database first.
 */
const answering = new AsyncLocalStorage<Promise<void>>();

/** Runs `work` (the answering of a request); deliveries recorded in it wait for its end. */
export async function whileAnswering<T>(work: () => Promise<T>): Promise<T> {
  let answered!: () => void;
  const done = new Promise<void>((resolve) => (answered = resolve));
  try {
    return await answering.run(done, work);
  } finally {
    answered();
  }
}

/** When the answer under way in the caller's context is ready; undefined outside a request. */
export function answerUnderWay(): Promise<void> | undefined {
  return answering.getStore();
}
