/**
 * Stripe's request encoding: application/x-www-form-urlencoded with bracketed keys for nested values
 * (`metadata[sku]=standard`, `line_items[0][price]=price_123`).
 *
 * @module
 */

/** A value Stripe's form encoding can carry; null and undefined leave the key out. */
export type FormValue = string | number | boolean | null | undefined | readonly FormValue[] | { readonly [key: string]: FormValue };

function add(params: URLSearchParams, key: string, value: FormValue): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    value.forEach((item: FormValue, index) => add(params, `${key}[${index}]`, item));
  } else if (typeof value === 'object') {
    for (const [name, inner] of Object.entries(value)) add(params, `${key}[${name}]`, inner);
  } else {
    params.append(key, String(value));
  }
}

/**
 * Encodes parameters the way Stripe's API reads them.
 *
 * @param fields The top-level parameters.
 * @returns The form body.
 */
export function encodeForm(fields: { readonly [key: string]: FormValue }): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) add(params, key, value);
  return params.toString();
}
