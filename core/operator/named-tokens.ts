/**
 * Named operator tokens: each person who operates the service has a token of their own, so that the audit
 * trail says who made a change. `OPERATOR_TOKENS=ada:<token>,grace:<token>` names them; the single
 * OPERATOR_TOKEN stays accepted, under the name `operator`.
 *
 * @module
 */
/** One operator's token and the name the audit trail records for it. */
export interface OperatorToken {
  /** A short slug (OPERATOR_NAME_PATTERN), e.g. "ada". */
  readonly name: string;
  readonly token: string;
}

/** The shortest operator token accepted: 32 characters (e.g. `openssl rand -hex 32` gives 64). */
export const MIN_OPERATOR_TOKEN_LENGTH = 32;
/** The fewest different characters an operator token may have: 32 of one character is no secret. */
export const MIN_OPERATOR_TOKEN_CHARACTERS = 8;

/** Why a token is refused as an operator token, or null when it will do. */
export function operatorTokenProblem(token: string): string | null {
  if (token.length < MIN_OPERATOR_TOKEN_LENGTH) return `must be at least ${MIN_OPERATOR_TOKEN_LENGTH} characters`;
  if (new Set(token).size < MIN_OPERATOR_TOKEN_CHARACTERS) return `must have at least ${MIN_OPERATOR_TOKEN_CHARACTERS} different characters (it repeats a few)`;
  return null;
}

/** The name the single OPERATOR_TOKEN acts under. */
export const DEFAULT_OPERATOR_NAME = 'operator';

/** An operator's name: a lower-case letter, then up to 31 lower-case letters, digits or hyphens. */
export const OPERATOR_NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/** What a name must look like, as the refusals say it. */
export const OPERATOR_NAME_RULE = 'a lower-case letter, then up to 31 lower-case letters, digits or hyphens';

/**
 * Reads `name:token,name:token` (spaces around each part ignored).
 *
 * @returns The tokens in order, or the problem of the first entry that is not `name:token`.
 */
export function parseOperatorTokens(text: string): OperatorToken[] | string {
  const tokens: OperatorToken[] = [];
  for (const [index, entry] of text.split(',').entries()) {
    const colon = entry.indexOf(':');
    const name = colon < 0 ? '' : entry.slice(0, colon).trim();
    const token = colon < 0 ? '' : entry.slice(colon + 1).trim();
    if (colon < 0 || name === '' || token === '') return `entry ${index + 1} is not name:token`;
    tokens.push({ name, token });
  }
  return tokens;
}

/**
 * Why a list of named tokens cannot be used, or null when it can: a name that is no slug, a weak token,
 * a name or a token given twice.
 */
export function operatorTokensProblem(tokens: readonly OperatorToken[]): string | null {
  const names = new Set<string>();
  const secrets = new Set<string>();
  for (const { name, token } of tokens) {
    if (!OPERATOR_NAME_PATTERN.test(name)) return `name ${JSON.stringify(name)} must be ${OPERATOR_NAME_RULE}`;
    const weak = operatorTokenProblem(token);
    if (weak !== null) return `token of ${name} ${weak}`;
    if (names.has(name)) return `name ${name} is given twice`;
    if (secrets.has(token)) return `token of ${name} is also another name's token (each person needs a token of their own)`;
    names.add(name);
    secrets.add(token);
  }
  return null;
}

/** Every token an app's options give: OPERATOR_TOKEN's (named `operator`) first, then the named ones. */
export function operatorTokensOf(options: { operatorToken?: string | undefined; operatorTokens?: readonly OperatorToken[] | undefined }): OperatorToken[] {
  const single = options.operatorToken === undefined ? [] : [{ name: DEFAULT_OPERATOR_NAME, token: options.operatorToken }];
  return [...single, ...(options.operatorTokens ?? [])];
}
