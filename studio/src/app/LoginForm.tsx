/** Log in with a GSQL user's name and password; the server answers with a session cookie. */
import { useState, type FormEvent } from 'react';
import { login, type Session } from '../api/studio-api.js';

export function LoginForm(props: { notice: string; onLogin(session: Session): void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      props.onLogin(await login(username, password));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  }

  return (
    <main className="login">
      <form className="login-form" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Ocelot Studio</h1>
        <p className="hint">Log in with a GSQL user.</p>
        {props.notice && <p role="status">{props.notice}</p>}
        <label htmlFor="login-username">Username</label>
        <input
          id="login-username"
          name="username"
          autoComplete="username"
          autoFocus
          required
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
        <label htmlFor="login-password">Password</label>
        <input
          id="login-password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <button type="submit" className="primary" disabled={busy}>
          Log in
        </button>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
