import { authenticate, type CodeHostView, callerOf } from '@switchyard/code-host';
import { UpdateConfigId } from '@switchyard/contracts';
import { methodNotAllowed, parseInput } from '@switchyard/service-kit';
import { Router } from 'express';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ReleaseDatabase } from '../db/schema.ts';
import { removeIgnore } from '../ignores/ignore.service.ts';

const IgnoreId = z.coerce.number({ error: 'must be an ignore id' }).int().positive().max(2_147_483_647);

/** `DELETE /update_configs/:id/ignores/:ignoreId` (204: this service's extension; `removeIgnore`). */
export function ignoreRouter(db: Kysely<ReleaseDatabase>, view: CodeHostView): Router {
  const router = Router();
  router
    .route('/update_configs/:id/ignores/:ignoreId')
    .delete(authenticate(view), async (req, res) => {
      const id = parseInput(UpdateConfigId, req.params.id, 'path', 'id');
      const ignoreId = parseInput(IgnoreId, req.params.ignoreId, 'path', 'ignoreId');
      await removeIgnore(db, view, callerOf(res), id, ignoreId);
      res.status(204).end();
    })
    .all(methodNotAllowed(['DELETE']));
  return router;
}
