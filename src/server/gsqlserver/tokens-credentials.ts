/**
 * Credentials of the GSQL server (:14240 and :8123): the user/password check of the 3.x login
 * endpoint, whose credentials are its body. Every other route is checked by the access hook
 * (http/access-hook.ts) against the route table.
 */
import { AuthError } from '../../auth/errors.js';
import { AuthService, type CatalogHolder } from '../../auth/service.js';
import { NO_CREDENTIALS } from '../http/access-hook.js';
import type { CredentialCheck } from '../http/auth.js';

export { NO_CREDENTIALS };

/**
 * A user/password check for the login endpoints, backed by the users of the database. A throttled
 * caller is not told "wrong password" (the gsql client would ask again at once): the 429 stands.
 */
export function gsqlCredentialCheck(db: CatalogHolder): CredentialCheck {
  return async (user, password, address) => {
    try {
      await AuthService.for(db).authenticatePassword(user, password, address);
      return true;
    } catch (e) {
      if (e instanceof AuthError && e.kind !== 'throttled') return false;
      throw e;
    }
  };
}
