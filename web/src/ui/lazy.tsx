import { use } from 'react';
import type { ComponentType, FunctionComponent } from 'react';

/** The props of a component type. */
type PropsOf<C> = C extends ComponentType<infer P> ? P : never;

/** A component whose code is fetched the first time it renders (or when preloaded). */
export interface LazyComponent<P> extends FunctionComponent<P> {
  /** Starts fetching the code now, e.g. for a dialog the user is likely to open. */
  preload: () => void;
}

/** Shown in place of a part whose code could not be fetched (offline, or the vault upgraded). */
function LoadFailed() {
  return (
    <div className="list-error">
      <p role="alert" className="form-error">
        This part of the vault could not be loaded.
      </p>
      <button
        type="button"
        className="button button--secondary"
        onClick={() => window.location.reload()}
      >
        Reload
      </button>
    </div>
  );
}

/**
 * A component exported by name from a module fetched on first render; wrap it in a Suspense.
 * Keeps screens and dialogs a user may never open out of the first download:
 * `const AdminScreen = lazyNamed(() => import('./AdminScreen.tsx'), 'AdminScreen');`
 * Unlike React.lazy, once the code is here (after `preload()`) it renders without suspending,
 * and a failed fetch shows a message with Reload (which fetches the current client).
 */
export function lazyNamed<M, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyComponent<PropsOf<M[K]>> {
  type Props = PropsOf<M[K]>;
  let loaded: ComponentType<Props> | undefined;
  let pending: Promise<ComponentType<Props>> | undefined;
  const fetchCode = () =>
    (pending ??= load().then(
      (module) => (loaded = module[name] as ComponentType<Props>),
      () => LoadFailed as ComponentType<Props>,
    ));
  const Lazy = (props: Props) => {
    const Component = loaded ?? use(fetchCode());
    return <Component {...(props as Props & object)} />;
  };
  Lazy.displayName = `Lazy(${String(name)})`;
  Lazy.preload = () => void fetchCode();
  return Lazy;
}

/** What a Suspense shows while a screen loaded on demand arrives. */
export function ScreenLoading() {
  return (
    <p className="list-status" role="status">
      Loading…
    </p>
  );
}

/** What a Suspense shows while a dialog loaded on demand arrives: announced, not drawn. */
export function DialogLoading() {
  return (
    <p className="visually-hidden" role="status">
      Loading…
    </p>
  );
}
