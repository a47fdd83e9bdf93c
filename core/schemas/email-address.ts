/**
 * One email address, as a buyer's address is taken wherever it enters mail (the simulator's Pay form,
 * the keys, upgrade, verdict and resend mails, POST /licenses/resend, the SMTP sender): exactly one
 * RFC 5322 addr-spec in its dot-atom form, in ASCII. No display name, no angle brackets, no comment, no
 * quoted local part, no address literal, no whitespace and no list: a mail library reads `a, b, c` as
 * three recipients and `Ada <a@x>, b@y` as two, so anything but one bare address is refused.
 *
 * @module
 */

/** The characters of an atom (RFC 5322 atext). */
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
/** A domain label: letters, digits and hyphens, not starting or ending with a hyphen. */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';

/** The pattern of one address, as the OpenAPI documents it (ECMA-262, no flags). */
export const ONE_ADDRESS_PATTERN = `^${ATEXT}+(?:\\.${ATEXT}+)*@${LABEL}(?:\\.${LABEL})*$`;

/** The regular expression of `ONE_ADDRESS_PATTERN`. */
export const ONE_ADDRESS = new RegExp(ONE_ADDRESS_PATTERN);

/** The longest address kept or mailed (as the orders keep it). */
export const MAX_ADDRESS_LENGTH = 320;

/** What a refused address is told: the rule, with an example. */
export const ONE_ADDRESS_RULE = 'must be one email address such as ada@example.com (no name, no brackets, no list)';

/** Whether a text is exactly one email address (see the module). */
export function isOneAddress(text: string): boolean {
  return text.length <= MAX_ADDRESS_LENGTH && ONE_ADDRESS.test(text);
}
