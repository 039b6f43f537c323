/** What every view does with a failed call: a lost session returns to the login form. */
import { createContext, useContext } from 'react';
import { NotLoggedIn } from '../api/client.js';

export const SessionLostContext = createContext<() => void>(() => undefined);

/** A function turning an error into the text to show, returning to the login on a lost session. */
export function useErrorText(): (e: unknown) => string {
  const onLost = useContext(SessionLostContext);
  return (e: unknown) => {
    if (e instanceof NotLoggedIn) onLost();
    return e instanceof Error ? e.message : String(e);
  };
}
