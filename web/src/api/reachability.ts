/**
 * Whether the vault could be reached the last time the client asked it something. A request
 * that gets no answer at all (a network error: no connection, a captive portal, the server
 * down) makes the vault unreachable; any answer, an HTTP error included, makes it reachable
 * again. The browser's own online flag is not enough: it stays true behind a captive portal or
 * with the server gone, and some browsers keep it true under emulated offline too.
 *
 * A request sent before the connection came back (the browser's 'online' event) that fails
 * afterwards says nothing about now, so it is ignored.
 *
 * No DOM or React imports here: the API module reports to it and runs in Node in tests.
 */
type Listener = () => void;

let unreachable = false;
/** Changes each time the connection is said to be back. */
let connection = 0;
const listeners = new Set<Listener>();

/** Tells every listener, changed or not: a listener compares what it reads (React does). */
function set(value: boolean): void {
  unreachable = value;
  for (const listener of listeners) listener();
}

export function subscribeReachability(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True after a request got no answer, until one gets an answer or the connection is back. */
export function vaultUnreachable(): boolean {
  return unreachable;
}

/** Taken when a request is sent, and handed to `reportUnreachable` if it fails. */
export function connectionMark(): number {
  return connection;
}

/** The vault answered (whatever the status). */
export function reportReached(): void {
  set(false);
}

/** A request sent at `mark` got no answer. */
export function reportUnreachable(mark: number): void {
  if (mark === connection) set(true);
}

/** The browser says the connection is back: the next request will tell. */
export function reportConnectionBack(): void {
  connection += 1;
  set(false);
}
