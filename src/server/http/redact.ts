/**
 * What the log may show of a request: urls and GSQL text with every secret, token and password
 * replaced by `****`. Redaction errs on the side of hiding: a parameter or statement that merely
 * looks like it carries one is masked too.
 */

export const MASK = '****';

/** Query parameters (by name, any case) whose value is a credential. */
const SECRET_PARAMS =
  /([?&;](?:secret|token|tokens|password|pwd|passwd|value|apikey|api_key|jwt|authorization)=)[^&;#]*/gi;

/** A url with the values of credential parameters masked. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, `$1${MASK}`);
}

/**
 * A string literal that follows a keyword naming a credential: `PASSWORD "x"` (CREATE USER … WITH
 * PASSWORD, ALTER PASSWORD … WITH PASSWORD), `SECRET "x"`, `TOKEN "x"`, with an optional `=` or `:`.
 * An unterminated literal is masked to the end of the text.
 */
const CREDENTIAL_LITERAL =
  /\b(PASSWORD|PASSWD|SECRET|TOKEN|TOKENS)(\s*[=:]?\s*)("(?:[^"\\]|\\.)*(?:"|$)|'(?:[^'\\]|\\.)*(?:'|$))/gi;
/** `-p x` / `-p "x"` in a text that repeats a command line. */
const PASSWORD_FLAG = /(\s-p\s+)("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\S+)/g;
/** A Basic or Bearer credential, or the `__GSQL__secret` user's secret in `user:secret` form. */
const AUTH_VALUE = /\b(Basic|Bearer)\s+[A-Za-z0-9+/=._~-]+|(__GSQL__secret\s*[:=]\s*)\S+/gi;

/** GSQL text (a statement or a script) with every password, secret and token literal masked. */
export function redactStatement(text: string): string {
  return text
    .replace(
      CREDENTIAL_LITERAL,
      (_m, kw: string, sep: string, lit: string) => `${kw}${sep}${lit[0]}${MASK}${lit[0]}`,
    )
    .replace(PASSWORD_FLAG, `$1${MASK}`)
    .replace(AUTH_VALUE, (_m, scheme: string | undefined, user: string | undefined) =>
      scheme ? `${scheme} ${MASK}` : `${user}${MASK}`,
    );
}
