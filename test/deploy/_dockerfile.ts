/**
 * Reads a Dockerfile into its stages and instructions, for the replay in dockerfile.test.ts. Only the
 * instructions that replay understands are accepted: a new one fails the parse instead of being skipped.
 */

/** One instruction, its arguments as written (continuation lines joined). */
export type Instruction =
  | { op: 'WORKDIR'; path: string }
  | { op: 'COPY'; from: string | null; chown: string | null; sources: string[]; dest: string }
  | { op: 'RUN'; command: string }
  | { op: 'ENV'; values: Record<string, string> }
  | { op: 'USER'; user: string }
  | { op: 'VOLUME'; path: string }
  | { op: 'EXPOSE'; port: number }
  | { op: 'HEALTHCHECK'; options: Record<string, string>; command: string[] }
  | { op: 'CMD'; command: string[] };

/** A build stage. */
export interface Stage {
  image: string;
  name: string | null;
  steps: Instruction[];
}

function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    lines.push(pending + line);
    pending = '';
  }
  return lines;
}

function execForm(text: string, what: string): string[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === 'string')) throw new Error(`${what} must be in exec form (a JSON array)`);
  return parsed as string[];
}

function flags(words: string[]): { options: Record<string, string>; rest: string[] } {
  const options: Record<string, string> = {};
  let i = 0;
  for (; i < words.length && words[i]!.startsWith('--'); i++) {
    const [name, value = ''] = words[i]!.slice(2).split(/=(.*)/s);
    options[name!] = value;
  }
  return { options, rest: words.slice(i) };
}

function instruction(op: string, args: string): Instruction {
  const words = args.split(/\s+/);
  switch (op) {
    case 'WORKDIR':
    case 'USER':
    case 'VOLUME':
      if (words.length !== 1) throw new Error(`${op} takes one argument here: ${args}`);
      return op === 'USER' ? { op, user: words[0]! } : { op, path: words[0]! };
    case 'EXPOSE':
      return { op, port: Number(words[0]) };
    case 'RUN':
      return { op, command: args };
    case 'ENV':
      return { op, values: Object.fromEntries([...args.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map((m) => [m[1]!, m[2]!.replace(/^"|"$/g, '')])) };
    case 'COPY': {
      const { options, rest } = flags(words);
      if (rest.length < 2) throw new Error(`COPY needs a source and a destination: ${args}`);
      return { op, from: options['from'] ?? null, chown: options['chown'] ?? null, sources: rest.slice(0, -1), dest: rest.at(-1)! };
    }
    case 'HEALTHCHECK': {
      const at = args.indexOf(' CMD ');
      if (at < 0) throw new Error('HEALTHCHECK must end in CMD [...]');
      return { op, options: flags(args.slice(0, at).split(/\s+/)).options, command: execForm(args.slice(at + 5), 'HEALTHCHECK CMD') };
    }
    case 'CMD':
      return { op, command: execForm(args, 'CMD') };
    default:
      throw new Error(`the replay does not know the instruction ${op}`);
  }
}

/**
 * Parses a Dockerfile.
 *
 * @param text The Dockerfile.
 * @returns Its stages in order.
 */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const line of logicalLines(text)) {
    const [, op, args] = /^(\w+)\s+(.*)$/s.exec(line) ?? [];
    if (!op || args === undefined) throw new Error(`cannot read the line: ${line}`);
    if (op.toUpperCase() === 'FROM') {
      const [image, as, name] = args.split(/\s+/);
      stages.push({ image: image!, name: as?.toUpperCase() === 'AS' ? name! : null, steps: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`${op} before FROM`);
    stage.steps.push(instruction(op.toUpperCase(), args));
  }
  return stages;
}

/**
 * Whether a .dockerignore pattern list leaves a path (relative to the context, with /) out. Patterns
 * are Go filepath.Match globs (`*`, `?`) with `**` for any depth; one that matches a directory leaves
 * everything under it out. Exceptions (`!`) are not supported.
 */
export function dockerIgnored(patterns: readonly string[], path: string): boolean {
  return patterns.some((pattern) => {
    const source = pattern
      .replace(/^\/+|\/+$/g, '')
      .split('**')
      .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]'))
      .join('.*');
    return new RegExp(`^${source}(/.*)?$`).test(path);
  });
}

/**
 * The patterns of a .dockerignore file.
 *
 * @throws Error on an exception pattern (`!`), which dockerIgnored does not implement.
 */
export function readDockerignore(text: string): string[] {
  const patterns = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  if (patterns.some((pattern) => pattern.startsWith('!'))) throw new Error('.dockerignore exceptions (!) are not replayed');
  return patterns;
}
