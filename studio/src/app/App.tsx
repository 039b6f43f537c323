/** The Studio: the login form until a session exists, then the workspace. */
import { useCallback, useEffect, useState } from 'react';
import { currentSession, type Session } from '../api/studio-api.js';
import { LoginForm } from './LoginForm.js';
import { SessionLostContext } from './session-lost.js';
import { Workspace } from './Workspace.js';

export function App() {
  // undefined: still asking whether a session exists.
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [notice, setNotice] = useState('');

  useEffect(() => {
    currentSession().then(setSession, () => setSession(null));
  }, []);

  const onLost = useCallback(() => {
    setNotice('Your session has ended; log in again.');
    setSession(null);
  }, []);

  if (session === undefined)
    return (
      <p role="status" className="centered">
        Loading Ocelot Studio…
      </p>
    );
  if (session === null)
    return (
      <LoginForm
        notice={notice}
        onLogin={(s) => {
          setNotice('');
          setSession(s);
        }}
      />
    );
  return (
    <SessionLostContext.Provider value={onLost}>
      <Workspace
        session={session}
        onLogout={() => {
          setNotice('You have logged out.');
          setSession(null);
        }}
      />
    </SessionLostContext.Provider>
  );
}
