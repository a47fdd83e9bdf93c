// Express: the API mounted in an existing app. Mount it before any body parser (it reads the body
// itself) and without a path prefix (it routes the full path); isAppPath names exactly the paths it answers.
import express from 'express';
import { isAppPath } from 'converter-site-api';
import { createNodeListener } from 'converter-site-api/node';
import { createSiteApp } from './site.ts';

const port = Number(process.env['PORT'] ?? 8080);
const api = createNodeListener(await createSiteApp(`http://localhost:${port}`));
const app = express();
app.use((req, res, next) => (isAppPath(req.path) ? api(req, res) : next()));
app.get('/', (_req, res) => void res.send('the rest of your site'));

app.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
