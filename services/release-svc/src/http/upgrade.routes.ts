import { authenticate, type CodeHostView, callerOf } from '@switchyard/code-host';
import type { RepoUpgradeResource } from '@switchyard/contracts';
import { methodNotAllowed, parseInput } from '@switchyard/service-kit';
import { Router } from 'express';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ReleaseDatabase } from '../db/schema.ts';
import { askForUpgrade, viewUpgrade } from '../upgrades/upgrade.service.ts';
import type { RepoUpgradeRow } from '../upgrades/upgrade.table.ts';

const RepoId = z.coerce.number({ error: 'must be a repo id' }).int().positive().max(Number.MAX_SAFE_INTEGER);

/** A `repo-upgrades` resource. */
function upgradeResource(row: RepoUpgradeRow): RepoUpgradeResource {
  return {
    id: String(row.repo_id),
    type: 'repo-upgrades',
    attributes: {
      status: row.status,
      reason: row.reason,
      'pull-request-number': row.pull_request_number,
      'pull-request-url': row.pull_request_url,
      'requested-at': row.requested_at.toISOString(),
    },
    relationships: { repo: { data: { id: String(row.repo_id), type: 'repos' } } },
  };
}

/**
 * `POST /repos/:id/upgrade` (202: the upgrade asked, `pending`; a worker opens the pull request) and
 * `GET /repos/:id/upgrade` (200: where it stands), this service's extension (`askForUpgrade`, `viewUpgrade`).
 */
export function upgradeRouter(db: Kysely<ReleaseDatabase>, view: CodeHostView): Router {
  const router = Router();
  const auth = authenticate(view);
  router
    .route('/repos/:id/upgrade')
    .post(auth, async (req, res) => {
      const id = parseInput(RepoId, req.params.id, 'path', 'id');
      const upgrade = await askForUpgrade(db, view, callerOf(res), id);
      res
        .status(202)
        .location(`/repos/${id}/upgrade`)
        .json({ data: upgradeResource(upgrade) });
    })
    .get(auth, async (req, res) => {
      const id = parseInput(RepoId, req.params.id, 'path', 'id');
      res.json({ data: upgradeResource(await viewUpgrade(db, view, callerOf(res), id)) });
    })
    .all(methodNotAllowed(['GET', 'POST']));
  return router;
}
