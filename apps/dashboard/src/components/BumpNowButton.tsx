import { useState } from 'preact/hooks';
import { bumpNow } from '../api/endpoints.ts';
import { navigate } from '../router.tsx';
import { ErrorMessage } from './common.tsx';

/**
 * "Bump now" for one config: starts an update run (`POST /update_configs/{id}/trigger_update_job`) and opens it; the
 * API's refusal is shown beside the button.
 */
export function BumpNowButton({ configId }: { configId: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const bump = async () => {
    setError(undefined);
    setBusy(true);
    try {
      navigate(`/update-runs/${(await bumpNow(configId)).id}`);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" disabled={busy} onClick={bump}>
        {busy ? 'Starting a run…' : 'Bump now'}
      </button>
      <ErrorMessage error={error} />
    </>
  );
}
