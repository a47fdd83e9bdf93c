/**
 * JSON Feed 1.1 (https://jsonfeed.org/version/1.1) as a JSON Schema (draft 2020-12), written for these tests
 * from the specification's text, field by field: what a feed and an item must and may hold. Keys starting
 * with an underscore are extensions (objects), allowed at both levels; anything else unknown is refused,
 * so that a misspelt field fails.
 */
const url = { type: 'string', format: 'uri' } as const;
const date = { type: 'string', format: 'date-time' } as const;
const extension = { type: 'object' } as const;

const author = {
  type: 'object',
  properties: { name: { type: 'string' }, url, avatar: url },
  anyOf: [{ required: ['name'] }, { required: ['url'] }, { required: ['avatar'] }],
  patternProperties: { '^_': extension },
  additionalProperties: false,
} as const;

const attachment = {
  type: 'object',
  required: ['url', 'mime_type'],
  properties: {
    url,
    mime_type: { type: 'string' },
    title: { type: 'string' },
    size_in_bytes: { type: 'number' },
    duration_in_seconds: { type: 'number' },
  },
  patternProperties: { '^_': extension },
  additionalProperties: false,
} as const;

const item = {
  type: 'object',
  required: ['id'],
  anyOf: [{ required: ['content_html'] }, { required: ['content_text'] }],
  properties: {
    id: { type: 'string' },
    url,
    external_url: url,
    title: { type: 'string' },
    content_html: { type: 'string' },
    content_text: { type: 'string' },
    summary: { type: 'string' },
    image: url,
    banner_image: url,
    date_published: date,
    date_modified: date,
    authors: { type: 'array', items: author },
    tags: { type: 'array', items: { type: 'string' } },
    language: { type: 'string' },
    attachments: { type: 'array', items: attachment },
  },
  patternProperties: { '^_': extension },
  additionalProperties: false,
} as const;

export const JSON_FEED_1_1_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['version', 'title', 'items'],
  properties: {
    version: { const: 'https://jsonfeed.org/version/1.1' },
    title: { type: 'string' },
    home_page_url: url,
    feed_url: url,
    description: { type: 'string' },
    user_comment: { type: 'string' },
    next_url: url,
    icon: url,
    favicon: url,
    authors: { type: 'array', items: author },
    language: { type: 'string' },
    expired: { type: 'boolean' },
    hubs: {
      type: 'array',
      items: { type: 'object', required: ['type', 'url'], properties: { type: { type: 'string' }, url } },
    },
    items: { type: 'array', items: item },
  },
  patternProperties: { '^_': extension },
  additionalProperties: false,
} as const;
