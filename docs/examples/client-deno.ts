// Deno: `deno run --allow-net --allow-env client-deno.ts`, with BASE_URL pointing at the API.
import { createClient } from 'converter-site-api/client';

const api = createClient({ baseUrl: Deno.env.get('BASE_URL') ?? 'http://127.0.0.1:8080', retry: { retries: 1 } });

const { features } = await api.listRoadmap();
const first = features[0];
if (first) {
  const { voted, vote_count } = await api.toggleRoadmapVote({ featureId: first.id });
  console.log(`${first.title}: voted ${voted}, ${vote_count} votes`);
}
console.log(`installer: ${await api.downloadInstaller({ source: 'deno-script', force: '1' })}`);
