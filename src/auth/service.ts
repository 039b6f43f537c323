/**
 * AuthService: the security state of one database, kept durable in its catalog. It authenticates
 * callers (password, secret, token), checks access rules, and applies every security change
 * through `changeCatalog`, one change at a time so that concurrent requests cannot lose updates.
 *
 * Password checks cost one scrypt (tens of ms) on the password pool's threads. A successful check
 * is remembered as an HMAC of the password under a per-process key, tied to the stored hash: the
 * next request with the same credentials costs one HMAC, while a wrong password always pays the
 * full scrypt — and counts towards the login throttle of its user name and address. On top of that,
 * an Authorization header verified once is remembered for the security state it was verified
 * against (credential-cache.ts), so the listeners' access checks decide a repeated header at once.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecurityState, UserRecord } from '../catalog/security.js';
import type { Catalog } from '../catalog/types.js';
import { checkAccess, type AccessRule } from './access-table.js';
import { hasPrivilege, type Principal } from './authorize.js';
import { allowedBefore, CredentialCache, rememberAllowed } from './credential-cache.js';
import { readAuthorization } from './credentials.js';
import { AuthError, forbidden, invalid, unauthenticated } from './errors.js';
import { LoginThrottle } from './login-throttle.js';
import { hashPassword, verifyPassword } from './password.js';
import type { Privilege } from './privileges.js';
import { findSecret } from './secrets.js';
import { authenticateToken, findToken } from './tokens.js';
import { DEFAULT_PASSWORD, DEFAULT_USER, findUser, initialSecurityState, SECRET_USER } from './users.js';

/** The part of the Database the auth layer needs (structurally the engine's CatalogStore). */
export interface CatalogHolder {
  readonly catalog: Catalog;
  changeCatalog(next: Catalog): Promise<void>;
}

export const INVALID_CREDENTIALS = 'Invalid username or password!';

/** A password hash to burn time on when the user does not exist, so timing does not tell. */
let dummyHash: ReturnType<typeof hashPassword> | undefined;

const services = new WeakMap<CatalogHolder, AuthService>();

export class AuthService {
  private queue: Promise<unknown> = Promise.resolve();
  private initial: Promise<SecurityState> | undefined;
  /** The default state once hashed (see state()). */
  private initialState: SecurityState | undefined;
  /** Authorization headers verified before, per security state. */
  private readonly credentials = new CredentialCache();
  /** REST++ authentication (`ocelot serve --auth`): tokens required, token endpoints served. */
  restppAuth = false;
  private readonly macKey = randomBytes(32);
  private readonly verified = new Map<string, { hash: string; mac: Buffer }>();
  /** Failed password checks per user name and client address (429 once there are too many). */
  readonly throttle: LoginThrottle;

  constructor(
    private readonly holder: CatalogHolder,
    private readonly clock: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.throttle = new LoginThrottle(clock);
  }

  /**
   * The one service of a database (every listener and the shell share its caches and queue).
   * `clock` (epoch seconds) applies when this call creates it: tests move time with it.
   */
  static for(holder: CatalogHolder, clock?: () => number): AuthService {
    let service = services.get(holder);
    if (!service) {
      service = new AuthService(holder, clock);
      services.set(holder, service);
    }
    return service;
  }

  /** Epoch seconds. */
  now(): number {
    return this.clock();
  }

  graphNames(): string[] {
    return this.holder.catalog.graphs.map((g) => g.name);
  }

  graphExists(graph: string): boolean {
    return this.holder.catalog.graphs.some((g) => g.name === graph);
  }

  /**
   * The current state. A data directory that never changed it has only the default user; that
   * state is held in memory (hashed once per process) and written with the first change.
   */
  async state(): Promise<SecurityState> {
    return this.holder.catalog.security ?? (await this.defaultState());
  }

  private defaultState(): Promise<SecurityState> {
    this.initial ??= hashPassword(DEFAULT_PASSWORD).then(
      (h) => (this.initialState = initialSecurityState(h)),
    );
    return this.initial;
  }

  /** The current state when it can be read without waiting (the default one may not be hashed yet). */
  private currentState(): SecurityState | undefined {
    return this.holder.catalog.security ?? this.initialState;
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Applies one change: `change` sees the newest state and returns the next one (or throws, and
   * nothing changes). Changes run one after another.
   */
  async mutate<T>(
    change: (
      state: SecurityState,
    ) => Promise<{ state: SecurityState; result: T }> | { state: SecurityState; result: T },
  ): Promise<T> {
    return this.enqueue(async () => {
      const current = await this.state();
      const { state, result } = await change(current);
      if (state !== current) await this.storeSecurity(state);
      return result;
    });
  }

  /** Writes the security state into the newest catalog; a schema change landing first is retried over. */
  private async storeSecurity(state: SecurityState): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.holder.changeCatalog({ ...this.holder.catalog, security: state });
        return;
      } catch (e) {
        const conflict = e instanceof Error && (e as { code?: unknown }).code === 'CATALOG-CONFLICT';
        if (!conflict || attempt >= 5) throw e;
      }
    }
  }

  // ---- authentication -------------------------------------------------------------------------

  /**
   * User name and password, or `__GSQL__secret` and a secret, from a client at `address`. Throws
   * 401 on anything else, and 429 while the user name or the address is throttled.
   */
  async authenticatePassword(user: string, password: string, address?: string): Promise<Principal> {
    this.throttle.check(user, address);
    try {
      const principal = await this.checkPassword(user, password);
      this.throttle.succeeded(user);
      return principal;
    } catch (e) {
      if (e instanceof AuthError && e.kind === 'unauthenticated') this.throttle.failed(user, address);
      throw e;
    }
  }

  private async checkPassword(user: string, password: string): Promise<Principal> {
    const state = await this.state();
    if (user === SECRET_USER) {
      const secret = findSecret(state, password);
      if (!secret || !findUser(state, secret.user)) throw unauthenticated(INVALID_CREDENTIALS);
      return {
        user: secret.user,
        via: 'secret',
        secretAlias: secret.alias,
        ...(secret.graph === undefined ? {} : { graph: secret.graph }),
      };
    }
    const record = findUser(state, user);
    if (!record) {
      dummyHash ??= hashPassword(randomBytes(12).toString('hex'));
      await verifyPassword(password, await dummyHash);
      throw unauthenticated(INVALID_CREDENTIALS);
    }
    if (!(await this.passwordMatches(record, password))) throw unauthenticated(INVALID_CREDENTIALS);
    return { user, via: 'password' };
  }

  private async passwordMatches(record: UserRecord, password: string): Promise<boolean> {
    const mac = createHmac('sha256', this.macKey).update(record.name).update('\0').update(password).digest();
    const cached = this.verified.get(record.name);
    if (cached && cached.hash === record.password.hash && timingSafeEqual(cached.mac, mac)) return true;
    if (!(await verifyPassword(password, record.password))) return false;
    this.verified.set(record.name, { hash: record.password.hash, mac });
    return true;
  }

  /** A Bearer token. Throws 401 (REST-10016) for a missing, unknown or expired one. */
  async authenticateToken(token: string): Promise<Principal> {
    return authenticateToken(await this.state(), token, this.now());
  }

  /**
   * An Authorization header: Bearer token, or Basic credentials (pyTigerGraph sends Basic even
   * after requesting a token). `missing` is the message when no credentials came at all.
   */
  async authenticateHeader(
    header: string | undefined,
    missing: string,
    address?: string,
  ): Promise<Principal> {
    if (header === undefined) throw unauthenticated(missing);
    const known = this.allowedAtOnce(header, address);
    if (known) return known;
    // The state the header is verified against (the default one is hashed once, then at hand).
    await this.state();
    const before = this.currentState();
    const presented = readAuthorization(header);
    switch (presented.kind) {
      case 'none':
        throw unauthenticated(missing);
      case 'bearer': {
        const principal = await this.authenticateToken(presented.token);
        if (before !== undefined && before === this.currentState()) {
          const expiresAt = findToken(before, presented.token)?.expiresAt;
          if (expiresAt !== undefined) this.credentials.remember(before, header, principal, { expiresAt });
        }
        return principal;
      }
      case 'basic': {
        const principal = await this.authenticatePassword(presented.user, presented.password, address);
        // Remembered only when no security change landed while the password was checked.
        if (before !== undefined && before === this.currentState()) {
          this.credentials.remember(before, header, principal, { throttleName: presented.user });
        }
        return principal;
      }
      case 'malformed':
        throw unauthenticated(
          `Access Denied: unsupported Authorization scheme '${presented.scheme}'; use Bearer <token> or Basic credentials.`,
        );
    }
  }

  /**
   * The caller of an Authorization header verified before under the current security state, when
   * it may do what `rule` asks on `graph` (no rule: only authenticated), decided at once without a
   * promise. Undefined whenever that cannot be decided at once (unknown header, changed state,
   * expired token, throttled user, a refusal): the full path then decides, and builds the error.
   */
  allowedAtOnce(
    header: string,
    address: string | undefined,
    rule?: AccessRule,
    graph?: string,
  ): Principal | undefined {
    const state = this.currentState();
    if (state === undefined) return undefined;
    const known = this.credentials.find(state, header, this.now());
    if (!known) return undefined;
    if (known.throttleName !== undefined) {
      try {
        this.throttle.check(known.throttleName, address);
      } catch {
        return undefined;
      }
      this.throttle.succeeded(known.throttleName);
    }
    const principal = known.principal;
    if (rule !== undefined && !allowedBefore(known, rule, graph)) {
      try {
        checkAccess(state, principal, rule, graph);
      } catch {
        return undefined;
      }
      rememberAllowed(known, rule, graph);
    }
    return { ...principal };
  }

  /** The start-up warning of `ocelot serve` while the default password is in use (it is not shown). */
  async defaultPasswordWarning(): Promise<string | undefined> {
    if (!(await this.defaultPasswordInUse())) return undefined;
    return `Warning: the user "${DEFAULT_USER}" still has its default password; change it with ALTER PASSWORD in gsql.`;
  }

  /** True while the default user still has the default password (the CLI warns about it). */
  async defaultPasswordInUse(): Promise<boolean> {
    const record = findUser(await this.state(), DEFAULT_USER);
    return record !== undefined && (await this.passwordMatches(record, DEFAULT_PASSWORD));
  }

  // ---- authorization --------------------------------------------------------------------------

  async check(principal: Principal, rule: AccessRule, graph: string | undefined): Promise<void> {
    checkAccess(await this.state(), principal, rule, graph);
  }

  async hasPrivilege(user: string, privilege: Privilege, graph?: string): Promise<boolean> {
    return hasPrivilege(await this.state(), user, privilege, graph);
  }

  /** Throws 403 unless `principal` holds `privilege` globally (user administration). */
  async requireGlobal(principal: Principal, privilege: Privilege, what: string): Promise<void> {
    if (!(await this.hasPrivilege(principal.user, privilege))) {
      throw forbidden(
        `Access denied: user '${principal.user}' does not have the privilege ${privilege} on the global scope, which ${what} requires.`,
      );
    }
  }

  /** Throws 404-style AuthError unless the graph exists. */
  requireGraph(graph: string): void {
    if (!this.graphExists(graph))
      throw new AuthError('not_found', 'GSQL-5009', `Graph '${graph}' does not exist.`);
  }

  /** Throws unless the password is acceptable (non-empty, no control characters). */
  static validatePassword(password: string): void {
    if (password.length === 0) throw invalid('The password must not be empty.', 'GSQL-5002');
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f]/.test(password))
      throw invalid('The password must not contain control characters.', 'GSQL-5002');
  }
}
