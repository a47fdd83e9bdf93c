/**
 * The spec's resource tables as data, and the check of a JSON object against one: required fields, types,
 * allowed values and, where the table says "no other fields", the closed set.
 */
import { fail } from './answer.ts';
import { isUri } from './expect.ts';

/** A field's type as the tables write it. */
export type FieldType = 'string' | 'uri' | 'integer' | 'boolean' | 'string-or-null' | 'array';

export interface Field {
  type: FieldType;
  required: boolean;
  /** "one of ...": the allowed values. */
  oneOf?: readonly string[];
}

export interface Shape {
  /** The table's name, for messages. */
  name: string;
  fields: Record<string, Field>;
  /** "No other fields (are allowed)". */
  closed: boolean;
}

function hasType(value: unknown, type: FieldType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'uri':
      return isUri(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string-or-null':
      return value === null || typeof value === 'string';
    case 'array':
      return Array.isArray(value);
  }
}

/** The first way `value` breaks `shape`, or null. */
export function shapeProblem(value: unknown, shape: Shape): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${shape.name}: expected an object, got ${JSON.stringify(value)}`;
  const object = value as Record<string, unknown>;
  for (const [name, field] of Object.entries(shape.fields)) {
    if (!(name in object)) {
      if (field.required) return `${shape.name}: expected required field "${name}", got none`;
      continue;
    }
    const got = object[name];
    if (!hasType(got, field.type)) return `${shape.name}: expected "${name}" to be ${field.type}, got ${JSON.stringify(got)}`;
    if (field.oneOf && !field.oneOf.includes(got as string)) {
      return `${shape.name}: expected "${name}" one of ${field.oneOf.join(', ')}, got ${JSON.stringify(got)}`;
    }
  }
  if (shape.closed) {
    const extra = Object.keys(object).filter((name) => !(name in shape.fields));
    if (extra.length > 0) return `${shape.name}: expected no other fields, got ${extra.map((name) => `"${name}"`).join(', ')}`;
  }
  return null;
}

/** Fails when `value` breaks `shape`. */
export function expectShape(value: unknown, shape: Shape): void {
  const problem = shapeProblem(value, shape);
  if (problem) fail(problem);
}

const optionalPrices = ['commercial', 'plusAddon', 'plusBundle', 'plusCommercial', 'plusAddonCommercial'].flatMap((name) => {
  const price = name === 'commercial' ? 'commercialLicense' : name;
  const link = `gateway${name[0]!.toUpperCase()}${name.slice(1)}PaymentLink`;
  return [
    [`${price}Price`, { type: 'string', required: false }],
    [`${price}PriceDisplay`, { type: 'string', required: false }],
    [link, { type: 'uri', required: false }],
  ] as const;
});

export const PRICING: Shape = {
  name: 'Pricing payload',
  closed: false,
  fields: {
    product: { type: 'string', required: true },
    productDisplayName: { type: 'string', required: true },
    currency: { type: 'string', required: true, oneOf: ['USD'] },
    licensePrice: { type: 'string', required: true },
    licensePriceDisplay: { type: 'string', required: true },
    gatewayPaymentLink: { type: 'uri', required: true },
    trialFileLimit: { type: 'integer', required: true },
    ...Object.fromEntries(optionalPrices),
  },
};

export const VERSION: Shape = {
  name: 'Version payload',
  closed: true,
  fields: { version: { type: 'string', required: true }, downloadUrl: { type: 'uri', required: true } },
};

export const FEEDBACK_SUCCESS: Shape = { name: 'Feedback success', closed: true, fields: { success: { type: 'boolean', required: true } } };

export const ROADMAP_FEATURE: Shape = {
  name: 'Roadmap feature',
  closed: false,
  fields: {
    id: { type: 'integer', required: true },
    title: { type: 'string', required: true },
    description: { type: 'string', required: true },
    category: { type: 'string', required: true },
    vote_count: { type: 'integer', required: true },
    voted: { type: 'boolean', required: true },
    release_version: { type: 'string-or-null', required: false },
  },
};

export const ROADMAP_LIST: Shape = { name: 'Roadmap list response', closed: true, fields: { features: { type: 'array', required: true } } };

export const VOTE_RESPONSE: Shape = {
  name: 'Roadmap vote response',
  closed: true,
  fields: { voted: { type: 'boolean', required: true }, vote_count: { type: 'integer', required: true } },
};

export const CHECKOUT_CREATED: Shape = {
  name: 'Checkout create response',
  closed: true,
  fields: { sessionId: { type: 'string', required: true }, url: { type: 'uri', required: true } },
};

export const CHECKOUT_STATUS: Shape = {
  name: 'Checkout status response',
  closed: false,
  fields: {
    status: { type: 'string', required: true, oneOf: ['pending', 'processing', 'paid'] },
    licenseKey: { type: 'string-or-null', required: false },
    standardLicenseKey: { type: 'string-or-null', required: false },
    plusLicenseKey: { type: 'string-or-null', required: false },
  },
};
