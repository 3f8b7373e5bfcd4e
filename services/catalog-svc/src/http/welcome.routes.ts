import type { Welcome } from '@switchyard/contracts';
import { methodNotAllowed } from '@switchyard/service-kit';
import { Router } from 'express';

/** The welcome message of `GET /`, the catalogue's home route. */
export const WELCOME: Welcome = { message: 'Welcome to the book catalogue API. Books are at /books.' };

/** `GET /`: the welcome message as JSON. */
export function welcomeRouter(): Router {
  const router = Router();
  router
    .route('/')
    .get((_req, res) => {
      res.json(WELCOME);
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
