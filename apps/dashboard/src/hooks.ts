import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/** What {@link useResource} holds: the data once loaded, the last error, whether a load is under way, and a reload. */
export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * Loads `load()` when the component mounts and whenever `deps` change; with `pollMs`, again every `pollMs` ms while
 * `keepPolling(data)` says so (a run in progress, a notification being scanned). A load that finishes after a newer one
 * started is dropped.
 */
export function useResource<T>(load: () => Promise<T>, deps: unknown[], pollMs?: number, keepPolling?: (data: T) => boolean): Resource<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const generation = useRef(0);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((n) => n + 1), []);

  // `deps` are the caller's: `load` changes with them.
  useEffect(() => {
    const mine = ++generation.current;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      setState((previous) => ({ ...previous, loading: true }));
      try {
        const data = await load();
        if (mine !== generation.current) return;
        setState({ data, error: undefined, loading: false });
        if (pollMs !== undefined && keepPolling?.(data)) timer = setTimeout(run, pollMs);
      } catch (error) {
        if (mine !== generation.current) return;
        setState((previous) => ({ data: previous.data, error, loading: false }));
      }
    };
    void run();
    return () => {
      generation.current++;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [...deps, tick]);

  return { ...state, reload };
}

/** What {@link useForm} holds: the values, their setters, the last error and whether a send is under way. */
export interface Form<V> {
  values: V;
  setValues: (update: (previous: V) => V) => void;
  set: <K extends keyof V>(name: K, value: V[K]) => void;
  error: unknown;
  busy: boolean;
  /** An `onSubmit` handler that runs `send` (the page is not reloaded), its failure kept as `error`. */
  submitWith: (send: () => Promise<void>) => (event: Event) => Promise<void>;
}

/** A form's state: its values (from `initial`), the API's error of the last send, and whether a send is under way. */
export function useForm<V extends object>(initial: V | (() => V)): Form<V> {
  const [values, setValues] = useState<V>(initial);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  return {
    values,
    setValues,
    set: (name, value) => setValues((previous) => ({ ...previous, [name]: value })),
    error,
    busy,
    submitWith: (send) => async (event) => {
      event.preventDefault();
      setBusy(true);
      setError(undefined);
      try {
        await send();
      } catch (failure) {
        setError(failure);
      } finally {
        setBusy(false);
      }
    },
  };
}
