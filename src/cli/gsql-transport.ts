/**
 * The gsql client's HTTP side, as TigerGraph's 3.x client speaks it (reference B13): log in with
 * base64("user:password") as the body, keep the JSON session cookie (`Set-GSQL-Cookie` →
 * `GSQL-Cookie`), send URL-encoded GSQL text with HTTP Basic to `file` (scripts) or `command`
 * (shell lines), and read the streamed answer line by line, acting on the control lines.
 */
import { PROGRESS_PREFIX } from '../loading/job-status-text.js';

/** The gsql client's exit codes. */
export const EXIT = {
  OK: 0,
  LOGIN_OR_AUTH_ERROR: 41,
  INVALID_ARGUMENT: 201,
  CONNECTION_ERROR: 202,
  UNKNOWN_ERROR: 255,
} as const;

export class GsqlClientError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'GsqlClientError';
  }
}

export interface LoginAnswer {
  error?: unknown;
  message?: unknown;
  welcomeMessage?: unknown;
  shellPrompt?: unknown;
  isClientCompatible?: unknown;
}

const PROGRESS_BAR = /^\[=*\s*\]\s[0-9]+%.*/;
const PROGRESS_DONE = /^\[=*\s*\]\s100%[^l]*$/;

/** What the Java client encodes with URLEncoder: form encoding, spaces as `+`. */
export function formEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/%20/g, '+')
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const CONNECTION_REFUSED = [
  'Connection refused.',
  'Please check that the Ocelot server is running (ocelot serve) and that -ip/--url names its GSQL port.',
].join('\n');

export class GsqlSession {
  private cookie: Record<string, unknown>;
  /** The user's shell prompt and welcome text, from the login answer. */
  prompt = 'GSQL > ';
  welcome = '';

  constructor(
    /** e.g. http://127.0.0.1:14240/gsqlserver/gsql */
    private readonly endpointBase: string,
    private readonly user: string,
    private password: string,
    graph: string | undefined,
    private readonly write: (text: string) => void,
    /** Output to a terminal: loading progress lines are redrawn in place (this many columns wide). */
    private readonly terminalColumns?: number,
  ) {
    this.cookie = {
      clientPath: process.cwd(),
      terminalWidth: process.stdout.columns ?? 80,
      fromGsqlClient: true,
    };
    if (graph !== undefined) this.cookie.graph = graph;
  }

  /** A progress line is on the screen without its newline yet. */
  private progressShown = false;

  setPassword(password: string): void {
    this.password = password;
  }

  private auth(): string {
    return Buffer.from(`${formEncode(this.user)}:${this.password}`).toString('base64');
  }

  private async post(endpoint: string, body: string, withAuth: boolean): Promise<Response> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Content-Language': 'en-US',
      'GSQL-Cookie': JSON.stringify(this.cookie),
    };
    if (withAuth) headers.Authorization = `Basic ${this.auth()}`;
    try {
      return await fetch(`${this.endpointBase}/${endpoint}`, { method: 'POST', headers, body });
    } catch {
      throw new GsqlClientError(CONNECTION_REFUSED, EXIT.CONNECTION_ERROR);
    }
  }

  /** The graph in use (the session cookie's), if any. */
  get graph(): string | undefined {
    return typeof this.cookie.graph === 'string' ? this.cookie.graph : undefined;
  }

  /** GET of a path of the GSQL server (the 4.x REST side) with the session's credentials; undefined on any failure. */
  async getJson(path: string): Promise<unknown> {
    try {
      const res = await fetch(`${new URL(this.endpointBase).origin}${path}`, {
        headers: { Authorization: `Basic ${this.auth()}` },
      });
      return res.ok ? await res.json() : undefined;
    } catch {
      return undefined;
    }
  }

  /** Logs in; returns the server's message when the password was wrong (so the caller may ask again). */
  async login(): Promise<{ ok: true } | { ok: false; message: string }> {
    const res = await this.post('login', this.auth(), false);
    if (res.status !== 200) {
      throw new GsqlClientError(
        `Login failed: the server answered HTTP ${res.status}.`,
        EXIT.LOGIN_OR_AUTH_ERROR,
      );
    }
    let answer: LoginAnswer;
    try {
      answer = (await res.json()) as LoginAnswer;
    } catch {
      throw new GsqlClientError('Login failed: the server did not answer JSON.', EXIT.LOGIN_OR_AUTH_ERROR);
    }
    if (answer.error !== false) {
      return { ok: false, message: typeof answer.message === 'string' ? answer.message : 'Login failed.' };
    }
    const cookie = res.headers.get('set-gsql-cookie');
    if (cookie) this.adoptCookie(cookie);
    if (typeof answer.shellPrompt === 'string') this.prompt = answer.shellPrompt;
    if (typeof answer.welcomeMessage === 'string') this.welcome = answer.welcomeMessage;
    return { ok: true };
  }

  private adoptCookie(text: string): void {
    try {
      const v: unknown = JSON.parse(text);
      if (v !== null && typeof v === 'object' && !Array.isArray(v))
        this.cookie = v as Record<string, unknown>;
    } catch {
      // Not JSON: keep the cookie we have (the server answers JSON cookies).
    }
  }

  /**
   * Sends GSQL text to `file` or `command` and prints the answer as it streams in. Returns the
   * server's return code (0 when it sent none).
   */
  async run(endpoint: 'file' | 'command', text: string): Promise<number> {
    const res = await this.post(endpoint, formEncode(text), true);
    if (res.status === 401) {
      await res.body?.cancel();
      throw new GsqlClientError('Authentication failed.', EXIT.LOGIN_OR_AUTH_ERROR);
    }
    if (res.status !== 200 || !res.body) {
      const detail = await res.text().catch(() => '');
      throw new GsqlClientError(
        `Connection error.\nResponse Code: ${res.status}${detail ? `\n${detailMessage(detail)}` : ''}`,
        EXIT.CONNECTION_ERROR,
      );
    }
    let code = EXIT.OK as number;
    let pending = '';
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body) {
        pending += decoder.decode(chunk as Uint8Array, { stream: true });
        let nl: number;
        while ((nl = pending.indexOf('\n')) >= 0) {
          code = this.handleLine(pending.slice(0, nl).replace(/\r$/, ''), code);
          pending = pending.slice(nl + 1);
        }
      }
    } catch {
      throw new GsqlClientError('Connection error: the server closed the connection.', EXIT.CONNECTION_ERROR);
    }
    pending += decoder.decode();
    if (pending !== '') code = this.handleLine(pending, code);
    return code;
  }

  private handleLine(line: string, code: number): number {
    if (line.startsWith('__GSQL__RETURN__CODE__')) {
      const n = Number(line.split(',', 2)[1]);
      return Number.isInteger(n) ? n : EXIT.UNKNOWN_ERROR;
    }
    if (line.startsWith('__GSQL__COOKIES__')) {
      this.adoptCookie(line.slice(line.indexOf(',') + 1));
    } else if (line.startsWith('__GSQL__INTERACT__')) {
      this.write('This server asked for an interactive answer, which this client does not support.\n');
    } else if (line.startsWith('__GSQL__MOVE__CURSOR___UP__')) {
      this.write(`\u001b[${Number(line.split(',')[1]) || 1}A`);
    } else if (line.startsWith('__GSQL__CLEAN__LINE__')) {
      this.write('\u001b[2K');
    } else if (PROGRESS_BAR.test(line)) {
      this.write(`\r${line}${PROGRESS_DONE.test(line) ? '\n' : ''}`);
    } else if (this.terminalColumns !== undefined && line.startsWith(PROGRESS_PREFIX)) {
      // Ocelot's loading progress: one line, redrawn in place (cut to the width, so it never wraps).
      this.write(`\r\u001b[2K${line.slice(0, Math.max(20, this.terminalColumns - 1))}`);
      this.progressShown = true;
    } else {
      if (this.progressShown) this.write('\n');
      this.progressShown = false;
      this.write(`${line}\n`);
    }
    return code;
  }
}

/** The `message` of a JSON envelope, or the text itself. */
function detailMessage(text: string): string {
  try {
    const v = JSON.parse(text) as { message?: unknown };
    if (typeof v.message === 'string') return v.message;
  } catch {
    // plain text
  }
  return text.trim();
}
